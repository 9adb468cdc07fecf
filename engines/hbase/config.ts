import type { Preset } from "../../model/presets.js";
import { presetFor } from "../../model/presets.js";

/** One hbase-site.xml property, with the reason it is set. */
export interface HBaseSiteProperty {
  name: string;
  value: string;
  why: string;
}

/** Where the cluster lives; absent when only the preset's own properties are wanted (the durability settings alone). */
export interface HBaseClusterLayout {
  /** Host running ZooKeeper, the HDFS namenode and the HBase master (seed 000: the first node). */
  masterHost: string;
  /** @default "/mnt/hdfs/zookeeper" (seed 000) */
  zookeeperDataDir?: string;
  /** HDFS block replication; seed 000 ran 1. @default 1 */
  dfsReplication?: number;
}

/** hbase-site properties for a preset (and a cluster layout on AWS). */
export function hbaseSiteProperties(preset: Preset, cluster?: HBaseClusterLayout): HBaseSiteProperty[] {
  const server = presetFor("hbase", preset).server;
  const properties: HBaseSiteProperty[] = [
    {
      name: "hbase.wal.hsync",
      value: String(server.walHsync),
      why: "true: tables with the default durability hsync the WAL (FSYNC_WAL), https://hbase.apache.org/book.html#wal.durability",
    },
  ];
  if (cluster) {
    properties.push(
      { name: "hbase.cluster.distributed", value: "true", why: "fully distributed (seed 000)" },
      { name: "hbase.zookeeper.quorum", value: cluster.masterHost, why: "ZooKeeper on the master node (seed 000)" },
      {
        name: "hbase.zookeeper.property.dataDir",
        value: cluster.zookeeperDataDir ?? "/mnt/hdfs/zookeeper",
        why: "ZooKeeper snapshot directory (seed 000)",
      },
      { name: "hbase.rootdir", value: `hdfs://${cluster.masterHost}/hbase`, why: "HBase root on HDFS (seed 000)" },
      { name: "dfs.replication", value: String(cluster.dfsReplication ?? 1), why: "seed 000 hdfs-site: 1" },
    );
  }
  return properties;
}

const escapeXml = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** A Hadoop-style configuration file (hbase-site.xml). */
export function renderHBaseSiteXml(properties: HBaseSiteProperty[]): string {
  const body = properties
    .map(
      (p) =>
        `  <property>\n    <name>${escapeXml(p.name)}</name>\n    <value>${escapeXml(p.value)}</value>\n` +
        `    <description>${escapeXml(p.why)}</description>\n  </property>\n`,
    )
    .join("");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<configuration>\n${body}</configuration>\n`;
}
