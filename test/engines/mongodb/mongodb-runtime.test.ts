import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { wiredTigerCacheGB } from "../../../engines/mongodb/config.js";
import { allMongods, replicaSetInitiations, shardsToAdd } from "../../../engines/mongodb/formation.js";
import { mongodbRuntime, mongodbStandIn } from "../../../engines/mongodb/runtime.js";
import { MONGODB_STAND_IN } from "../../../engines/mongodb/stand-in.js";
import { type NodePaths, nodeContextOf, type ProcessSpec } from "../../../engines/runtime.js";
import { CLUSTER_DESCRIPTION_VERSION, type ClusterDescription } from "../../../model/cluster-description.js";
import type { Preset } from "../../../model/presets.js";

const cluster = (
  nodes: number,
  o: { preset?: Preset; topology?: "sharded" | "replica-set"; replication?: number } = {},
): ClusterDescription => ({
  descriptionVersion: CLUSTER_DESCRIPTION_VERSION,
  runId: "r1",
  scenario: "quickstart",
  engine: "mongodb",
  version: "8.0",
  preset: o.preset ?? "balanced",
  loadPreset: o.preset ?? "balanced",
  replication: o.replication ?? 1,
  recordCount: 1000,
  fieldCount: 10,
  mongoTopology: o.topology ?? "sharded",
  serverSettings: {},
  region: "eu-west-1",
  bucket: "b-1",
  parameterPath: "/ycsb-lab/r1/",
  nodes: Array.from({ length: nodes }, (_, i) => ({
    index: i,
    address: `10.0.1.${10 + i}`,
    instanceType: "m6i.large",
    memoryGiB: 8,
    vcpus: 2,
  })),
  clients: [{ index: 0, address: "10.0.2.10", instanceType: "c6i.large" }],
  storage: { data: { kind: "ebs", device: "sdf" }, dataDir: "/data" },
  kit: { sha256: "0".repeat(64), version: "0.1.0" },
  lifetime: { expiry: "2030-01-01" },
});
const paths = (log = "/data"): NodePaths => ({
  install: "/opt/ycsb-lab/engine",
  conf: "/opt/ycsb-lab/conf",
  data: "/data",
  log,
  run: "/opt/ycsb-lab/run",
});
const ctxOf = (d: ClusterDescription, index: number, p = paths()) => nodeContextOf(d, index, p);

describe("MongoDB's runtime (engines/mongodb/runtime.ts)", () => {
  const runtime = mongodbRuntime();

  it("downloads the vendor's Debian 12 tarball, checked against the .sha256 published beside it", () => {
    const [a, ...rest] = runtime.artifacts("8.0");
    expect(rest).toEqual([]);
    expect(a).toMatchObject({
      url: expect.stringMatching(
        /^https:\/\/fastdl\.mongodb\.org\/linux\/mongodb-linux-x86_64-debian12-8\.0\.\d+\.tgz$/,
      ),
      checksum: "sha256",
      into: "mongodb",
      stripComponents: 1,
    });
    expect(a!.checksumUrl).toBe(`${a!.url}.sha256`);
    expect(() => runtime.artifacts("7")).toThrow(/no MongoDB build known for "7"/);
    expect(runtime.osPackages).toContain("libcurl4");
  });

  it("runs the config server, a shard and a router on the first node, a shard and a router on the others (seed 000)", () => {
    const d = cluster(3);
    const names = (i: number) => runtime.processes(ctxOf(d, i), paths()).map((p) => p.name);
    expect(names(0)).toEqual(["configsvr", "shard0-27018", "mongos"]);
    expect(names(2)).toEqual(["shard2-27018", "mongos"]);
    expect(runtime.roles(ctxOf(d, 0))).toEqual(["configsvr", "shard-primary", "router"]);
  });

  it("starts each mongod with its own mongod.conf on the node's address, and routers once the config server listens", () => {
    const d = cluster(2);
    const ctx = ctxOf(d, 1);
    const files = new Map(runtime.files(ctx, paths()).map((f) => [f.path, parse(f.content) as Record<string, any>]));
    const processes = runtime.processes(ctx, paths()) as ProcessSpec[];
    const shard = processes[0]!;
    expect(shard.argv).toEqual([
      "/opt/ycsb-lab/engine/mongodb/bin/mongod",
      "--config",
      "/opt/ycsb-lab/conf/shard1-27018.conf",
    ]);
    expect(shard.listens).toEqual([{ host: "10.0.1.11", port: 27018 }]);
    expect(files.get("/opt/ycsb-lab/conf/shard1-27018.conf")).toEqual({
      storage: {
        dbPath: "/data/mongodb/shard1-27018",
        wiredTiger: { engineConfig: { journalCompressor: "snappy", cacheSizeGB: 3.5 } },
        journal: { commitIntervalMs: 100 },
      },
      net: { port: 27018, bindIp: "10.0.1.11" },
      sharding: { clusterRole: "shardsvr" },
      replication: { replSetName: "shard1" },
    });
    const mongos = processes[1]!;
    expect(mongos.argv.slice(0, 1)).toEqual(["/opt/ycsb-lab/engine/mongodb/bin/mongos"]);
    expect(mongos.listens).toEqual([]);
    expect(mongos.after).toEqual([{ host: "10.0.1.10", port: 27019, what: "the config server on node 0" }]);
    expect(files.get("/opt/ycsb-lab/conf/mongos.conf")).toEqual({
      net: { port: 27017, bindIp: "10.0.1.11" },
      sharding: { configDB: "cfg/10.0.1.10:27019" },
    });
    const cfg = runtime.files(ctxOf(d, 0), paths()).find((f) => f.path.endsWith("configsvr.conf"))!;
    expect(parse(cfg.content)).toMatchObject({
      net: { port: 27019 },
      sharding: { clusterRole: "configsvr" },
      replication: { replSetName: "cfg" },
    });
  });

  it("puts each data-bearing mongod's journal on the log volume where the preset wants it (seed 004)", () => {
    const d = cluster(3, { preset: "durable", topology: "replica-set", replication: 2 });
    expect(runtime.wantsLogVolume("durable")).toBe(true);
    expect(runtime.wantsLogVolume("throughput")).toBe(false);
    const ctx = ctxOf(d, 1, paths("/log"));
    const links = runtime.links!(ctx, paths("/log"));
    // node 1: primary of shard1, secondary of shard0, arbiter of shard2 (seed 002 appendix D): the arbiter keeps no journal.
    expect(runtime.roles(ctx)).toEqual(["shard-secondary", "shard-primary", "arbiter", "router"]);
    expect(links.map((l) => l.path)).toEqual([
      "/data/mongodb/shard0-27020/journal",
      "/data/mongodb/shard1-27018/journal",
    ]);
    expect(links[1]!.target).toBe("/log/mongodb/shard1-27018/journal");
    expect(runtime.directories(ctx, paths("/log"))).toContain("/log/mongodb/shard1-27018/journal");
    expect(runtime.links!(ctxOf(d, 1), paths())).toEqual([]);
  });

  it("initiates the config server and one replica set per shard, and adds the shards by their data-bearing members", () => {
    const ctx = ctxOf(cluster(3, { topology: "replica-set", replication: 2 }), 0);
    const initiations = replicaSetInitiations(ctx);
    expect(initiations.map((i) => i.config._id)).toEqual(["cfg", "shard0", "shard1", "shard2"]);
    expect(initiations[1]!.config.members).toEqual([
      { _id: 0, host: "10.0.1.10:27018", priority: 2 },
      { _id: 1, host: "10.0.1.11:27020", priority: 1 },
      { _id: 2, host: "10.0.1.12:27021", arbiterOnly: true },
    ]);
    expect(shardsToAdd(initiations)[0]).toEqual({
      name: "shard0",
      connection: "shard0/10.0.1.10:27018,10.0.1.11:27020",
    });
    expect(allMongods(initiations)).toHaveLength(1 + 3 * 3);
  });

  it("refuses study settings it would not apply", () => {
    expect(runtime.checkServerSettings({})).toEqual([]);
    expect(runtime.checkServerSettings({ "storage.wiredTiger.cacheSizeGB": "4" })).toEqual([
      '"storage.wiredTiger.cacheSizeGB" is not applied for this engine',
    ]);
  });
});

