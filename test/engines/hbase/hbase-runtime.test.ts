import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { hbaseHeapMb } from "../../../engines/hbase/jvm.js";
import { HBASE_MAIN_CLASSES, hbaseRuntime } from "../../../engines/hbase/runtime.js";
import { hbaseTableSpec } from "../../../engines/hbase/schema.js";
import { type NodePaths, nodeContextOf, type ProcessSpec } from "../../../engines/runtime.js";
import { CLUSTER_DESCRIPTION_VERSION, type ClusterDescription } from "../../../model/cluster-description.js";
import { schemaToolArgs } from "../../../runner/boot/formation/hbase.js";

const cluster = (nodes: number): ClusterDescription => ({
  descriptionVersion: CLUSTER_DESCRIPTION_VERSION,
  runId: "r1",
  scenario: "quickstart",
  engine: "hbase",
  version: "2.5.11",
  preset: "durable",
  loadPreset: "throughput",
  replication: 1,
  recordCount: 1000,
  fieldCount: 10,
  serverSettings: {},
  region: "eu-west-1",
  bucket: "b-1",
  parameterPath: "/ycsb-lab/r1/",
  nodes: Array.from({ length: nodes }, (_, i) => ({
    index: i,
    address: `10.0.1.${10 + i}`,
    instanceType: "i4i.xlarge",
    memoryGiB: 32,
    vcpus: 4,
  })),
  clients: [{ index: 0, address: "10.0.2.10", instanceType: "c6i.large" }],
  storage: { data: { kind: "instance-store" }, dataDir: "/data" },
  kit: { sha256: "0".repeat(64), version: "0.1.0" },
  lifetime: { expiry: "2030-01-01" },
});
const paths: NodePaths = {
  install: "/opt/ycsb-lab/engine",
  conf: "/opt/ycsb-lab/conf",
  data: "/data",
  log: "/data",
  run: "/opt/ycsb-lab/run",
};
const ctxOf = (d: ClusterDescription, i: number) => nodeContextOf(d, i, paths);

/** A Hadoop configuration file as Hadoop reads it: name -> value, through a real XML parser. */
function hadoopXml(xml: string): Record<string, string> {
  const doc = new XMLParser({ parseTagValue: false }).parse(xml) as {
    configuration: { property: Array<{ name: string; value: string }> | { name: string; value: string } };
  };
  return Object.fromEntries([doc.configuration.property].flat().map((p) => [p.name, String(p.value)]));
}

/** A Java properties file (zoo.cfg, log4j.properties): key -> value. */
function properties(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split("\n")
      .filter((l) => l.trim() && !l.startsWith("#"))
      .map((l) => [l.slice(0, l.indexOf("=")).trim(), l.slice(l.indexOf("=") + 1).trim()]),
  );
}

