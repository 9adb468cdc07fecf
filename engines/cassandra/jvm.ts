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
  "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
  "--add-exports", "java.management.rmi/com.sun.jmx.remote.internal.rmi=ALL-UNNAMED",
  "--add-exports", "java.rmi/sun.rmi.registry=ALL-UNNAMED",
  "--add-exports", "java.rmi/sun.rmi.server=ALL-UNNAMED",
  "--add-exports", "java.sql/java.sql=ALL-UNNAMED",
  "--add-exports", "java.base/java.lang.ref=ALL-UNNAMED",
  "--add-exports", "jdk.unsupported/sun.misc=ALL-UNNAMED",
  "--add-exports", "jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
  "--add-exports", "jdk.attach/sun.tools.attach=ALL-UNNAMED",
  "--add-opens", "java.base/java.lang.module=ALL-UNNAMED",
  "--add-opens", "java.base/jdk.internal.loader=ALL-UNNAMED",
  "--add-opens", "java.base/jdk.internal.ref=ALL-UNNAMED",
  "--add-opens", "java.base/jdk.internal.reflect=ALL-UNNAMED",
  "--add-opens", "java.base/jdk.internal.math=ALL-UNNAMED",
  "--add-opens", "java.base/jdk.internal.module=ALL-UNNAMED",
  "--add-opens", "java.base/jdk.internal.util.jar=ALL-UNNAMED",
  "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED",
  "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
  "--add-opens", "java.base/java.io=ALL-UNNAMED",
  "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED",
  "--add-opens", "jdk.compiler/com.sun.tools.javac=ALL-UNNAMED",
  "--add-opens", "java.base/java.lang=ALL-UNNAMED",
  "--add-opens", "java.base/java.util=ALL-UNNAMED",
  "-Dio.netty.tryReflectionSetAccessible=true",
  "-Dio.netty.allocator.useCacheForAllThreads=true",
  "-Dio.netty.allocator.maxOrder=11",
  // From conf/jvm-server.options: small thread stacks and IPv4 (every address here is IPv4).
  "-Xss256k",
  "-Djava.net.preferIPv4Stack=true",
];

/** The class a node runs in the foreground (bin/cassandra -f does the same). */
export const CASSANDRA_MAIN_CLASS = "org.apache.cassandra.service.CassandraDaemon";
