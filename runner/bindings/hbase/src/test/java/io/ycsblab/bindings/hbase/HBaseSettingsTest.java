package io.ycsblab.bindings.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Properties;
import org.apache.hadoop.hbase.client.Durability;
import org.junit.jupiter.api.Test;
import site.ycsb.DBException;

class HBaseSettingsTest {
  private static Properties props(String... pairs) {
    Properties p = new Properties();
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  @Test
  void defaultsAreTheSeedsFamilyTheServersDurabilityAndNoBuffering() throws DBException {
    HBaseSettings s = HBaseSettings.from(props());
    assertEquals("data", s.family());
    assertEquals(Durability.USE_DEFAULT, s.durability());
    assertFalse(s.useBufferedMutator());
    assertEquals(Map.of(), s.clientConfiguration());
  }

  @Test
  void presetsDurabilityAndTheClientConfigurationAreRead() throws DBException {
    HBaseSettings s = HBaseSettings.from(props("hbase.durability", "FSYNC_WAL", "hbase.usebufferedmutator", "true", "hbase.zookeeper.quorum", "10.0.0.1",
        "hbase.zookeeper.property.clientPort", "2181", "zookeeper.session.timeout", "30000", "recordcount", "1000"));
    assertEquals(Durability.FSYNC_WAL, s.durability());
    assertTrue(s.useBufferedMutator());
    // Only hbase.* and zookeeper.* reach HBase's Configuration (hbase.durability and the mutator switch are harmless there).
    assertEquals(Map.of("hbase.durability", "FSYNC_WAL", "hbase.usebufferedmutator", "true", "hbase.zookeeper.quorum", "10.0.0.1",
        "hbase.zookeeper.property.clientPort", "2181", "zookeeper.session.timeout", "30000"), s.clientConfiguration());
  }

  @Test
  void badValuesFailNamingTheProperty() {
    assertTrue(assertThrows(DBException.class, () -> HBaseSettings.from(props("hbase.durability", "fsync"))).getMessage().startsWith("hbase.durability must be one of"));
    // Boolean.parseBoolean read "yes" as false: an unbuffered run the user did not ask for.
    assertEquals("hbase.usebufferedmutator must be true or false, got 'yes'", assertThrows(DBException.class, () -> HBaseSettings.from(props("hbase.usebufferedmutator", "yes"))).getMessage());
    assertTrue(assertThrows(DBException.class, () -> HBaseSettings.from(props("columnfamily", " "))).getMessage().startsWith("columnfamily must name"));
  }
}
