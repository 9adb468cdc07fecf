package io.ycsblab.bindings.cassandra;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import io.ycsblab.bindings.common.BindingProperties;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import site.ycsb.DBException;

/**
 * The binding's YCSB properties. `hosts` and `port` keep the names YCSB users know; the rest are
 * `cassandra.*`, and the two consistency levels are set by model/presets.ts for every preset.
 */
public record CassandraSettings(
    List<InetSocketAddress> contactPoints,
    String keyspace,
    String localDatacenter,
    DefaultConsistencyLevel readConsistency,
    DefaultConsistencyLevel writeConsistency,
    int requestTimeoutMs,
    int connectTimeoutMs,
    String username,
    String password,
    String preset) {

  public static final String HOSTS = "hosts";
  public static final String PORT = "port";
  public static final String KEYSPACE = "cassandra.keyspace";
  public static final String LOCAL_DC = "cassandra.localdc";
  public static final String READ_CONSISTENCY = "cassandra.readconsistencylevel";
  public static final String WRITE_CONSISTENCY = "cassandra.writeconsistencylevel";
  public static final String REQUEST_TIMEOUT_MS = "cassandra.requesttimeoutms";
  public static final String CONNECT_TIMEOUT_MS = "cassandra.connecttimeoutms";
  public static final String USERNAME = "cassandra.username";
  public static final String PASSWORD = "cassandra.password";

  /** SimpleSnitch (seed 000's cassandra.yaml, and our local engine) names its only datacenter this. */
  public static final String DEFAULT_DC = "datacenter1";

  private static final List<String> LEVELS =
      Arrays.stream(DefaultConsistencyLevel.values()).map(Enum::name).toList();

  public static CassandraSettings from(BindingProperties p) throws DBException {
    List<String> hosts = p.list(HOSTS, null);
    if (hosts.isEmpty()) {
      throw new DBException("property " + HOSTS + " is required: comma-separated Cassandra addresses, e.g. 127.0.0.1,127.0.0.2");
    }
    int port = p.integer(PORT, 9042);
    List<InetSocketAddress> points = new ArrayList<>();
    for (String host : hosts) {
      points.add(new InetSocketAddress(host, port));
    }
    String user = p.string(USERNAME, null);
    String password = p.string(PASSWORD, null);
    if ((user == null) != (password == null)) {
      throw new DBException("properties " + USERNAME + " and " + PASSWORD + " go together: set both or neither");
    }
    return new CassandraSettings(
        points,
        p.string(KEYSPACE, "ycsb"),
        p.string(LOCAL_DC, DEFAULT_DC),
        DefaultConsistencyLevel.valueOf(p.choice(READ_CONSISTENCY, "ONE", LEVELS)),
        DefaultConsistencyLevel.valueOf(p.choice(WRITE_CONSISTENCY, "ONE", LEVELS)),
        p.integer(REQUEST_TIMEOUT_MS, 12_000),
        p.integer(CONNECT_TIMEOUT_MS, 10_000),
        user,
        password,
        p.preset());
  }
}
