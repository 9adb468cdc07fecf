package io.ycsblab.bindings.hbase;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * YCSB binding for HBase 2.5: one row per record, one column per field in family {@code columnfamily}.
 *
 * <p>Properties: every {@code hbase.*} property is copied into the HBase client Configuration (ZooKeeper quorum
 * and port); {@code hbase.durability} (SKIP_WAL/ASYNC_WAL/SYNC_WAL/FSYNC_WAL, from model/presets.ts) is set on
 * every mutation; {@code hbase.usebufferedmutator=true} batches puts/deletes client side until cleanup or the
 * write buffer fills; {@code columnfamily} defaults to {@code data} (seeds 000/001).
 */
public class HBaseClient extends DB {
  private static final Object LOCK = new Object();
  /** One Connection per JVM: it is thread safe and heavy, YCSB makes one DB instance per thread. */
  private static Connection connection;
  private static int references;

  private byte[] family;
  private Durability durability;
  private boolean useBufferedMutator;
  private final Map<String, Table> tables = new HashMap<>();
  private final Map<String, BufferedMutator> mutators = new HashMap<>();

  @Override
  public void init() throws DBException {
    HBaseSettings settings = HBaseSettings.from(getProperties());
    family = Bytes.toBytes(settings.family());
    durability = settings.durability();
    useBufferedMutator = settings.useBufferedMutator();
    synchronized (LOCK) {
      references++;
      if (connection != null) {
        return;
      }
      Configuration conf = HBaseConfiguration.create();
      settings.clientConfiguration().forEach(conf::set);
      try {
        connection = ConnectionFactory.createConnection(conf);
      } catch (IOException e) {
        references--;
        throw new DBException("hbase binding: cannot connect to ZooKeeper quorum "
            + conf.get("hbase.zookeeper.quorum") + ":" + conf.get("hbase.zookeeper.property.clientPort"), e);
      }
      System.err.println("hbase binding: quorum=" + conf.get("hbase.zookeeper.quorum") + ":"
          + conf.get("hbase.zookeeper.property.clientPort") + " durability=" + durability
          + " bufferedMutator=" + useBufferedMutator + " family=" + Bytes.toString(family));
    }
  }

  @Override
  public void cleanup() throws DBException {
    DBException failure = null;
    for (BufferedMutator mutator : mutators.values()) {
      try {
        mutator.close();
      } catch (IOException e) {
        failure = new DBException("hbase binding: flushing buffered mutations failed", e);
      }
    }
    for (Table table : tables.values()) {
      try {
        table.close();
      } catch (IOException e) {
        failure = new DBException("hbase binding: closing table failed", e);
      }
    }
    mutators.clear();
    tables.clear();
    synchronized (LOCK) {
      references--;
      if (references == 0 && connection != null) {
        try {
          connection.close();
        } catch (IOException e) {
          failure = new DBException("hbase binding: closing connection failed", e);
        }
        connection = null;
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private Table table(String name) throws IOException {
    Table table = tables.get(name);
    if (table == null) {
      table = connection.getTable(TableName.valueOf(name));
      tables.put(name, table);
    }
    return table;
  }

  private void mutate(String tableName, Mutation mutation) throws IOException {
    if (useBufferedMutator) {
      BufferedMutator mutator = mutators.get(tableName);
      if (mutator == null) {
        mutator = connection.getBufferedMutator(new BufferedMutatorParams(TableName.valueOf(tableName)));
        mutators.put(tableName, mutator);
      }
      mutator.mutate(mutation);
    } else if (mutation instanceof Put) {
      table(tableName).put((Put) mutation);
    } else {
      table(tableName).delete((Delete) mutation);
    }
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    Get get = new Get(Bytes.toBytes(key));
    if (fields == null) {
      get.addFamily(family);
    } else {
      for (String field : fields) {
        get.addColumn(family, Bytes.toBytes(field));
      }
    }
    try {
      Result row = table(table).get(get);
      if (row.isEmpty()) {
        return Status.NOT_FOUND;
      }
      copyCells(row, result);
      return Status.OK;
    } catch (IOException e) {
      return error("read", key, e);
    }
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    Scan scan = new Scan().withStartRow(Bytes.toBytes(startkey)).setLimit(recordcount).setCaching(recordcount);
    if (fields == null) {
      scan.addFamily(family);
    } else {
      for (String field : fields) {
        scan.addColumn(family, Bytes.toBytes(field));
      }
    }
    try (ResultScanner scanner = table(table).getScanner(scan)) {
      for (Result row : scanner) {
        HashMap<String, ByteIterator> values = new HashMap<>();
        copyCells(row, values);
        result.add(values);
      }
      return Status.OK;
    } catch (IOException e) {
      return error("scan", startkey, e);
    }
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    return put("update", table, key, values);
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    return put("insert", table, key, values);
  }

  private Status put(String op, String table, String key, Map<String, ByteIterator> values) {
    Put put = new Put(Bytes.toBytes(key));
    put.setDurability(durability);
    for (Map.Entry<String, ByteIterator> entry : values.entrySet()) {
      put.addColumn(family, Bytes.toBytes(entry.getKey()), entry.getValue().toArray());
    }
    try {
      mutate(table, put);
      return Status.OK;
    } catch (IOException e) {
      return error(op, key, e);
    }
  }

  @Override
  public Status delete(String table, String key) {
    Delete delete = new Delete(Bytes.toBytes(key));
    delete.setDurability(durability);
    try {
      mutate(table, delete);
      return Status.OK;
    } catch (IOException e) {
      return error("delete", key, e);
    }
  }

  private static void copyCells(Result row, Map<String, ByteIterator> result) {
    for (Cell cell : row.listCells()) {
      result.put(Bytes.toString(CellUtil.cloneQualifier(cell)), new ByteArrayByteIterator(CellUtil.cloneValue(cell)));
    }
  }

  private static Status error(String op, String key, IOException e) {
    System.err.println("hbase binding: " + op + " " + key + " failed: " + e);
    return Status.ERROR;
  }
}