describe("HBase's runtime (engines/hbase/runtime.ts)", () => {
  const runtime = hbaseRuntime();

  it("downloads the Hadoop and HBase tarballs from the Apache archive, each checked against its .sha512", () => {
    expect(runtime.artifacts("2.5.11").map((a) => [a.url, a.checksumUrl, a.checksum, a.into])).toEqual([
      [
        "https://archive.apache.org/dist/hadoop/common/hadoop-3.4.1/hadoop-3.4.1.tar.gz",
        "https://archive.apache.org/dist/hadoop/common/hadoop-3.4.1/hadoop-3.4.1.tar.gz.sha512",
        "sha512",
        "hadoop",
      ],
      [
        "https://archive.apache.org/dist/hbase/2.5.11/hbase-2.5.11-hadoop3-bin.tar.gz",
        "https://archive.apache.org/dist/hbase/2.5.11/hbase-2.5.11-hadoop3-bin.tar.gz.sha512",
        "sha512",
        "hbase",
      ],
    ]);
  });

  it("runs seed 000's daemons, each as java -cp ... <main class>, the namenode formatted once", () => {
    const d = cluster(3);
    const leader = runtime.processes(ctxOf(d, 0), paths) as ProcessSpec[];
    expect(leader.map((p) => p.name)).toEqual(["namenode", "zookeeper", "datanode", "master", "regionserver"]);
    for (const p of leader) expect(p.argv[0]).toBe("java");
    // The main class comes right after the classpath, as bin/hdfs and bin/hbase run it.
    expect(leader.map((p) => p.argv[p.argv.indexOf("-cp") + 2])).toEqual([
      "org.apache.hadoop.hdfs.server.namenode.NameNode",
      "org.apache.zookeeper.server.ZooKeeperServerMain",
      "org.apache.hadoop.hdfs.server.datanode.DataNode",
      "org.apache.hadoop.hbase.master.HMaster",
      "org.apache.hadoop.hbase.regionserver.HRegionServer",
    ]);
    const namenode = leader[0]!;
    expect(namenode.prepare?.argv.slice(-3)).toEqual([HBASE_MAIN_CLASSES.namenode, "-format", "-nonInteractive"]);
    expect(namenode.prepare?.skipIfExists).toBe("/data/hdfs/name/current/VERSION");
    const cp = (p: ProcessSpec) => p.argv[p.argv.indexOf("-cp") + 1]!;
    expect(cp(namenode).split(":")).toEqual([
      "/opt/ycsb-lab/conf",
      "/opt/ycsb-lab/engine/hadoop/share/hadoop/common/*",
      "/opt/ycsb-lab/engine/hadoop/share/hadoop/common/lib/*",
      "/opt/ycsb-lab/engine/hadoop/share/hadoop/hdfs",
      "/opt/ycsb-lab/engine/hadoop/share/hadoop/hdfs/*",
      "/opt/ycsb-lab/engine/hadoop/share/hadoop/hdfs/lib/*",
    ]);
    expect(cp(leader[3]!).split(":").slice(0, 3)).toEqual([
      "/opt/ycsb-lab/conf",
      "/opt/ycsb-lab/engine/hbase",
      "/opt/ycsb-lab/engine/hbase/lib/*",
    ]);
    expect(leader[1]!.argv.at(-1)).toBe("/opt/ycsb-lab/conf/zoo.cfg");
    expect(leader[3]!.argv.at(-1)).toBe("start");
    // Java 17: HBase's own flags on every daemon (Hadoop's included: they share the reflective netty and nio paths).
    for (const p of leader) expect(p.argv).toContain("java.base/java.nio=ALL-UNNAMED");

    const other = runtime.processes(ctxOf(d, 2), paths) as ProcessSpec[];
    expect(other.map((p) => [p.name, p.listens, p.after?.map((a) => `${a.host}:${a.port}`)])).toEqual([
      ["datanode", [{ host: "10.0.1.12", port: 9866 }], ["10.0.1.10:8020"]],
      ["regionserver", [{ host: "10.0.1.12", port: 16020 }], ["10.0.1.10:2181", "10.0.1.10:16000"]],
    ]);
    expect(runtime.roles(ctxOf(d, 2))).toEqual(["datanode", "regionserver"]);
  });

  it("writes core-, hdfs- and hbase-site.xml Hadoop can read, each daemon bound and named by its node's address", () => {
    const ctx = ctxOf(cluster(2), 1);
    const files = new Map(runtime.files(ctx, paths).map((f) => [f.path.split("/").pop()!, f.content]));
    expect([...files.keys()]).toEqual([
      "core-site.xml",
      "hdfs-site.xml",
      "hbase-site.xml",
      "log4j.properties",
      "log4j2.properties",
    ]);
    expect(hadoopXml(files.get("core-site.xml")!)).toEqual({
      "fs.defaultFS": "hdfs://10.0.1.10:8020",
      "hadoop.tmp.dir": "/data/hadoop-tmp",
    });
    expect(hadoopXml(files.get("hdfs-site.xml")!)).toMatchObject({
      "dfs.namenode.name.dir": "file:///data/hdfs/name",
      "dfs.datanode.data.dir": "file:///data/hdfs/data",
      "dfs.replication": "1",
      "dfs.datanode.address": "10.0.1.11:9866",
      "dfs.datanode.hostname": "10.0.1.11",
      "dfs.client.use.datanode.hostname": "true",
    });
    expect(hadoopXml(files.get("hbase-site.xml")!)).toMatchObject({
      "hbase.cluster.distributed": "true",
      "hbase.rootdir": "hdfs://10.0.1.10:8020/hbase",
      "hbase.zookeeper.quorum": "10.0.1.10",
      "hbase.zookeeper.property.clientPort": "2181",
      // The durable preset's server side (model/presets.ts).
      "hbase.wal.hsync": "true",
      "hbase.master.hostname": "10.0.1.10",
      "hbase.unsafe.regionserver.hostname": "10.0.1.11",
      "hbase.regionserver.ipc.address": "10.0.1.11",
    });
    expect(properties(files.get("log4j.properties")!)["log4j.rootLogger"]).toBe("INFO,console");
    expect(properties(files.get("log4j2.properties")!)["rootLogger"]).toBe("INFO,console");
  });

  it("runs ZooKeeper standalone on the first node's address, with HBase's connection limit", () => {
    const zoo = runtime.files(ctxOf(cluster(2), 0), paths).find((f) => f.path.endsWith("zoo.cfg"))!;
    expect(properties(zoo.content)).toEqual({
      tickTime: "2000",
      dataDir: "/data/zookeeper",
      clientPort: "2181",
      clientPortAddress: "10.0.1.10",
      maxClientCnxns: "300",
      "admin.enableServer": "false",
    });
  });

  it("gives each datanode ports of its own when the nodes share one machine (the namenode sees them all as 127.0.0.1)", () => {
    const shared = hbaseRuntime({ sharedHost: true, maxHeapMb: 512 });
    const ctx = ctxOf(cluster(3), 2);
    const dn = (shared.processes(ctx, paths) as ProcessSpec[])[0]!;
    expect(dn.listens).toEqual([{ host: "10.0.1.12", port: 9886 }]);
    expect(hadoopXml(shared.files(ctx, paths).find((f) => f.path.endsWith("hdfs-site.xml"))!.content)).toMatchObject({
      "dfs.datanode.address": "10.0.1.12:9886",
      "dfs.datanode.http.address": "10.0.1.12:9884",
      "dfs.datanode.ipc.address": "10.0.1.12:9887",
    });
    expect(dn.argv).toContain("-Xmx512m");
  });

  it("sizes the heaps: the region server most, capped for compressed oops and by the rehearsal's cap", () => {
    expect(hbaseHeapMb("regionserver", 32)).toBe(13107);
    expect(hbaseHeapMb("regionserver", 122)).toBe(31 * 1024);
    expect(hbaseHeapMb("regionserver", 2)).toBe(1024);
    expect(hbaseHeapMb("zookeeper", 32)).toBe(512);
    expect(hbaseHeapMb("namenode", 32, 768)).toBe(768);
  });

  it("asks our schema tool for every region server, then the pre-split table with the preset's durability", () => {
    const table = hbaseTableSpec({ preset: "durable", nodes: 2, regionsPerNode: 10 });
    const args = schemaToolArgs({
      bindingDir: "/kit/java/bindings/hbase",
      quorum: "10.0.1.10",
      servers: 2,
      timeoutSec: 3600,
      table,
    });
    expect(args.slice(2, 5)).toEqual([
      "-cp",
      "/kit/java/bindings/hbase/*",
      "io.ycsblab.bindings.hbase.HBaseSchemaTool",
    ]);
    const option = (name: string) => args[args.indexOf(name) + 1];
    expect([
      option("--quorum"),
      option("--port"),
      option("--servers"),
      option("--durability"),
      option("--table"),
    ]).toEqual(["10.0.1.10", "2181", "2", "FSYNC_WAL", "usertable"]);
    expect(args.filter((a) => a === "--split")).toHaveLength(19);
  });
});
