import { systemdUnit, writeReadyMarker } from "../common-install.js";
import type { EngineKit, NodeContext } from "../node-context.js";
import { q, section, waitFor, writeFile } from "../shell.js";
import { hbaseSiteProperties, renderHBaseSiteXml, type HBaseSiteProperty } from "./config.js";
import { hbaseTableSpec, renderHBaseShellCreate } from "./schema.js";
import { installHBase } from "./install.js";

export const NAMENODE_PORT = 8020;
const JAVA_HOME = "/usr/lib/jvm/java-11-openjdk-amd64";
const ENV = { JAVA_HOME, HADOOP_HOME: "/opt/hadoop", HADOOP_CONF_DIR: "/etc/hadoop", HBASE_CONF_DIR: "/etc/hbase" };

/** Seed 000 core-site.xml: fs.defaultFS on the first node. */
export function coreSiteProperties(ctx: NodeContext): HBaseSiteProperty[] {
  return [{ name: "fs.defaultFS", value: `hdfs://${ctx.nodeIps[0]}:${NAMENODE_PORT}`, why: "namenode on the first node (seed 000)" }];
}

/** Seed 000 hdfs-site.xml, with the scenario's replication instead of a fixed 1. */
export function hdfsSiteProperties(ctx: NodeContext): HBaseSiteProperty[] {
  return [
    { name: "dfs.namenode.name.dir", value: `file://${ctx.dataDir}/hdfs/name`, why: "seed 000" },
    { name: "dfs.datanode.data.dir", value: `file://${ctx.dataDir}/hdfs/data`, why: "seed 000" },
    { name: "dfs.replication", value: String(ctx.replication), why: "the scenario's replication (seed 000: 1)" },
    // Datanodes register by IP: the nodes have no DNS names for each other.
    { name: "dfs.namenode.datanode.registration.ip-hostname-check", value: "false", why: "no reverse DNS in the VPC" },
  ];
}

/** hbase-site.xml: the HBase engineer's properties for the preset, with rootdir pinned to the namenode port. */
export function hbaseSite(ctx: NodeContext): HBaseSiteProperty[] {
  return hbaseSiteProperties(ctx.preset, { masterHost: ctx.nodeIps[0]!, zookeeperDataDir: `${ctx.dataDir}/zookeeper`, dfsReplication: ctx.replication }).map((p) =>
    p.name === "hbase.rootdir" ? { ...p, value: `hdfs://${ctx.nodeIps[0]}:${NAMENODE_PORT}/hbase` } : p,
  );
}

/** YCSB's hbase README: "HBase recommends (10 * number of regionservers)" splits. */
export const REGIONS_PER_SERVER = 10;

const unit = (name: string, exec: string) =>
  writeFile(`/etc/systemd/system/${name}.service`, systemdUnit({ description: name, user: "hadoop", exec, env: ENV }));

