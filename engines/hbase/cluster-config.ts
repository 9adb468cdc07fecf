import type { NodeContext } from "../node-context.js";
import { type HBaseSiteProperty, hbaseSiteProperties } from "./config.js";
import { type HBaseTableSpec, hbaseTableSpec } from "./schema.js";

/**
 * The configuration of one node of a distributed HBase (seed 000's layout: the first node runs the HDFS namenode,
 * ZooKeeper and the HBase master; every node a datanode and a region server), per node: each daemon binds and names
 * itself by the node's own address, so the cluster needs no DNS, and several nodes can share one machine on
 * loopback addresses in a rehearsal.
 */

/** Default ports of Hadoop 3 and HBase 2 (hdfs-default.xml, hbase-default.xml) and ZooKeeper's client port. */
export const HBASE_PORTS = {
  namenode: 8020,
  namenodeHttp: 9870,
  datanode: 9866,
  datanodeHttp: 9864,
  datanodeIpc: 9867,
  zookeeper: 2181,
  master: 16000,
  masterInfo: 16010,
  regionserver: 16020,
  regionserverInfo: 16030,
} as const;

/** Where one node keeps what (on its data volume; HBase's WAL lives in HDFS, so there is no log volume). */
export interface HBaseNodeDirs {
  name: string;
  data: string;
  zookeeper: string;
  hadoopTmp: string;
  hbaseTmp: string;
}

export function hbaseNodeDirs(dataDir: string): HBaseNodeDirs {
  return {
    name: `${dataDir}/hdfs/name`,
    data: `${dataDir}/hdfs/data`,
    zookeeper: `${dataDir}/zookeeper`,
    hadoopTmp: `${dataDir}/hadoop-tmp`,
    hbaseTmp: `${dataDir}/hbase-tmp`,
  };
}

/**
 * The datanode's ports. On one machine (a rehearsal) the namenode sees every datanode connect from 127.0.0.1 and keys
 * them by that address and their transfer port, so each node's datanode takes ports of its own (+10 per index).
 */
export function datanodePorts(index: number, sharedHost: boolean): { xfer: number; http: number; ipc: number } {
  const offset = sharedHost ? 10 * index : 0;
  return {
    xfer: HBASE_PORTS.datanode + offset,
    http: HBASE_PORTS.datanodeHttp + offset,
    ipc: HBASE_PORTS.datanodeIpc + offset,
  };
}

const p = (name: string, value: string | number, why: string): HBaseSiteProperty => ({
  name,
  value: String(value),
  why,
});

/** core-site.xml (seed 000: fs.defaultFS on the first node). */
export function coreSite(ctx: NodeContext): HBaseSiteProperty[] {
  return [
    p("fs.defaultFS", `hdfs://${ctx.nodeIps[0]}:${HBASE_PORTS.namenode}`, "namenode on the first node (seed 000)"),
    p(
      "hadoop.tmp.dir",
      hbaseNodeDirs(ctx.dataDir).hadoopTmp,
      "on the data volume, one per node (the default /tmp/hadoop-<user> is shared)",
    ),
  ];
}

/** hdfs-site.xml: seed 000's, with the scenario's replication, and every address the node's own. */
export function hdfsSite(ctx: NodeContext, sharedHost = false): HBaseSiteProperty[] {
  const ip = ctx.nodeIps[ctx.index]!;
  const dirs = hbaseNodeDirs(ctx.dataDir);
  const dn = datanodePorts(ctx.index, sharedHost);
  return [
    p("dfs.namenode.name.dir", `file://${dirs.name}`, "seed 000"),
    p("dfs.datanode.data.dir", `file://${dirs.data}`, "seed 000"),
    p("dfs.replication", ctx.replication, "the scenario's replication (seed 000: 1)"),
    p(
      "dfs.namenode.http-address",
      `${ctx.nodeIps[0]}:${HBASE_PORTS.namenodeHttp}`,
      "the namenode's web UI on its own address",
    ),
    p("dfs.datanode.address", `${ip}:${dn.xfer}`, "block transfer on the node's address"),
    p("dfs.datanode.http.address", `${ip}:${dn.http}`, "web UI on the node's address"),
    p("dfs.datanode.ipc.address", `${ip}:${dn.ipc}`, "IPC on the node's address"),
    p("dfs.datanode.hostname", ip, "the name the datanode registers under: its address (no DNS in the VPC)"),
    p(
      "dfs.client.use.datanode.hostname",
      "true",
      "clients (region servers) reach datanodes by the address each registered",
    ),
    p("dfs.datanode.use.datanode.hostname", "true", "datanodes reach each other the same way (replication pipelines)"),
    // Datanodes register by IP: the nodes have no DNS names for each other.
    p("dfs.namenode.datanode.registration.ip-hostname-check", "false", "no reverse DNS in the VPC"),
  ];
}

