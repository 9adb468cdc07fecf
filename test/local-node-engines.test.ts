import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProcessSpec } from "../engines/runtime.js";
import { engineRuntime } from "../engines/runtimes.js";
import { LOCAL_TUNING, type LocalCluster, localNodeContext, localNodePaths } from "../runner/local/node-engines.js";

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
