package io.ycsblab.bindings.mongodb;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.WriteConcern;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.InsertManyOptions;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.result.DeleteResult;
import com.mongodb.client.result.UpdateResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import org.bson.Document;
import org.bson.types.Binary;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * YCSB binding for MongoDB: one document per record, {@code _id} = YCSB key, one binary field per YCSB field.
 *
 * <p>Properties (the durability ones come from model/presets.ts through {@code ycsb-lab ycsb}, never defaulted per preset here):
 * <ul>
 *   <li>{@code mongodb.url}: connection string, default {@code mongodb://127.0.0.1:27017/ycsb}; its database is used.</li>
 *   <li>{@code mongodb.writeConcern.w}: a number or {@code majority}; {@code mongodb.writeConcern.j}: true/false.</li>
 *   <li>{@code mongodb.batchsize}: inserts per {@code insertMany}, default 1 (no batching).</li>
 * </ul>
 */
public class MongoDbClient extends DB {
  private static final Object LOCK = new Object();
  /** One MongoClient (one connection pool) per JVM, shared by YCSB's per-thread DB instances. */
  private static MongoClient client;
  private static MongoDatabase database;
  private static int references;

  private int batchSize = 1;
  private final List<Document> batch = new ArrayList<>();
  private String batchTable;

  @Override
  public void init() throws DBException {
    MongoDbSettings settings = MongoDbSettings.from(getProperties());
    batchSize = settings.batchSize();
    synchronized (LOCK) {
      references++;
      if (client != null) {
        return;
      }
      WriteConcern writeConcern = settings.writeConcern();
      MongoClientSettings clientSettings = MongoClientSettings.builder()
          .applyConnectionString(new ConnectionString(settings.url()))
          .writeConcern(writeConcern)
          .build();
      client = MongoClients.create(clientSettings);
      database = client.getDatabase(settings.database()).withWriteConcern(writeConcern);
      System.err.println("mongodb binding: " + settings.maskedUrl() + " database=" + settings.database()
          + " writeConcern=" + writeConcern.asDocument().toJson() + " batchsize=" + batchSize);
    }
  }

  @Override
  public void cleanup() throws DBException {
    try {
      flushBatch();
    } finally {
      synchronized (LOCK) {
        references--;
        if (references == 0 && client != null) {
          client.close();
          client = null;
          database = null;
        }
      }
    }
  }

  private MongoCollection<Document> collection(String table) {
    return database.getCollection(table);
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    try {
      var find = collection(table).find(Filters.eq("_id", key));
      if (fields != null) {
        find = find.projection(Projections.include(new ArrayList<>(fields)));
      }
      Document doc = find.first();
      if (doc == null) {
        return Status.NOT_FOUND;
      }
      copyFields(doc, result);
      return Status.OK;
    } catch (RuntimeException e) {
      return error("read", key, e);
    }
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    var find = collection(table).find(Filters.gte("_id", startkey)).sort(Sorts.ascending("_id")).limit(recordcount);
    if (fields != null) {
      find = find.projection(Projections.include(new ArrayList<>(fields)));
    }
    try (MongoCursor<Document> cursor = find.iterator()) {
      while (cursor.hasNext()) {
        HashMap<String, ByteIterator> row = new HashMap<>();
        copyFields(cursor.next(), row);
        result.add(row);
      }
      return Status.OK;
    } catch (RuntimeException e) {
      return error("scan", startkey, e);
    }
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    try {
      Document set = new Document();
      values.forEach((field, value) -> set.append(field, new Binary(value.toArray())));
      UpdateResult updated = collection(table).updateOne(Filters.eq("_id", key), new Document("$set", set));
      return updated.getMatchedCount() == 0 ? Status.NOT_FOUND : Status.OK;
    } catch (RuntimeException e) {
      return error("update", key, e);
    }
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    Document doc = new Document("_id", key);
    values.forEach((field, value) -> doc.append(field, new Binary(value.toArray())));
    try {
      if (batchSize == 1) {
        collection(table).insertOne(doc);
        return Status.OK;
      }
      if (batchTable != null && !batchTable.equals(table)) {
        flushBatch();
      }
      batchTable = table;
      batch.add(doc);
      if (batch.size() < batchSize) {
        return Status.BATCHED_OK;
      }
      flushBatch();
      return Status.OK;
    } catch (RuntimeException e) {
      batch.clear();
      return error("insert", key, e);
    }
  }

  /** Sends the pending batch; ordered=false lets the server apply the rest when one document fails. */
  private void flushBatch() {
    if (batch.isEmpty()) {
      return;
    }
    try {
      collection(batchTable).insertMany(new ArrayList<>(batch), new InsertManyOptions().ordered(false));
    } finally {
      batch.clear();
    }
  }

  @Override
  public Status delete(String table, String key) {
    try {
      DeleteResult deleted = collection(table).deleteOne(Filters.eq("_id", key));
      return deleted.getDeletedCount() == 0 ? Status.NOT_FOUND : Status.OK;
    } catch (RuntimeException e) {
      return error("delete", key, e);
    }
  }

  private static void copyFields(Document doc, Map<String, ByteIterator> result) {
    for (Map.Entry<String, Object> entry : doc.entrySet()) {
      if (entry.getKey().equals("_id")) {
        continue;
      }
      Object value = entry.getValue();
      byte[] bytes = value instanceof Binary ? ((Binary) value).getData() : String.valueOf(value).getBytes();
      result.put(entry.getKey(), new ByteArrayByteIterator(bytes));
    }
  }

  private static Status error(String op, String key, RuntimeException e) {
    System.err.println("mongodb binding: " + op + " " + key + " failed: " + e);
    return Status.ERROR;
  }
}
