/**
 * How HBase's and Hadoop's daemons run on Java 17, the one JDK of every instance (infra/user-data.ts JAVA_PACKAGE):
 * the flags their own launchers add, and each daemon's heap.
 */

/** HBase's own bin/hbase flags for JDK 17 (hbase-2.5 conf: HBASE_OPTS for Java 11+); without them HDFS init fails. */
export const HBASE_JDK17_FLAGS = [
  "-Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true",
  "--add-modules",
  "jdk.unsupported",
  "--add-opens",
  "java.base/java.nio=ALL-UNNAMED",
  "--add-opens",
  "java.base/sun.nio.ch=ALL-UNNAMED",
  "--add-opens",
  "java.base/java.lang=ALL-UNNAMED",
  "--add-opens",
  "java.base/jdk.internal.ref=ALL-UNNAMED",
  "--add-opens",
  "java.base/java.lang.reflect=ALL-UNNAMED",
  "--add-opens",
  "java.base/java.util=ALL-UNNAMED",
  "--add-opens",
  "java.base/java.util.concurrent=ALL-UNNAMED",
  "--add-exports",
  "java.base/jdk.internal.misc=ALL-UNNAMED",
  "--add-exports",
  "java.security.jgss/sun.security.krb5=ALL-UNNAMED",
  "--add-exports",
  "java.base/sun.net.dns=ALL-UNNAMED",
  "--add-exports",
  "java.base/sun.net.util=ALL-UNNAMED",
];

export type HBaseDaemon = "namenode" | "datanode" | "zookeeper" | "master" | "regionserver";

/**
 * Heap of each daemon in MiB. The region server holds the memstores and the block cache, so it gets the most: 40% of
 * the machine, at most 31 GiB (compressed oops; HBase book "Recommended Configurations"); the others keep the 1 GiB
 * their launchers default to (ZooKeeper half that: it holds one small namespace). `cap` bounds all of them (a
 * rehearsal's nodes share one machine).
 */
export function hbaseHeapMb(daemon: HBaseDaemon, memoryGiB: number, cap = Number.POSITIVE_INFINITY): number {
  const base =
    daemon === "regionserver"
      ? Math.max(1024, Math.min(31 * 1024, Math.floor(memoryGiB * 1024 * 0.4)))
      : daemon === "zookeeper"
        ? 512
        : 1024;
  return Math.min(base, cap);
}
