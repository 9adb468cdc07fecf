import { APACHE_ARCHIVE } from "../common-install.js";
import type { NodeContext } from "../node-context.js";
import {
  type EngineRuntime,
  type NodePaths,
  type NodeTuning,
  type ProcessSpec,
  refuseServerSettings,
} from "../runtime.js";
import {
  coreSite,
  datanodePorts,
  HBASE_PORTS,
  hbaseNodeDirs,
  hbaseSite,
  hdfsSite,
  log4j2Properties,
  log4jProperties,
  zooCfg,
} from "./cluster-config.js";
import { renderHBaseSiteXml } from "./config.js";
import { HBASE_JDK17_FLAGS, type HBaseDaemon, hbaseHeapMb } from "./jvm.js";

/** The Hadoop release HBase 2.5's "-hadoop3" artifacts are built against (their Maven POM: hadoop-common 3.4.1). */
export const HADOOP_VERSION = "3.4.1";

/** The main classes the boot command starts, as Hadoop's and HBase's own launchers do (bin/hdfs, bin/hbase). */
export const HBASE_MAIN_CLASSES: Record<HBaseDaemon, string> = {
  namenode: "org.apache.hadoop.hdfs.server.namenode.NameNode",
  datanode: "org.apache.hadoop.hdfs.server.datanode.DataNode",
  // ZooKeeper's own standalone server (zkServer.sh), with zoo.cfg rendered from the cluster description.
  zookeeper: "org.apache.zookeeper.server.ZooKeeperServerMain",
  master: "org.apache.hadoop.hbase.master.HMaster",
  regionserver: "org.apache.hadoop.hbase.regionserver.HRegionServer",
};

/** Where the node keeps what: the two distributions, the configuration (also the classpath's first entry), the data. */
export function hbaseDirs(paths: NodePaths) {
  const hadoop = `${paths.install}/hadoop`;
  const hbase = `${paths.install}/hbase`;
  return {
    hadoop,
    hbase,
    conf: paths.conf,
    // bin/hdfs's classpath: the common and hdfs jars with their libraries, and share/hadoop/hdfs itself (its webapps/).
    hadoopClasspath: [
      paths.conf,
      `${hadoop}/share/hadoop/common/*`,
      `${hadoop}/share/hadoop/common/lib/*`,
      `${hadoop}/share/hadoop/hdfs`,
      `${hadoop}/share/hadoop/hdfs/*`,
      `${hadoop}/share/hadoop/hdfs/lib/*`,
    ].join(":"),
    // bin/hbase's: the home folder (its hbase-webapps/), lib/ (the Hadoop client jars included), the logging jars,
    // and on JDK 11+ lib/jdk11.
    hbaseClasspath: [
      paths.conf,
      hbase,
      `${hbase}/lib/*`,
      `${hbase}/lib/client-facing-thirdparty/*`,
      `${hbase}/lib/jdk11/*`,
    ].join(":"),
    ...hbaseNodeDirs(paths.data),
    logs: paths.run,
  };
}

const leaderRoles = ["namenode", "zookeeper", "master", "datanode", "regionserver"] as const;

/**
 * HBase 2.5 on HDFS (seed 000's layout): the Apache Hadoop and HBase tarballs, checked against their .sha512; the
 * first node runs the namenode (formatted once), ZooKeeper and the master, every node a datanode and a region
 * server, each a JVM the boot command starts and supervises; configuration from engines/hbase.
 */
