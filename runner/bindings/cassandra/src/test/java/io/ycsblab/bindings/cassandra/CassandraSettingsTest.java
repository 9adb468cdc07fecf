package io.ycsblab.bindings.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import io.ycsblab.bindings.common.BindingProperties;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import site.ycsb.DBException;

class CassandraSettingsTest {
  private static CassandraSettings from(String... pairs) throws DBException {
    Properties p = new Properties();
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return CassandraSettings.from(new BindingProperties(p));
  }

  @Test
  void defaultsForOneLocalNode() throws DBException {
    CassandraSettings s = from("hosts", "127.0.0.1");
    assertEquals(List.of(InetSocketAddress.createUnresolved("127.0.0.1", 9042).getHostString()), s.contactPoints().stream().map(InetSocketAddress::getHostString).toList());
    assertEquals(9042, s.contactPoints().get(0).getPort());
    assertEquals("ycsb", s.keyspace());
    assertEquals(CassandraSettings.DEFAULT_DC, s.localDatacenter());
    assertEquals(DefaultConsistencyLevel.ONE, s.readConsistency());
    assertEquals(DefaultConsistencyLevel.ONE, s.writeConsistency());
    assertEquals("unset", s.preset());
  }

  @Test
  void everyHostOnTheGivenPortAndTheConsistencyLevelsOfAPreset() throws DBException {
    CassandraSettings s = from("hosts", "10.0.1.10,10.0.1.11", "port", "9142", "cassandra.writeconsistencylevel", "quorum", "ycsblab.preset", "durable");
    assertEquals(2, s.contactPoints().size());
    assertEquals(9142, s.contactPoints().get(1).getPort());
    assertEquals(DefaultConsistencyLevel.QUORUM, s.writeConsistency());
    assertEquals("durable", s.preset());
  }

  @Test
  void refusesWhatWouldRunWrongly() {
    DBException e = assertThrows(DBException.class, () -> from());
    assertTrue(e.getMessage().contains("hosts is required"), e.getMessage());
    e = assertThrows(DBException.class, () -> from("hosts", "127.0.0.1", "cassandra.username", "u"));
    assertTrue(e.getMessage().contains("go together"), e.getMessage());
    e = assertThrows(DBException.class, () -> from("hosts", "127.0.0.1", "cassandra.readconsistencylevel", "MOST"));
    assertTrue(e.getMessage().contains("must be one of"), e.getMessage());
  }
}
