/**
 * JVM options for running Cassandra 5.0 on Java 17 straight from the cassandra-all jar (no tarball, no
 * cassandra-env.sh): the JPMS and Netty lines of Cassandra's own conf/jvm17-server.options, plus the jamm
 * agent it needs to measure memtables. Source: apache/cassandra conf/jvm17-server.options (5.0).
 */
export const JVM17_SERVER_OPTIONS: readonly string[] = [
  "-XX:+UseG1GC",
  "-XX:+ParallelRefProcEnabled",
  "-XX:MaxTenuringThreshold=1",
  "-XX:G1RSetUpdatingPauseTimePercent=5",
  "-XX:MaxGCPauseMillis=300",
  "-XX:InitiatingHeapOccupancyPercent=70",
  "-Djdk.attach.allowAttachSelf=true",
  "--add-exports",
  "java.base/jdk.internal.misc=ALL-UNNAMED",
  "--add-exports",
  "java.management.rmi/com.sun.jmx.remote.internal.rmi=ALL-UNNAMED",
  "--add-exports",
  "java.rmi/sun.rmi.registry=ALL-UNNAMED",
  "--add-exports",
  "java.rmi/sun.rmi.server=ALL-UNNAMED",
  "--add-exports",
  "java.sql/java.sql=ALL-UNNAMED",
  "--add-exports",
  "java.base/java.lang.ref=ALL-UNNAMED",
  "--add-exports",
  "jdk.unsupported/sun.misc=ALL-UNNAMED",
  "--add-exports",
  "jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
  "--add-exports",
  "jdk.attach/sun.tools.attach=ALL-UNNAMED",
  "--add-opens",
  "java.base/java.lang.module=ALL-UNNAMED",
  "--add-opens",
  "java.base/jdk.internal.loader=ALL-UNNAMED",
  "--add-opens",
  "java.base/jdk.internal.ref=ALL-UNNAMED",
  "--add-opens",
  "java.base/jdk.internal.reflect=ALL-UNNAMED",
  "--add-opens",
  "java.base/jdk.internal.math=ALL-UNNAMED",
  "--add-opens",
  "java.base/jdk.internal.module=ALL-UNNAMED",
  "--add-opens",
  "java.base/jdk.internal.util.jar=ALL-UNNAMED",
  "--add-opens",
  "jdk.management/com.sun.management.internal=ALL-UNNAMED",
  "--add-opens",
  "java.base/sun.nio.ch=ALL-UNNAMED",
  "--add-opens",
  "java.base/java.io=ALL-UNNAMED",
  "--add-opens",
  "java.base/java.lang.reflect=ALL-UNNAMED",
  "--add-opens",
  "jdk.compiler/com.sun.tools.javac=ALL-UNNAMED",
  "--add-opens",
  "java.base/java.lang=ALL-UNNAMED",
  "--add-opens",
  "java.base/java.util=ALL-UNNAMED",
  "-Dio.netty.tryReflectionSetAccessible=true",
  "-Dio.netty.allocator.useCacheForAllThreads=true",
  "-Dio.netty.allocator.maxOrder=11",
  // From conf/jvm-server.options: small thread stacks and IPv4 (every address here is IPv4).
  "-Xss256k",
  "-Djava.net.preferIPv4Stack=true",
];

/** The class a node runs in the foreground (bin/cassandra -f does the same). */
export const CASSANDRA_MAIN_CLASS = "org.apache.cassandra.service.CassandraDaemon";

/** Logback configuration writing the node's system.log into `logDir` (the cassandra-all jar ships none). */
export function renderLogbackXml(logDir: string): string {
  const file = `${logDir.replace(/\/+$/, "")}/system.log`.replaceAll("&", "&amp;").replaceAll("<", "&lt;");
  return `<configuration scan="false">
  <appender name="FILE" class="ch.qos.logback.core.FileAppender">
    <file>${file}</file>
    <encoder><pattern>%-5level [%thread] %date{ISO8601} %F:%L - %msg%n</pattern></encoder>
  </appender>
  <root level="INFO"><appender-ref ref="FILE"/></root>
</configuration>
`;
}

/**
 * Heap of a node with `memoryGiB` of RAM, as Cassandra's own conf/cassandra-env.sh (calculate_heap_sizes) sizes it:
 * max(min(1/2 ram, 1024 MB), min(1/4 ram, 8192 MB)). The boot command starts the JVM itself, so it sizes it itself.
 */
export function cassandraHeapMb(memoryGiB: number): number {
  const mb = Math.floor(memoryGiB * 1024);
  return Math.max(Math.min(Math.floor(mb / 2), 1024), Math.min(Math.floor(mb / 4), 8192));
}

/**
 * The java command line of one node (what bin/cassandra -f runs, without its shell): the JVM 17 options, the jamm
 * agent, the rendered cassandra.yaml and logback.xml, storage and logs under `dir`.
 */
export function cassandraNodeCommand(opts: {
  libDir: string;
  jammJar: string;
  yamlFile: string;
  logbackFile: string;
  dir: string;
  /** JVM heap, e.g. "768m". */
  heap: string;
  /** Gossip's ring delay; Cassandra's default (30 s) unless a loopback ring may settle faster. */
  ringDelayMs?: number;
}): string[] {
  return [
    ...JVM17_SERVER_OPTIONS,
    `-Xms${opts.heap}`,
    `-Xmx${opts.heap}`,
    `-javaagent:${opts.jammJar}`,
    `-Dcassandra.config=file://${opts.yamlFile}`,
    `-Dlogback.configurationFile=${opts.logbackFile}`,
    `-Dcassandra.storagedir=${opts.dir}`,
    `-Dcassandra.logdir=${opts.dir}`,
    "-Dcassandra-foreground=yes",
    ...(opts.ringDelayMs !== undefined
      ? [`-Dcassandra.ring_delay_ms=${opts.ringDelayMs}`, "-Dcassandra.skip_wait_for_gossip_to_settle=0"]
      : []),
    "-cp",
    `${opts.libDir}/*`,
    CASSANDRA_MAIN_CLASS,
  ];
}