export function hbaseRuntime(tuning: NodeTuning = {}): EngineRuntime {
  const sharedHost = tuning.sharedHost ?? false;
  const java = (ctx: NodeContext, paths: NodePaths, daemon: HBaseDaemon, args: string[] = []): string[] => {
    const d = hbaseDirs(paths);
    const hadoopSide = daemon === "namenode" || daemon === "datanode";
    return [
      "java",
      `-Xmx${hbaseHeapMb(daemon, ctx.memoryGiB, tuning.maxHeapMb)}m`,
      "-XX:+UseG1GC",
      // Hadoop's launchers: IPv4 (bin/hadoop HADOOP_OPTS), the home folder, native libraries where the tarball has them.
      "-Djava.net.preferIPv4Stack=true",
      `-Dhadoop.home.dir=${d.hadoop}`,
      `-Djava.library.path=${d.hadoop}/lib/native`,
      `-Dhadoop.log.dir=${d.logs}`,
      `-Dhbase.log.dir=${d.logs}`,
      `-Dlog4j.configuration=file:${d.conf}/log4j.properties`,
      `-Dlog4j2.configurationFile=file:${d.conf}/log4j2.properties`,
      `-Dproc_${daemon}`,
      ...HBASE_JDK17_FLAGS,
      "-cp",
      hadoopSide ? d.hadoopClasspath : d.hbaseClasspath,
      HBASE_MAIN_CLASSES[daemon],
      ...args,
    ];
  };
  return {
    engine: "hbase",
    ports: {
      client: [
        { from: HBASE_PORTS.zookeeper, to: HBASE_PORTS.zookeeper, description: "ZooKeeper" },
        { from: HBASE_PORTS.master, to: HBASE_PORTS.master, description: "HBase master" },
        { from: HBASE_PORTS.regionserver, to: HBASE_PORTS.regionserver, description: "HBase region server" },
      ],
      cluster: [
        { from: HBASE_PORTS.zookeeper, to: HBASE_PORTS.zookeeper, description: "ZooKeeper" },
        { from: HBASE_PORTS.namenode, to: HBASE_PORTS.namenode, description: "HDFS namenode" },
        { from: HBASE_PORTS.datanode, to: HBASE_PORTS.datanodeIpc, description: "HDFS datanode" },
        { from: HBASE_PORTS.master, to: HBASE_PORTS.regionserver, description: "HBase master and region servers" },
      ],
    },
    // The WAL lives in HDFS: the preset acts through hbase.wal.hsync and the table durability, not a volume.
    wantsLogVolume: () => false,
    artifacts: (version) => {
      const hadoop = `${APACHE_ARCHIVE}/hadoop/common/hadoop-${HADOOP_VERSION}/hadoop-${HADOOP_VERSION}.tar.gz`;
      const hbase = `${APACHE_ARCHIVE}/hbase/${version}/hbase-${version}-hadoop3-bin.tar.gz`;
      return [
        {
          name: `hadoop-${HADOOP_VERSION}.tar.gz`,
          url: hadoop,
          checksumUrl: `${hadoop}.sha512`,
          checksum: "sha512",
          into: "hadoop",
          stripComponents: 1,
        },
        {
          name: `hbase-${version}-hadoop3-bin.tar.gz`,
          url: hbase,
          checksumUrl: `${hbase}.sha512`,
          checksum: "sha512",
          into: "hbase",
          stripComponents: 1,
        },
      ];
    },
    directories: (ctx, paths) => {
      const d = hbaseDirs(paths);
      return [...(ctx.index === 0 ? [d.name, d.zookeeper] : []), d.data, d.hadoopTmp, d.hbaseTmp, d.conf, d.logs];
    },
    // A reset wipes the whole cluster's state: HDFS (the namenode formats afresh), ZooKeeper's, the temporary folders.
    dataDirectories: (ctx, paths) => {
      const d = hbaseDirs(paths);
      return [...(ctx.index === 0 ? [d.name, d.zookeeper] : []), d.data, d.hadoopTmp, d.hbaseTmp];
    },
    files: (ctx, paths) => {
      const conf = paths.conf;
      return [
        { path: `${conf}/core-site.xml`, content: renderHBaseSiteXml(coreSite(ctx)) },
        { path: `${conf}/hdfs-site.xml`, content: renderHBaseSiteXml(hdfsSite(ctx, sharedHost)) },
        { path: `${conf}/hbase-site.xml`, content: renderHBaseSiteXml(hbaseSite(ctx)) },
        ...(ctx.index === 0 ? [{ path: `${conf}/zoo.cfg`, content: zooCfg(ctx) }] : []),
        { path: `${conf}/log4j.properties`, content: log4jProperties() },
        { path: `${conf}/log4j2.properties`, content: log4j2Properties() },
      ];
    },
    processes: (ctx, paths): ProcessSpec[] => {
      const d = hbaseDirs(paths);
      const ip = ctx.nodeIps[ctx.index]!;
      const leader = ctx.nodeIps[0]!;
      const dn = datanodePorts(ctx.index, sharedHost);
      const spec = (
        daemon: HBaseDaemon,
        port: number,
        args: string[],
        extra: Partial<ProcessSpec> = {},
      ): ProcessSpec => ({
        name: daemon,
        argv: java(ctx, paths, daemon, args),
        cwd: d.logs,
        listens: [{ host: ip, port }],
        ...extra,
      });
      const datanode = spec(
        "datanode",
        dn.xfer,
        [],
        ctx.index > 0 ? { after: [{ host: leader, port: HBASE_PORTS.namenode, what: "the namenode on node 0" }] } : {},
      );
      const regionserver = spec(
        "regionserver",
        HBASE_PORTS.regionserver,
        ["start"],
        ctx.index > 0
          ? {
              after: [
                { host: leader, port: HBASE_PORTS.zookeeper, what: "ZooKeeper on node 0" },
                { host: leader, port: HBASE_PORTS.master, what: "the master on node 0" },
              ],
            }
          : {},
      );
      if (ctx.index > 0) return [datanode, regionserver];
      return [
        // A new cluster's namenode formats its name folder once; a restarted boot finds it formatted.
        spec("namenode", HBASE_PORTS.namenode, [], {
          prepare: {
            argv: java(ctx, paths, "namenode", ["-format", "-nonInteractive"]),
            skipIfExists: `${d.name}/current/VERSION`,
          },
        }),
        spec("zookeeper", HBASE_PORTS.zookeeper, [`${d.conf}/zoo.cfg`]),
        datanode,
        spec("master", HBASE_PORTS.master, ["start"]),
        regionserver,
      ];
    },
    // seed 000: "The first node ... ran as both the Hadoop namenode and the HBase master, and ran the Zookeeper process as well."
    roles: (ctx) => (ctx.index === 0 ? [...leaderRoles] : ["datanode", "regionserver"]),
    checkServerSettings: refuseServerSettings,
  };
}
