package io.ycsblab.bindings.cassandra;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.ColumnDefinition;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.servererrors.QueryExecutionException;
import com.datastax.oss.driver.api.core.servererrors.QueryValidationException;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import io.ycsblab.bindings.common.BindingProperties;
import io.ycsblab.bindings.common.Failures;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.Vector;
import java.util.concurrent.ConcurrentHashMap;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * YCSB binding for Apache Cassandra on the Apache Cassandra Java driver 4.x.
 *
 * <p>YCSB creates one DB per client thread; they share one session (the driver multiplexes requests over its
 * connections) and one cache of prepared statements keyed by operation, table and field list. Statements are
 * token-aware: the driver routes a bound statement to a replica of its routing key, which it derives from the
 * prepared `y_id = ?` marker; the scan sets it to the start key by hand because `token(?)` does not expose it.
 */
public class CassandraDB extends DB {
  private static final Object LOCK = new Object();
  private static CqlSession session;
  private static CassandraSettings settings;
  private static int users;
  private static final Map<String, PreparedStatement> PREPARED = new ConcurrentHashMap<>();
  private static final Failures FAILURES = new Failures("cassandra");

  @Override
  public void init() throws DBException {
    synchronized (LOCK) {
      if (session == null) {
        CassandraSettings s = CassandraSettings.from(new BindingProperties(getProperties()));
        try {
          session = Sessions.open(s);
        } catch (RuntimeException e) {
          throw new DBException("cannot connect to Cassandra at " + s.contactPoints() + " (local DC " + s.localDatacenter() + "): " + e, e);
        }
        settings = s;
        PREPARED.clear();
        System.err.println(
            "[cassandra] connected to " + session.getMetadata().getNodes().size() + " node(s), local DC " + s.localDatacenter()
                + ", keyspace " + s.keyspace() + ", read CL " + s.readConsistency() + ", write CL " + s.writeConsistency()
                + ", preset " + s.preset());
      }
      users++;
    }
  }

  @Override
  public void cleanup() throws DBException {
    synchronized (LOCK) {
      if (--users == 0 && session != null) {
        session.close();
        session = null;
        if (FAILURES.count() > 0) {
          System.err.println("[cassandra] " + FAILURES.count() + " operation(s) failed");
        }
      }
    }
  }

  /** Field lists are sorted so `{a,b}` and `{b,a}` share one prepared statement; null stays null (all fields). */
  private static List<String> ordered(Set<String> fields) {
    return fields == null ? null : new ArrayList<>(new TreeSet<>(fields));
  }

  private PreparedStatement prepare(String cacheKey, String cql, boolean routedByKey) {
    return PREPARED.computeIfAbsent(cacheKey, k -> {
      PreparedStatement p = session.prepare(cql);
      if (routedByKey && p.getPartitionKeyIndices().isEmpty()) {
        System.err.println("[cassandra] warning: no routing key in \"" + cql + "\": requests will not be token-aware");
      }
      return p;
    });
  }

  private BoundStatement bound(PreparedStatement p, DefaultConsistencyLevel level, Object... values) {
    return p.bind(values).setConsistencyLevel(level);
  }

  private static void copyRow(Row row, Map<String, ByteIterator> into) {
    int i = 0;
    for (ColumnDefinition column : row.getColumnDefinitions()) {
      String name = column.getName().asInternal();
      ByteBuffer value = Statements.KEY.equals(name) ? null : row.getByteBuffer(i);
      if (value != null) {
        byte[] bytes = new byte[value.remaining()];
        value.duplicate().get(bytes);
        into.put(name, new ByteArrayByteIterator(bytes));
      }
      i++;
    }
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    try {
      List<String> f = ordered(fields);
      PreparedStatement p = prepare("read|" + table + "|" + f, Statements.read(settings.keyspace(), table, f), true);
      Row row = session.execute(bound(p, settings.readConsistency(), key).setIdempotent(true)).one();
      if (row == null) {
        return Status.NOT_FOUND;
      }
      copyRow(row, result);
      return Status.OK;
    } catch (RuntimeException e) {
      return fail("read", key, e);
    }
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    try {
      List<String> f = ordered(fields);
      PreparedStatement p = prepare("scan|" + table + "|" + f, Statements.scan(settings.keyspace(), table, f), false);
      BoundStatement s = bound(p, settings.readConsistency(), startkey, recordcount)
          .setRoutingKey(TypeCodecs.TEXT.encode(startkey, session.getContext().getProtocolVersion()))
          .setIdempotent(true);
      ResultSet rows = session.execute(s);
      for (Row row : rows) {
        HashMap<String, ByteIterator> values = new HashMap<>();
        copyRow(row, values);
        result.add(values);
      }
      return Status.OK;
    } catch (RuntimeException e) {
      return fail("scan", startkey, e);
    }
  }

  /** Values in the order of the (sorted) field list, then the key where the statement wants it. */
  private static Object[] values(List<String> fields, Map<String, ByteIterator> values, String key, boolean keyFirst) {
    Object[] out = new Object[fields.size() + 1];
    int i = 0;
    if (keyFirst) {
      out[i++] = key;
    }
    for (String field : fields) {
      out[i++] = ByteBuffer.wrap(values.get(field).toArray());
    }
    if (!keyFirst) {
      out[i] = key;
    }
    return out;
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    try {
      List<String> f = ordered(values.keySet());
      PreparedStatement p = prepare("update|" + table + "|" + f, Statements.update(settings.keyspace(), table, f), true);
      session.execute(bound(p, settings.writeConsistency(), values(f, values, key, false)));
      return Status.OK;
    } catch (RuntimeException e) {
      return fail("update", key, e);
    }
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    try {
      List<String> f = ordered(values.keySet());
      PreparedStatement p = prepare("insert|" + table + "|" + f, Statements.insert(settings.keyspace(), table, f), true);
      session.execute(bound(p, settings.writeConsistency(), values(f, values, key, true)));
      return Status.OK;
    } catch (RuntimeException e) {
      return fail("insert", key, e);
    }
  }

  @Override
  public Status delete(String table, String key) {
    try {
      PreparedStatement p = prepare("delete|" + table, Statements.delete(settings.keyspace(), table), true);
      session.execute(bound(p, settings.writeConsistency(), key));
      return Status.OK;
    } catch (RuntimeException e) {
      return fail("delete", key, e);
    }
  }

  private static Status fail(String operation, String key, RuntimeException e) {
    Failures.Kind kind;
    if (e instanceof QueryValidationException) {
      kind = Failures.Kind.BAD_REQUEST;
    } else if (e instanceof QueryExecutionException || e instanceof DriverTimeoutException || e instanceof AllNodesFailedException) {
      kind = Failures.Kind.UNAVAILABLE;
    } else {
      kind = Failures.Kind.ERROR;
    }
    return FAILURES.report(operation, key, kind, e);
  }
}
