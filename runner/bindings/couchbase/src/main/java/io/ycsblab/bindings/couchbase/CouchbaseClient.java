package io.ycsblab.bindings.couchbase;

import com.couchbase.client.core.error.DocumentNotFoundException;
import com.couchbase.client.core.msg.kv.DurabilityLevel;
import com.couchbase.client.core.service.ServiceType;
import com.couchbase.client.java.Bucket;
import com.couchbase.client.java.Cluster;
import com.couchbase.client.java.ClusterOptions;
import com.couchbase.client.java.Collection;
import com.couchbase.client.java.json.JsonArray;
import com.couchbase.client.java.json.JsonObject;
import com.couchbase.client.java.kv.GetResult;
import com.couchbase.client.java.kv.MutateInSpec;
import com.couchbase.client.java.kv.MutateInOptions;
import com.couchbase.client.java.kv.RemoveOptions;
import com.couchbase.client.java.kv.UpsertOptions;
import com.couchbase.client.java.diagnostics.WaitUntilReadyOptions;
import com.couchbase.client.java.query.QueryOptions;
import com.couchbase.client.java.query.QueryResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * YCSB binding for Couchbase (SDK 3): one JSON document per record in the bucket's default collection,
 * document id = YCSB key, one string property per field.
 *
 * <p>Properties: {@code couchbase.connectionString}, {@code couchbase.username}, {@code couchbase.password},
 * {@code couchbase.bucket}; {@code couchbase.durability} (none/majority/majorityAndPersistToActive/
 * persistToMajority, from model/presets.ts) on every mutation; {@code couchbase.scan}: {@code n1ql} answers SCAN
 * with a query, {@code none} (default) returns NOT_IMPLEMENTED, as Couchbase's KV API has no range scan
 * (seed 000: "Range scan is not supported").
 */
public class CouchbaseClient extends DB {
  private static final Object LOCK = new Object();
  private static Cluster cluster;
  private static Collection collection;
  private static String bucketName;
  private static int references;
  private static volatile boolean scanWarned;

  private DurabilityLevel durability;
  private boolean n1qlScan;

  @Override
  public void init() throws DBException {
    CouchbaseSettings settings = CouchbaseSettings.from(getProperties());
    durability = settings.durability();
    n1qlScan = settings.n1qlScan();
    synchronized (LOCK) {
      references++;
      if (cluster != null) {
        return;
      }
      String connectionString = settings.connectionString();
      bucketName = settings.bucket();
      long timeoutMs = settings.kvTimeoutMs();
      try {
        cluster = Cluster.connect(connectionString, ClusterOptions.clusterOptions(settings.username(), settings.password())
            .environment(env -> env.timeoutConfig(t -> t.kvTimeout(Duration.ofMillis(timeoutMs))
                .kvDurableTimeout(Duration.ofMillis(Math.max(timeoutMs, 10000))))));
        Bucket bucket = cluster.bucket(bucketName);
        // KV is all YCSB needs unless scans go through N1QL; waiting for every service fails on KV-only nodes.
        Set<ServiceType> services = n1qlScan ? EnumSet.of(ServiceType.KV, ServiceType.QUERY) : EnumSet.of(ServiceType.KV);
        bucket.waitUntilReady(Duration.ofSeconds(30), WaitUntilReadyOptions.waitUntilReadyOptions().serviceTypes(services));
        collection = bucket.defaultCollection();
      } catch (RuntimeException e) {
        references--;
        if (cluster != null) {
          cluster.disconnect();
          cluster = null;
        }
        throw new DBException("couchbase binding: cannot open bucket '" + bucketName + "' at " + connectionString + ": " + e, e);
      }
      System.err.println("couchbase binding: " + connectionString + " bucket=" + bucketName + " durability=" + durability
          + " scan=" + (n1qlScan ? "n1ql" : "none"));
    }
  }

  @Override
  public void cleanup() throws DBException {
    synchronized (LOCK) {
      references--;
      if (references == 0 && cluster != null) {
        cluster.disconnect();
        cluster = null;
        collection = null;
      }
    }
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    try {
      GetResult got = collection.get(key);
      copyFields(got.contentAsObject(), fields, result);
      return Status.OK;
    } catch (DocumentNotFoundException e) {
      return Status.NOT_FOUND;
    } catch (RuntimeException e) {
      return error("read", key, e);
    }
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    if (!n1qlScan) {
      if (!scanWarned) {
        scanWarned = true;
        System.err.println("couchbase binding: SCAN is NOT_IMPLEMENTED: Range scan is not supported by the KV API "
            + "(seed 000); set couchbase.scan=n1ql to answer scans with a query");
      }
      return Status.NOT_IMPLEMENTED;
    }
    try {
      String statement = "SELECT RAW META().id FROM `" + bucketName + "` WHERE META().id >= $1 ORDER BY META().id LIMIT $2";
      QueryResult ids = cluster.query(statement, QueryOptions.queryOptions().parameters(JsonArray.from(startkey, recordcount)));
      for (String id : ids.rowsAs(String.class)) {
        HashMap<String, ByteIterator> row = new HashMap<>();
        copyFields(collection.get(id).contentAsObject(), fields, row);
        result.add(row);
      }
      return Status.OK;
    } catch (DocumentNotFoundException e) {
      return Status.NOT_FOUND;
    } catch (RuntimeException e) {
      return error("scan", startkey, e);
    }
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    // Sub-document upserts change only the given fields, atomically, without a read first.
    List<MutateInSpec> specs = new ArrayList<>();
    values.forEach((field, value) -> specs.add(MutateInSpec.upsert(field, value.toString())));
    try {
      collection.mutateIn(key, specs, MutateInOptions.mutateInOptions().durability(durability));
      return Status.OK;
    } catch (DocumentNotFoundException e) {
      return Status.NOT_FOUND;
    } catch (RuntimeException e) {
      return error("update", key, e);
    }
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    JsonObject doc = JsonObject.create();
    values.forEach((field, value) -> doc.put(field, value.toString()));
    try {
      collection.upsert(key, doc, UpsertOptions.upsertOptions().durability(durability));
      return Status.OK;
    } catch (RuntimeException e) {
      return error("insert", key, e);
    }
  }

  @Override
  public Status delete(String table, String key) {
    try {
      collection.remove(key, RemoveOptions.removeOptions().durability(durability));
      return Status.OK;
    } catch (DocumentNotFoundException e) {
      return Status.NOT_FOUND;
    } catch (RuntimeException e) {
      return error("delete", key, e);
    }
  }

  private static void copyFields(JsonObject doc, Set<String> fields, Map<String, ByteIterator> result) {
    for (String name : doc.getNames()) {
      if (fields == null || fields.contains(name)) {
        result.put(name, new StringByteIterator(String.valueOf(doc.get(name))));
      }
    }
  }

  private static Status error(String op, String key, RuntimeException e) {
    System.err.println("couchbase binding: " + op + " " + key + " failed: " + e);
    return Status.ERROR;
  }
}
