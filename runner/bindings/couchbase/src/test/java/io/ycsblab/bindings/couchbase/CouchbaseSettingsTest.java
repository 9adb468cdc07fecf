package io.ycsblab.bindings.couchbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.couchbase.client.core.msg.kv.DurabilityLevel;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import site.ycsb.DBException;

class CouchbaseSettingsTest {
  private static Properties props(String... pairs) {
    Properties p = new Properties();
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  @Test
  void defaultsAreTheLocalClusterWithoutDurabilityOrScans() throws DBException {
    CouchbaseSettings s = CouchbaseSettings.from(props());
    assertEquals("couchbase://127.0.0.1", s.connectionString());
    assertEquals("ycsb", s.bucket());
    assertEquals(DurabilityLevel.NONE, s.durability());
    assertFalse(s.n1qlScan());
    assertEquals(10_000, s.kvTimeoutMs());
  }

  @Test
  void everyDurabilityLevelOfThePresetsIsKnown() throws DBException {
    assertEquals(DurabilityLevel.MAJORITY, CouchbaseSettings.from(props("couchbase.durability", "majority")).durability());
    assertEquals(DurabilityLevel.MAJORITY_AND_PERSIST_TO_ACTIVE, CouchbaseSettings.from(props("couchbase.durability", "majorityAndPersistToActive")).durability());
    assertEquals(DurabilityLevel.PERSIST_TO_MAJORITY, CouchbaseSettings.from(props("couchbase.durability", " persistToMajority ")).durability());
    assertTrue(CouchbaseSettings.from(props("couchbase.scan", "n1ql")).n1qlScan());
  }

  @Test
  void badValuesFailNamingTheProperty() {
    assertTrue(assertThrows(DBException.class, () -> CouchbaseSettings.from(props("couchbase.durability", "MAJORITY"))).getMessage().startsWith("couchbase.durability must be"));
    assertEquals("couchbase.scan must be none or n1ql; got 'range'", assertThrows(DBException.class, () -> CouchbaseSettings.from(props("couchbase.scan", "range"))).getMessage());
    // Long.parseLong's NumberFormatException named neither the property nor the value's meaning.
    assertEquals("couchbase.kvTimeoutMs must be a whole number of milliseconds >= 1, got '10s'", assertThrows(DBException.class, () -> CouchbaseSettings.from(props("couchbase.kvTimeoutMs", "10s"))).getMessage());
    assertEquals("couchbase.kvTimeoutMs must be a whole number of milliseconds >= 1, got '0'", assertThrows(DBException.class, () -> CouchbaseSettings.from(props("couchbase.kvTimeoutMs", "0"))).getMessage());
  }
}