export const hbaseKit: EngineKit = {
  engine: "hbase",
  ports: {
    client: [
      { from: 2181, to: 2181, description: "ZooKeeper" },
      { from: 16000, to: 16000, description: "HBase master" },
      { from: 16020, to: 16020, description: "HBase region server" },
    ],
    cluster: [
      { from: 2181, to: 2181, description: "ZooKeeper" },
      { from: NAMENODE_PORT, to: NAMENODE_PORT, description: "HDFS namenode" },
      { from: 9866, to: 9867, description: "HDFS datanode" },
      { from: 16000, to: 16020, description: "HBase master and region servers" },
    ],
  },
  // The WAL lives in HDFS: the preset acts through hbase.wal.hsync and the table durability, not a volume.
  wantsLogVolume: () => false,
  install: (ctx) => installHBase(ctx.version),
  roles: (ctx) => (ctx.index === 0 ? ["namenode", "zookeeper", "master", "datanode", "regionserver"] : ["datanode", "regionserver"]),
  configure(ctx) {
    const leader = ctx.nodeIps[0]!;
    const steps = [
      writeFile("/etc/hadoop/core-site.xml", renderHBaseSiteXml(coreSiteProperties(ctx))),
      writeFile("/etc/hadoop/hdfs-site.xml", renderHBaseSiteXml(hdfsSiteProperties(ctx))),
      "cp -n /opt/hadoop/etc/hadoop/* /etc/hadoop/ || true",
      writeFile("/etc/hbase/hbase-site.xml", renderHBaseSiteXml(hbaseSite(ctx))),
      "cp -n /opt/hbase/conf/* /etc/hbase/ || true",
      `mkdir -p ${q(`${ctx.dataDir}/hdfs`)} ${q(`${ctx.dataDir}/zookeeper`)} && chown -R hadoop:hadoop ${q(ctx.dataDir)} /etc/hadoop /etc/hbase`,
      unit("hdfs-datanode", "/opt/hadoop/bin/hdfs datanode"),
      unit("hbase-regionserver", "/opt/hbase/bin/hbase regionserver start"),
      "systemctl daemon-reload",
    ];
    if (ctx.index === 0) {
      // seed 000: "The first node ... ran as both the Hadoop namenode and the HBase master, and ran the Zookeeper process as well."
      steps.push(
        unit("hdfs-namenode", "/opt/hadoop/bin/hdfs namenode"),
        unit("hbase-zookeeper", "/opt/hbase/bin/hbase zookeeper"),
        unit("hbase-master", "/opt/hbase/bin/hbase master start"),
        "systemctl daemon-reload",
        `sudo -u hadoop env ${Object.entries(ENV).map(([k, v]) => `${k}=${v}`).join(" ")} /opt/hadoop/bin/hdfs namenode -format -nonInteractive || true`,
        "systemctl enable --now hdfs-namenode.service hbase-zookeeper.service",
      );
    }
    steps.push(
      waitFor("the namenode", `nc -z ${q(leader)} ${NAMENODE_PORT}`, 1800),
      waitFor("ZooKeeper", `nc -z ${q(leader)} 2181`, 1800),
      "systemctl enable --now hdfs-datanode.service",
    );
    if (ctx.index === 0) steps.push("systemctl enable --now hbase-master.service");
    steps.push("systemctl enable --now hbase-regionserver.service");
    return steps.join("\n");
  },
  // Study settings are applied only where a renderer takes them (Cassandra today): never ignored silently.
  checkServerSettings: (settings) => Object.keys(settings).map((k) => `"${k}" is not applied for this engine`),
  readinessProbe: (ctx) => `echo status | sudo -u hadoop env HBASE_CONF_DIR=/etc/hbase JAVA_HOME=${JAVA_HOME} /opt/hbase/bin/hbase shell -n 2>/dev/null | grep -q ' ${ctx.nodeIps.length} servers'`,
  formCluster(ctx) {
    const n = ctx.nodeIps.length;
    // A study's own pre-split where it printed one (seed 001: NUMREGIONS => node count, HexStringSplit).
    const split = ctx.study?.hbaseSplit;
    const create = renderHBaseShellCreate(
      hbaseTableSpec({ preset: ctx.preset, nodes: n, regionsPerNode: split?.regionsPerNode ?? REGIONS_PER_SERVER, ...(split ? { splitAlgorithm: split.algorithm } : {}) }),
    );
    return [
      section("wait for all region servers", waitFor(`${n} region servers`, hbaseKit.readinessProbe(ctx), 3600)),
      section(
        "pre-split usertable",
        [writeFile("/tmp/ycsb-create.rb", create), `sudo -u hadoop env HBASE_CONF_DIR=/etc/hbase JAVA_HOME=${JAVA_HOME} /opt/hbase/bin/hbase shell -n /tmp/ycsb-create.rb`].join("\n"),
      ),
      writeReadyMarker(ctx.readyMarkerUrl, { engine: "hbase", nodes: n, regions: n * (split?.regionsPerNode ?? REGIONS_PER_SERVER), preset: ctx.preset }),
    ].join("\n");
  },
};
