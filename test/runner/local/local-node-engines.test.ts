import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProcessSpec } from "../../../engines/runtime.js";
import { engineRuntime } from "../../../engines/runtimes.js";
import {
  LOCAL_TUNING,
  type LocalCluster,
  localNodeContext,
  localNodePaths,
} from "../../../runner/local/node-engines.js";

/** Local nodes are described by the engine's own runtime, with this machine's addresses and folders. */
describe("local nodes from the engine's runtime", () => {
  const prefix = process.env.YCSB_LAB_LOOPBACK_PREFIX;
  beforeAll(() => {
    process.env.YCSB_LAB_LOOPBACK_PREFIX = "127.0.31";
  });
  afterAll(() => {
    if (prefix === undefined) delete process.env.YCSB_LAB_LOOPBACK_PREFIX;
    else process.env.YCSB_LAB_LOOPBACK_PREFIX = prefix;
  });
  const cluster: LocalCluster = {
    engine: "cassandra",
    version: "5.0.4",
    nodes: 3,
    preset: "durable",
    replication: 3,
    dataDir: "/tmp/engines/cassandra",
  };

  it("gives each node its own loopback address and folders, node 1 the leader", () => {
    const ctx = localNodeContext(cluster, 2);
    expect(ctx.nodeIps).toEqual(["127.0.31.1", "127.0.31.2", "127.0.31.3"]);
    expect(ctx.index).toBe(1);
    expect(localNodePaths(cluster.dataDir, 2)).toEqual({
      install: "/tmp/engines/cassandra/engine",
      conf: "/tmp/engines/cassandra/node-2/conf",
      data: "/tmp/engines/cassandra/node-2/data",
      log: "/tmp/engines/cassandra/node-2/data",
      run: "/tmp/engines/cassandra/node-2",
    });
  });

  it("renders node 2's cassandra.yaml and command line from engines/cassandra/runtime.ts", () => {
    const runtime = engineRuntime("cassandra", LOCAL_TUNING);
    const ctx = localNodeContext(cluster, 2);
    const paths = localNodePaths(cluster.dataDir, 2);
    const yaml = runtime.files(ctx, paths).find((f) => f.path.endsWith("cassandra.yaml"));
    expect(yaml?.path).toBe("/tmp/engines/cassandra/node-2/conf/cassandra.yaml");
    expect(yaml?.content).toMatch(/^listen_address: "?127\.0\.31\.2"?$/m);
    expect(yaml?.content).toMatch(/^commitlog_sync: "?batch"?$/m);
    expect(yaml?.content).toContain("/tmp/engines/cassandra/node-2/data/cassandra/data");
    const [cassandra, ...others] = runtime.processes(ctx, paths) as ProcessSpec[];
    expect(others).toEqual([]);
    expect(cassandra?.listens).toEqual([{ host: "127.0.31.2", port: 9042 }]);
    // The heap fits three nodes on a development machine; the loopback ring settles in a second.
    expect(cassandra?.argv).toContain("-Xmx768m");
    expect(cassandra?.argv).toContain("-Dcassandra.ring_delay_ms=1000");
  });
});

