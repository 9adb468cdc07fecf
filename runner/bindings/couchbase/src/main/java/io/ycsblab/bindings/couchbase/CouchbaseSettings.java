package io.ycsblab.bindings.couchbase;

import com.couchbase.client.core.msg.kv.DurabilityLevel;
import java.util.Properties;
import site.ycsb.DBException;

/**
 * The binding's YCSB properties, checked at init: a typo fails with the property's name instead of running with a
 * default. {@code couchbase.durability} comes from model/presets.ts for every preset (names as in Couchbase's
 * durability docs).
 */
public record CouchbaseSettings(String connectionString, String bucket, String username, String password, DurabilityLevel durability, boolean n1qlScan, long kvTimeoutMs) {
  public static final String CONNECTION_STRING = "couchbase.connectionString";
  public static final String BUCKET = "couchbase.bucket";
  public static final String USERNAME = "couchbase.username";
  public static final String PASSWORD = "couchbase.password";
  public static final String DURABILITY = "couchbase.durability";
  public static final String SCAN = "couchbase.scan";
  public static final String KV_TIMEOUT_MS = "couchbase.kvTimeoutMs";

  public static CouchbaseSettings from(Properties props) throws DBException {
    String scan = props.getProperty(SCAN, "none").trim();
    if (!scan.equals("none") && !scan.equals("n1ql")) {
      throw new DBException(SCAN + " must be none or n1ql; got '" + scan + "'");
    }
    String timeout = props.getProperty(KV_TIMEOUT_MS, "10000").trim();
    long kvTimeoutMs;
    try {
      kvTimeoutMs = Long.parseLong(timeout);
    } catch (NumberFormatException e) {
      kvTimeoutMs = -1;
    }
    if (kvTimeoutMs < 1) {
      throw new DBException(KV_TIMEOUT_MS + " must be a whole number of milliseconds >= 1, got '" + timeout + "'");
    }
    return new CouchbaseSettings(
        props.getProperty(CONNECTION_STRING, "couchbase://127.0.0.1").trim(),
        props.getProperty(BUCKET, "ycsb").trim(),
        props.getProperty(USERNAME, "Administrator"),
        props.getProperty(PASSWORD, "password"),
        durabilityLevel(props.getProperty(DURABILITY, "none")),
        scan.equals("n1ql"),
        kvTimeoutMs);
  }

  /** Maps the property value to the SDK's level; names follow the Couchbase durability docs. */
  static DurabilityLevel durabilityLevel(String value) throws DBException {
    switch (value.trim()) {
      case "none":
        return DurabilityLevel.NONE;
      case "majority":
        return DurabilityLevel.MAJORITY;
      case "majorityAndPersistToActive":
        return DurabilityLevel.MAJORITY_AND_PERSIST_TO_ACTIVE;
      case "persistToMajority":
        return DurabilityLevel.PERSIST_TO_MAJORITY;
      default:
        throw new DBException(DURABILITY + " must be none, majority, majorityAndPersistToActive or persistToMajority; got '" + value + "'");
    }
  }
}
