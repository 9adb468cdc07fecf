package io.ycsblab.bindings.mongodb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.mongodb.WriteConcern;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import site.ycsb.DBException;

class MongoDbSettingsTest {
  private static Properties props(String... pairs) {
    Properties p = new Properties();
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  @Test
  void defaultsAreTheLocalServerWithTheServerDefaultConcernAndNoBatching() throws DBException {
    MongoDbSettings s = MongoDbSettings.from(props());
    assertEquals("mongodb://127.0.0.1:27017/ycsb", s.url());
    assertEquals("ycsb", s.database());
    assertEquals(new WriteConcern(1).withJournal(false), s.writeConcern());
    assertEquals(1, s.batchSize());
  }

  @Test
  void presetsWriteConcernsAreRead() throws DBException {
    // model/presets.ts: durable is {w: majority, j: true}, throughput {w: 1, j: false}.
    assertEquals(WriteConcern.MAJORITY.withJournal(true), MongoDbSettings.from(props("mongodb.writeConcern.w", "majority", "mongodb.writeConcern.j", "true")).writeConcern());
    assertEquals(new WriteConcern(2).withJournal(false), MongoDbSettings.from(props("mongodb.writeConcern.w", " 2 ")).writeConcern());
  }

  @Test
  void theDatabaseComesFromTheUrlAndCredentialsAreMaskedInTheLog() throws DBException {
    MongoDbSettings s = MongoDbSettings.from(props("mongodb.url", "mongodb://user:secret@10.0.0.1:27017/bench?w=1"));
    assertEquals("bench", s.database());
    assertEquals("mongodb://***@10.0.0.1:27017/bench?w=1", s.maskedUrl());
  }

  @Test
  void badValuesFailNamingTheProperty() {
    assertTrue(assertThrows(DBException.class, () -> MongoDbSettings.from(props("mongodb.writeConcern.w", "all"))).getMessage().startsWith("mongodb.writeConcern.w must be"));
    assertTrue(assertThrows(DBException.class, () -> MongoDbSettings.from(props("mongodb.writeConcern.j", "yes"))).getMessage().startsWith("mongodb.writeConcern.j must be"));
    assertEquals("mongodb.batchsize must be a whole number >= 1, got 'ten'", assertThrows(DBException.class, () -> MongoDbSettings.from(props("mongodb.batchsize", "ten"))).getMessage());
    assertEquals("mongodb.batchsize must be a whole number >= 1, got '0'", assertThrows(DBException.class, () -> MongoDbSettings.from(props("mongodb.batchsize", "0"))).getMessage());
    assertTrue(assertThrows(DBException.class, () -> MongoDbSettings.from(props("mongodb.url", "http://127.0.0.1/"))).getMessage().startsWith("mongodb.url is not a MongoDB connection string"));
  }
}