/** HBase's and CouchbaseMock's local nodes: every daemon the runtime describes, on this machine's addresses. */
describe("local HBase and CouchbaseMock nodes from their runtimes", () => {
  const prefix = process.env.YCSB_LAB_LOOPBACK_PREFIX;
  beforeAll(() => {
    process.env.YCSB_LAB_LOOPBACK_PREFIX = "127.0.31";
  });
  afterAll(() => {
    if (prefix === undefined) delete process.env.YCSB_LAB_LOOPBACK_PREFIX;
    else process.env.YCSB_LAB_LOOPBACK_PREFIX = prefix;
  });
  const hbase: LocalCluster = {
    engine: "hbase",
    version: "2.5.11",
    nodes: 2,
    preset: "durable",
    replication: 1,
    dataDir: "/tmp/engines/hbase",
  };
  const mainClass = (p: ProcessSpec) => p.argv[p.argv.indexOf("-cp") + 2];

  it("starts seed 000's daemons per node: namenode, ZooKeeper, datanode, master, region server on node 1", () => {
    const runtime = engineRuntime("hbase", LOCAL_TUNING);
    const leader = runtime.processes(localNodeContext(hbase, 1), localNodePaths(hbase.dataDir, 1)) as ProcessSpec[];
    expect(leader.map((p) => p.name)).toEqual(["namenode", "zookeeper", "datanode", "master", "regionserver"]);
    expect(leader.map(mainClass)).toEqual([
      "org.apache.hadoop.hdfs.server.namenode.NameNode",
      "org.apache.zookeeper.server.ZooKeeperServerMain",
      "org.apache.hadoop.hdfs.server.datanode.DataNode",
      "org.apache.hadoop.hbase.master.HMaster",
      "org.apache.hadoop.hbase.regionserver.HRegionServer",
    ]);
    expect(leader.map((p) => p.listens)).toEqual([
      [{ host: "127.0.31.1", port: 8020 }],
      [{ host: "127.0.31.1", port: 2181 }],
      [{ host: "127.0.31.1", port: 9866 }],
      [{ host: "127.0.31.1", port: 16000 }],
      [{ host: "127.0.31.1", port: 16020 }],
    ]);
    // The heap cap of this machine applies to every daemon (the region server would take 40% of the memory).
    for (const p of leader) expect(p.argv.find((a) => a.startsWith("-Xmx"))).toMatch(/^-Xmx(768|512)m$/);
    expect(leader[0]?.prepare?.skipIfExists).toBe("/tmp/engines/hbase/node-1/data/hdfs/name/current/VERSION");
    // Logs land where `local status` says: the node's folder.
    expect(leader.every((p) => p.cwd === "/tmp/engines/hbase/node-1")).toBe(true);
  });

  it("gives node 2 a datanode on ports of its own and a region server, both after node 1's daemons", () => {
    const runtime = engineRuntime("hbase", LOCAL_TUNING);
    const ctx = localNodeContext(hbase, 2);
    const paths = localNodePaths(hbase.dataDir, 2);
    const [datanode, regionserver, ...others] = runtime.processes(ctx, paths) as ProcessSpec[];
    expect(others).toEqual([]);
    // Every datanode reaches the namenode from 127.0.0.1 on one machine: +10 per node (engines/hbase/cluster-config.ts).
    expect(datanode?.listens).toEqual([{ host: "127.0.31.2", port: 9876 }]);
    expect(datanode?.after).toEqual([{ host: "127.0.31.1", port: 8020, what: "the namenode on node 0" }]);
    expect(regionserver?.listens).toEqual([{ host: "127.0.31.2", port: 16020 }]);
    expect(regionserver?.after?.map((a) => `${a.host}:${a.port}`)).toEqual(["127.0.31.1:2181", "127.0.31.1:16000"]);
    const site = runtime.files(ctx, paths).find((f) => f.path.endsWith("hbase-site.xml"));
    expect(site?.path).toBe("/tmp/engines/hbase/node-2/conf/hbase-site.xml");
    expect(site?.content).toContain("<value>hdfs://127.0.31.1:8020/hbase</value>");
  });

  it("runs CouchbaseMock from the stand-in on node 1's address and a free REST port, serving every node", () => {
    const cluster: LocalCluster = { ...hbase, engine: "couchbase", version: "7.6", preset: "throughput", nodes: 3 };
    const standIn = engineRuntime("couchbase", { ...LOCAL_TUNING, standInPort: 41234 }).standIn!;
    const paths = localNodePaths("/tmp/engines/couchbase", 1);
    const [mock, ...others] = standIn.processes(localNodeContext(cluster, 1), paths, "/cache/mock.jar");
    expect(others).toEqual([]);
    expect(mock?.argv.join(" ")).toContain("--host 127.0.31.1 --port 41234 --nodes 3");
    expect(mock?.argv).toContain("-Xmx512m");
    expect(mock?.listens).toEqual([{ host: "127.0.31.1", port: 41234 }]);
    // The other nodes live in node 1's JVM: they start nothing of their own.
    expect(standIn.processes(localNodeContext(cluster, 2), paths, "/cache/mock.jar")).toEqual([]);
  });
});