describe("MongoDB's stand-in (FerretDB)", () => {
  it("serves on the node's address and the routers' port, and refuses a cluster of more than one node", () => {
    const one = ctxOf(cluster(1), 0);
    expect(mongodbStandIn.label).toBe(MONGODB_STAND_IN);
    expect(mongodbStandIn.refusal(one)).toBeUndefined();
    const [p] = mongodbStandIn.processes(one, paths(), "/cache/ferretdb");
    expect(p!.argv[0]).toBe("/cache/ferretdb");
    expect(p!.argv).toContain("--listen-addr=10.0.1.10:27017");
    expect(p!.listens).toEqual([{ host: "10.0.1.10", port: 27017 }]);
    expect(mongodbStandIn.refusal(ctxOf(cluster(2), 0))).toMatch(
      /one server with no replica sets or sharding; this run has 2 data nodes/,
    );
  });
});

describe("MongoDB's memory: several mongods on one node fit with swap off", () => {
  it("the mongods of a node share what one would take (half of RAM less 1 GB); arbiters and the config server take the minimum", () => {
    // Seed 002's layout at replication 2: node 1 is primary of shard 1, secondary of shard 0, arbiter of shard 3.
    const d = cluster(4, { topology: "replica-set", replication: 2 });
    for (const index of [0, 1, 2, 3]) {
      const confs = (
        mongodbRuntime().files(ctxOf(d, index), paths()) as Array<{ path: string; content: string }>
      ).filter((f) => /mongod|configsvr|shard/.test(f.path) && f.path.endsWith(".conf") && !f.path.includes("mongos"));
      const caches = confs.map((f) => parse(f.content).storage.wiredTiger.engineConfig.cacheSizeGB as number);
      expect(caches.length).toBeGreaterThanOrEqual(3);
      expect(caches.every((c) => c >= 0.25)).toBe(true);
      expect(caches.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(0.5 * (8 - 1) + 1e-9);
    }
    expect(wiredTigerCacheGB(8, ["shard-primary", "shard-secondary", "arbiter"])).toEqual({
      "shard-primary": 1.62,
      "shard-secondary": 1.62,
      arbiter: 0.25,
    });
    // One mongod alone keeps the budget a single mongod would take.
    expect(wiredTigerCacheGB(32, ["shard-primary"])).toEqual({ "shard-primary": 15.5 });
  });
});
