import { describe, expect, it } from "vitest";
import {
  addNode,
  bucketReadiness,
  clusterInit,
  createBucket,
  kvPortsOf,
  nodeInit,
  nodesToAdd,
  rebalance,
} from "../../../engines/couchbase/formation.js";
import { couchbaseRuntime } from "../../../engines/couchbase/runtime.js";
import { COUCHBASE_STAND_IN } from "../../../engines/couchbase/stand-in.js";
import { type NodePaths, nodeContextOf, type ProcessSpec } from "../../../engines/runtime.js";
import { CLUSTER_DESCRIPTION_VERSION, type ClusterDescription } from "../../../model/cluster-description.js";
import type { Preset } from "../../../model/presets.js";

const cluster = (nodes: number, preset: Preset = "balanced", loadPreset: Preset = preset): ClusterDescription => ({
  descriptionVersion: CLUSTER_DESCRIPTION_VERSION,
  runId: "r1",
  scenario: "quickstart",
  engine: "couchbase",
  version: "7.6",
  preset,
  loadPreset,
  replication: Math.min(2, nodes),
  recordCount: 1000,
  fieldCount: 10,
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
const paths: NodePaths = {
  install: "/opt/ycsb-lab/engine",
  conf: "/opt/ycsb-lab/conf",
  data: "/data",
  log: "/data",
  run: "/opt/ycsb-lab/run",
};
const ctxOf = (d: ClusterDescription, i: number) => nodeContextOf(d, i, paths);

describe("Couchbase's runtime (engines/couchbase/runtime.ts)", () => {
  const runtime = couchbaseRuntime();

  it("installs the vendor's .deb, checked against its .sha256, and supervises the service it brings by REST health", () => {
    expect(runtime.artifacts("7.6")).toEqual([
      {
        name: "couchbase-server-community_7.6.2-linux_amd64.deb",
        url: "https://packages.couchbase.com/releases/7.6.2/couchbase-server-community_7.6.2-linux_amd64.deb",
        checksumUrl:
          "https://packages.couchbase.com/releases/7.6.2/couchbase-server-community_7.6.2-linux_amd64.deb.sha256",
        checksum: "sha256",
        kind: "deb",
        into: "couchbase",
        stripComponents: 0,
      },
    ]);
    expect(() => runtime.artifacts("7")).toThrow(/no Couchbase build known/);
    const ctx = ctxOf(cluster(2), 1);
    expect(runtime.processes(ctx, paths)).toEqual([
      {
        kind: "service",
        name: "couchbase-server",
        unit: "couchbase-server",
        health: { url: "http://127.0.0.1:8091/ui/index.html" },
        listens: [{ host: "10.0.1.11", port: 8091 }],
        logFile: "/opt/couchbase/var/lib/couchbase/logs/error.log",
      },
    ]);
    // The package's own user owns the data path it is given.
    expect(runtime.runsAs).toBe("couchbase");
    expect(runtime.directories(ctx, paths)).toEqual(["/data/couchbase/data", "/data/couchbase/index"]);
    expect(runtime.roles(ctx)).toEqual(["server-add", "data"]);
  });

  it("forms the cluster through REST as seed 000 did: node-init, cluster-init on the first node, server-add, one rebalance, the bucket", () => {
    const ctx = ctxOf(cluster(3, "durable"), 0);
    expect(nodeInit("10.0.1.12", "/data")).toMatchObject({
      host: "10.0.1.12:8091",
      path: "/nodes/self/controller/settings",
      form: { path: "/data/couchbase/data", index_path: "/data/couchbase/index" },
      auth: false,
    });
    expect(clusterInit(ctx, "s3cret").map((c) => [c.path, c.form])).toEqual([
      ["/node/controller/rename", { hostname: "10.0.1.10" }],
      ["/node/controller/setupServices", { services: "kv" }],
      ["/pools/default", { memoryQuota: "6144" }],
      ["/settings/web", { port: "SAME", username: "Administrator", password: "s3cret" }],
    ]);
    // The password goes to Couchbase, never into the steps the marker records.
    expect(
      clusterInit(ctx, "s3cret")
        .map((c) => c.what)
        .join(" "),
    ).not.toContain("s3cret");
    expect(addNode(ctx, "10.0.1.11", "s3cret")).toMatchObject({
      host: "10.0.1.10:8091",
      path: "/controller/addNode",
      form: { hostname: "10.0.1.11", user: "Administrator", password: "s3cret", services: "kv" },
      auth: true,
    });
    expect(addNode(ctx, "10.0.1.11", "s3cret").what).not.toContain("s3cret");
    expect(rebalance(ctx, ["ns_1@10.0.1.10", "ns_1@10.0.1.11"]).form).toEqual({
      knownNodes: "ns_1@10.0.1.10,ns_1@10.0.1.11",
      ejectedNodes: "",
    });
    expect(createBucket(ctx).form).toEqual({
      name: "ycsb",
      bucketType: "couchbase",
      ramQuota: "6144",
      replicaNumber: "1",
      evictionPolicy: "fullEviction",
      flushEnabled: "0",
    });
  });

  it("adds only the nodes not yet in the cluster, and is ready when every node serves the bucket", () => {
    const ctx = ctxOf(cluster(3), 0);
    const pool = [
      { hostname: "10.0.1.10:8091", otpNode: "ns_1@10.0.1.10", clusterMembership: "active" },
      { hostname: "10.0.1.12:8091", otpNode: "ns_1@10.0.1.12", clusterMembership: "inactiveAdded" },
    ];
    expect(nodesToAdd(ctx, pool)).toEqual(["10.0.1.11"]);
    expect(
      bucketReadiness(ctx, [
        { hostname: "10.0.1.10:8091", status: "healthy" },
        { hostname: "10.0.1.11:8091", status: "warmup" },
      ]),
    ).toEqual(["10.0.1.11 does not serve bucket ycsb yet", "10.0.1.12 does not serve bucket ycsb yet"]);
    expect(kvPortsOf({ nodes: [{ ports: { direct: 11210 } }, { ports: {} }] })).toEqual([11210]);
  });
});

describe("Couchbase's stand-in (CouchbaseMock)", () => {
  const standIn = couchbaseRuntime({ maxHeapMb: 256 }).standIn!;

  it("serves one node on its address and REST port, and refuses what the mock cannot honour", () => {
    const ctx = ctxOf(cluster(1, "throughput"), 0);
    expect(standIn.label).toBe(COUCHBASE_STAND_IN);
    expect(standIn.refusal(ctx)).toBeUndefined();
    const [mock] = standIn.processes(ctx, paths, "/cache/CouchbaseMock.jar") as ProcessSpec[];
    expect(mock!.argv.slice(0, 4)).toEqual(["java", "-Xmx256m", "-jar", "/cache/CouchbaseMock.jar"]);
    expect(mock!.argv.join(" ")).toContain("--host 10.0.1.10 --port 8091 --nodes 1");
    expect(mock!.listens).toEqual([{ host: "10.0.1.10", port: 8091 }]);
    expect(standIn.refusal(ctxOf(cluster(2, "throughput"), 0))).toMatch(/one node here; this run has 2 data nodes/);
    expect(standIn.refusal(ctxOf(cluster(1, "balanced"), 0))).toMatch(
      /preset "balanced" sets couchbase.durability=majority/,
    );
    // A durable run with a non-durable load still needs durability in its workloads.
    expect(standIn.refusal(ctxOf(cluster(1, "throughput", "durable"), 0))).toMatch(/preset "durable"/);
  });
});
