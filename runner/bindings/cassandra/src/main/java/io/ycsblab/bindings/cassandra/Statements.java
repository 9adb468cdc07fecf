package io.ycsblab.bindings.cassandra;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The CQL text of each YCSB operation. Pure: the binding prepares each text once per (operation, table, field
 * list) and caches it. The key column is `y_id`, as in seed 000's usertable and engines/cassandra/schema.ts.
 */
final class Statements {
  static final String KEY = "y_id";

  private Statements() {}

  static String id(String name) {
    return CqlIdentifier.fromInternal(name).asCql(true);
  }

  static String table(String keyspace, String table) {
    return id(keyspace) + "." + id(table);
  }

  /** `fields` null means every column. */
  private static String columns(List<String> fields) {
    return fields == null ? "*" : fields.stream().map(Statements::id).collect(Collectors.joining(", "));
  }

  static String read(String keyspace, String table, List<String> fields) {
    return "SELECT " + columns(fields) + " FROM " + table(keyspace, table) + " WHERE " + KEY + " = ?";
  }

  /** Upstream semantics: `recordcount` rows in token order from the start key's token (Murmur3: not key order). */
  static String scan(String keyspace, String table, List<String> fields) {
    return "SELECT " + columns(fields) + " FROM " + table(keyspace, table)
        + " WHERE token(" + KEY + ") >= token(?) LIMIT ?";
  }

  static String insert(String keyspace, String table, List<String> fields) {
    String names = fields.stream().map(Statements::id).collect(Collectors.joining(", "));
    String marks = fields.stream().map(f -> "?").collect(Collectors.joining(", "));
    return "INSERT INTO " + table(keyspace, table) + " (" + KEY + ", " + names + ") VALUES (?, " + marks + ")";
  }

  static String update(String keyspace, String table, List<String> fields) {
    String sets = fields.stream().map(f -> id(f) + " = ?").collect(Collectors.joining(", "));
    return "UPDATE " + table(keyspace, table) + " SET " + sets + " WHERE " + KEY + " = ?";
  }

  static String delete(String keyspace, String table) {
    return "DELETE FROM " + table(keyspace, table) + " WHERE " + KEY + " = ?";
  }
}
