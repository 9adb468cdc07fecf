package io.ycsblab.bindings.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import java.time.Duration;

/** Builds a driver session from the binding's settings (shared by the YCSB binding and the CQL tool). */
final class Sessions {
  private Sessions() {}

  static CqlSession open(CassandraSettings s) {
    DriverConfigLoader config =
        DriverConfigLoader.programmaticBuilder()
            .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofMillis(s.requestTimeoutMs()))
            .withDuration(DefaultDriverOption.CONNECTION_CONNECT_TIMEOUT, Duration.ofMillis(s.connectTimeoutMs()))
            .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofMillis(s.connectTimeoutMs()))
            .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, Duration.ofMillis(s.connectTimeoutMs()))
            // Schema changes from the CQL tool must be visible on every node before YCSB starts.
            .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(30))
            // Netty's default 2 s quiet period would add 2 s to every YCSB CLEANUP and every CqlTool call.
            .withInt(DefaultDriverOption.NETTY_IO_SHUTDOWN_QUIET_PERIOD, 0)
            .withInt(DefaultDriverOption.NETTY_ADMIN_SHUTDOWN_QUIET_PERIOD, 0)
            .build();
    CqlSessionBuilder builder =
        CqlSession.builder()
            .addContactPoints(s.contactPoints())
            .withLocalDatacenter(s.localDatacenter())
            .withConfigLoader(config);
    if (s.username() != null) {
      builder = builder.withAuthCredentials(s.username(), s.password());
    }
    return builder.build();
  }
}
