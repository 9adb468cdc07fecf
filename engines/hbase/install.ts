import { apacheTarball, basePackages } from "../common-install.js";

/** Hadoop release HBase 2.5's "-hadoop3" binaries are built against (HBase book, "Hadoop version support matrix"). */
export const HADOOP_VERSION = "3.3.6";

/** HBase 2.5 supports JDK 11 (HBase book, "Java support"): the JDK is 11 here, not 17 as for Cassandra. */
export function installHBase(version: string): string {
  return [
    basePackages("openjdk-11-jdk-headless"),
    "id hadoop >/dev/null 2>&1 || useradd --system --create-home --shell /bin/bash hadoop",
    apacheTarball(`hadoop/common/hadoop-${HADOOP_VERSION}/hadoop-${HADOOP_VERSION}.tar.gz`, "/opt/hadoop"),
    apacheTarball(`hbase/${version}/hbase-${version}-hadoop3-bin.tar.gz`, "/opt/hbase"),
    "chown -R hadoop:hadoop /opt/hadoop /opt/hbase",
  ].join("\n");
}
