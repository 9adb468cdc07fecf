import { apacheTarball, basePackages, systemdUnit } from "../common-install.js";
import { writeFile } from "../shell.js";

/** Cassandra 5.0 from the Apache archive tarball; Java 17 is supported since 5.0 (NEWS.txt). */
export function installCassandra(version: string): string {
  return [
    basePackages("openjdk-17-jdk-headless"),
    "id cassandra >/dev/null 2>&1 || useradd --system --home /opt/cassandra --shell /usr/sbin/nologin cassandra",
    apacheTarball(`cassandra/${version}/apache-cassandra-${version}-bin.tar.gz`, "/opt/cassandra"),
    "chown -R cassandra:cassandra /opt/cassandra",
    writeFile(
      "/etc/systemd/system/cassandra.service",
      systemdUnit({ description: "Apache Cassandra", user: "cassandra", exec: "/opt/cassandra/bin/cassandra -f", env: { CASSANDRA_CONF: "/etc/cassandra" } }),
    ),
  ].join("\n");
}