/** hbase-site.xml: the HBase engineer's properties for the preset and the layout, plus the node's own addresses. */
export function hbaseSite(ctx: NodeContext): HBaseSiteProperty[] {
  const ip = ctx.nodeIps[ctx.index]!;
  const leader = ctx.nodeIps[0]!;
  const dirs = hbaseNodeDirs(ctx.dataDir);
  const base = hbaseSiteProperties(ctx.preset, {
    masterHost: leader,
    zookeeperDataDir: dirs.zookeeper,
    dfsReplication: ctx.replication,
  }).map((q) => (q.name === "hbase.rootdir" ? { ...q, value: `hdfs://${leader}:${HBASE_PORTS.namenode}/hbase` } : q));
  return [
    ...base,
    p("hbase.zookeeper.property.clientPort", HBASE_PORTS.zookeeper, "ZooKeeper's client port (zoo.cfg)"),
    p("hbase.tmp.dir", dirs.hbaseTmp, "on the data volume, one per node (the default /tmp/hbase-<user> is shared)"),
    p("hbase.master.hostname", leader, "the master names itself by its address"),
    p("hbase.master.ipc.address", leader, "and listens there"),
    p("hbase.master.info.bindAddress", leader, "web UI on the master's address"),
    p(
      "hbase.unsafe.regionserver.hostname",
      ip,
      "the region server names itself by its address (no reverse DNS in the VPC)",
    ),
    p("hbase.regionserver.ipc.address", ip, "and listens there"),
    p("hbase.regionserver.info.bindAddress", ip, "web UI on the node's address"),
  ];
}

/**
 * zoo.cfg of the ZooKeeper on the first node (seed 000: "ran the Zookeeper process as well"): standalone, on the
 * node's address, HBase's client connection limit (hbase-default.xml hbase.zookeeper.property.maxClientCnxns).
 */
export function zooCfg(ctx: NodeContext): string {
  return [
    "# ycsb-lab: ZooKeeper of the HBase cluster (first node), standalone",
    "tickTime=2000",
    `dataDir=${hbaseNodeDirs(ctx.dataDir).zookeeper}`,
    `clientPort=${HBASE_PORTS.zookeeper}`,
    `clientPortAddress=${ctx.nodeIps[0]}`,
    "maxClientCnxns=300",
    // The admin server would open 8080 on every address; nothing here uses it.
    "admin.enableServer=false",
    "",
  ].join("\n");
}

const CONSOLE_PATTERN = "%d{ISO8601} %-5p [%t] %c{2}: %m%n";

/**
 * Logging of every daemon to its stderr, which the boot command keeps in <run>/<daemon>.log (and uploads the tail of
 * on failure). Hadoop's tarball logs through reload4j (log4j 1.2 API), HBase's through Log4j 2: one file for each.
 */
export function log4jProperties(): string {
  return [
    "log4j.rootLogger=INFO,console",
    "log4j.appender.console=org.apache.log4j.ConsoleAppender",
    "log4j.appender.console.target=System.err",
    "log4j.appender.console.layout=org.apache.log4j.PatternLayout",
    `log4j.appender.console.layout.ConversionPattern=${CONSOLE_PATTERN}`,
    "",
  ].join("\n");
}

export function log4j2Properties(): string {
  return [
    "status = warn",
    "appender.console.type = Console",
    "appender.console.name = console",
    "appender.console.target = SYSTEM_ERR",
    "appender.console.layout.type = PatternLayout",
    `appender.console.layout.pattern = ${CONSOLE_PATTERN}`,
    "rootLogger = INFO,console",
    "",
  ].join("\n");
}

/** YCSB's hbase README: "HBase recommends (10 * number of regionservers)" splits. */
export const REGIONS_PER_SERVER = 10;

/**
 * The pre-split usertable of a cluster: 10 regions per region server over YCSB's hashed keys, or a study's own
 * pre-split where it printed one (seed 001: NUMREGIONS => node count, HexStringSplit).
 */
export function usertableSpec(ctx: NodeContext): HBaseTableSpec {
  const split = ctx.study?.hbaseSplit;
  return hbaseTableSpec({
    preset: ctx.preset,
    nodes: ctx.nodeIps.length,
    regionsPerNode: split?.regionsPerNode ?? REGIONS_PER_SERVER,
    ...(split ? { splitAlgorithm: split.algorithm } : {}),
  });
}
