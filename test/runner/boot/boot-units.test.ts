import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { renderFleetStatus } from "../../../cli/commands/status.js";
import { cassandraRuntime } from "../../../engines/cassandra/runtime.js";
import { initialTokens } from "../../../engines/cassandra/tokens.js";
import { osTuning, tuningSteps } from "../../../engines/os-tuning.js";
import { nodeContextOf, type ProcessSpec } from "../../../engines/runtime.js";
import { clientPolicy, dataNodePolicy } from "../../../infra/policies.js";
import { evaluatePolicy, iamRequestOf } from "../../../infra/policy-eval.js";
import { runLayout } from "../../../infra/run-layout.js";
import { tarArchive } from "../../../kit/tar.js";
import { type ClusterDescription, clusterDescriptionProblems } from "../../../model/cluster-description.js";
import { kitKey } from "../../../model/results-layout.js";
import { parseSha512File } from "../../../runner/boot/engine-install.js";
import { bootEnvironment, hostAddress, hostPath, rehearsalNotes } from "../../../runner/boot/environment.js";
import { resolveGlobs } from "../../../runner/boot/processes.js";
import { parseRunUrl } from "../../../runner/boot/run-objects.js";

const scope = {
  bucketName: "results",
  accountId: "123456789012",
  region: "us-east-1",
  runId: "r1",
  ...runLayout("r1"),
  kitKey: kitKey("a".repeat(64)),
};

describe("IAM policy evaluation (what moto cannot judge: conditions)", () => {
  const client = clientPolicy(scope, 0);
  const client1 = clientPolicy(scope, 1);
  const node = dataNodePolicy(scope);
  it.each([
    [
      "client lists its run's barriers",
      client,
      { action: "s3:ListBucket", resource: "arn:aws:s3:::results", context: { "s3:prefix": "runs/r1/barriers/3-a/" } },
      "allowed",
    ],
    [
      "client lists another run",
      client,
      { action: "s3:ListBucket", resource: "arn:aws:s3:::results", context: { "s3:prefix": "runs/r2/" } },
      "implicit-deny",
    ],
    [
      "client lists the whole bucket",
      client,
      { action: "s3:ListBucket", resource: "arn:aws:s3:::results", context: {} },
      "implicit-deny",
    ],
    [
      "client writes a result",
      client,
      { action: "s3:PutObject", resource: "arn:aws:s3:::results/runs/r1/phases/2-a/client-0/result.json" },
      "allowed",
    ],
    [
      "client writes under another run",
      client,
      { action: "s3:PutObject", resource: "arn:aws:s3:::results/runs/r2/x" },
      "implicit-deny",
    ],
    [
      "client reads its kit",
      client,
      { action: "s3:GetObject", resource: `arn:aws:s3:::results/kits/${"a".repeat(64)}.tar.gz` },
      "allowed",
    ],
    [
      "client reads another kit",
      client,
      { action: "s3:GetObject", resource: `arn:aws:s3:::results/kits/${"b".repeat(64)}.tar.gz` },
      "implicit-deny",
    ],
    [
      "node writes the ready marker",
      node,
      { action: "s3:PutObject", resource: "arn:aws:s3:::results/runs/r1/cluster/ready.json" },
      "allowed",
    ],
    [
      "node writes its status",
      node,
      { action: "s3:PutObject", resource: "arn:aws:s3:::results/runs/r1/status/node-3.json" },
      "allowed",
    ],
    [
      "node writes a client's status",
      node,
      { action: "s3:PutObject", resource: "arn:aws:s3:::results/runs/r1/status/client-0.json" },
      "implicit-deny",
    ],
    [
      "node mirrors an engine download for its run",
      node,
      {
        action: "s3:PutObject",
        resource: `arn:aws:s3:::results/artifacts/r1/${"c".repeat(128)}/apache-cassandra-5.0.4-bin.tar.gz`,
      },
      "allowed",
    ],
    [
      "node writes another run's mirror",
      node,
      {
        action: "s3:PutObject",
        resource: `arn:aws:s3:::results/artifacts/r2/${"c".repeat(128)}/apache-cassandra-5.0.4-bin.tar.gz`,
      },
      "implicit-deny",
    ],
    [
      "node lists its run's cluster objects (a missing marker answers 404)",
      node,
      {
        action: "s3:ListBucket",
        resource: "arn:aws:s3:::results",
        context: { "s3:prefix": "runs/r1/cluster/ready.json" },
      },
      "allowed",
    ],
    [
      "node lists its run's mirror",
      node,
      {
        action: "s3:ListBucket",
        resource: "arn:aws:s3:::results",
        context: { "s3:prefix": `artifacts/r1/${"c".repeat(128)}/x.tar.gz` },
      },
      "allowed",
    ],
    [
      "node lists the run's results",
      node,
      { action: "s3:ListBucket", resource: "arn:aws:s3:::results", context: { "s3:prefix": "runs/r1/phases/" } },
      "implicit-deny",
    ],
    [
      "client 1 writes its own result",
      client1,
      { action: "s3:PutObject", resource: "arn:aws:s3:::results/runs/r1/phases/2-a/client-1/result.json" },
      "allowed",
    ],
    [
      "client 1 writes client 0's result",
      client1,
      { action: "s3:PutObject", resource: "arn:aws:s3:::results/runs/r1/phases/2-a/client-0/result.json" },
      "implicit-deny",
    ],
    [
      "client 1 writes client 10's barrier",
      client1,
      { action: "s3:PutObject", resource: "arn:aws:s3:::results/runs/r1/barriers/3-a/client-10.json" },
      "implicit-deny",
    ],
    [
      "client 1 rewrites plan.json",
      client1,
      { action: "s3:PutObject", resource: "arn:aws:s3:::results/runs/r1/plan.json" },
      "implicit-deny",
    ],
    [
      "client 0 rewrites cluster.json",
      client,
      { action: "s3:PutObject", resource: "arn:aws:s3:::results/runs/r1/cluster.json" },
      "implicit-deny",
    ],
    [
      "client 0 forges the leader's ready marker",
      client,
      { action: "s3:PutObject", resource: "arn:aws:s3:::results/runs/r1/cluster/ready.json" },
      "implicit-deny",
    ],
    [
      "client 0 asks the nodes for a reset",
      client,
      { action: "s3:PutObject", resource: "arn:aws:s3:::results/runs/r1/cluster/command.json" },
      "allowed",
    ],
    [
      "client 1 asks the nodes for a reset",
      client1,
      { action: "s3:PutObject", resource: "arn:aws:s3:::results/runs/r1/cluster/command.json" },
      "implicit-deny",
    ],
    [
      "client 0 writes the manifest",
      client,
      { action: "s3:PutObject", resource: "arn:aws:s3:::results/runs/r1/manifest.json" },
      "allowed",
    ],
    [
      "client 1 writes its status",
      client1,
      { action: "s3:PutObject", resource: "arn:aws:s3:::results/runs/r1/status/client-1.json" },
      "allowed",
    ],
    [
      "client 1 writes a node's status",
      client1,
      { action: "s3:PutObject", resource: "arn:aws:s3:::results/runs/r1/status/node-0.json" },
      "implicit-deny",
    ],
    [
      "node writes a result",
      node,
      { action: "s3:PutObject", resource: "arn:aws:s3:::results/runs/r1/phases/2-a/client-0/result.json" },
      "implicit-deny",
    ],
    [
      "node reads its run's secret",
      node,
      {
        action: "ssm:GetParameter",
        resource: "arn:aws:ssm:us-east-1:123456789012:parameter/ycsb-lab/r1/admin-password",
      },
      "allowed",
    ],
    [
      "node reads another run's secret",
      node,
      {
        action: "ssm:GetParameter",
        resource: "arn:aws:ssm:us-east-1:123456789012:parameter/ycsb-lab/r2/admin-password",
      },
      "implicit-deny",
    ],
  ] as const)("%s: %s", (_, policy, request, decision) => {
    expect(evaluatePolicy(policy, request)).toBe(decision);
  });

  it("an explicit Deny wins, actions match case-insensitively, an unmodelled condition operator throws", () => {
    const p = {
      Version: "2012-10-17" as const,
      Statement: [
        { Sid: "a", Effect: "Allow" as const, Action: ["s3:*"], Resource: ["*"] },
        { Sid: "d", Effect: "Deny" as const, Action: ["S3:PutObject"], Resource: ["arn:aws:s3:::b/secret/*"] },
      ],
    };
    expect(evaluatePolicy(p, { action: "s3:putobject", resource: "arn:aws:s3:::b/secret/x" })).toBe("denied");
    expect(evaluatePolicy(p, { action: "s3:GetObject", resource: "arn:aws:s3:::b/secret/x" })).toBe("allowed");
    const odd = {
      Version: "2012-10-17" as const,
      Statement: [
        {
          Sid: "x",
          Effect: "Allow" as const,
          Action: ["s3:*"],
          Resource: ["*"],
          Condition: { IpAddress: { "aws:SourceIp": ["1.2.3.4"] } },
        },
      ],
    };
    expect(() => evaluatePolicy(odd, { action: "s3:GetObject", resource: "x" })).toThrow(/IpAddress is not modelled/);
  });

  it("maps the calls the SDK makes to IAM requests", () => {
    const base = { region: "us-east-1", account: "123456789012" };
    expect(
      iamRequestOf({ ...base, method: "GET", path: "/results", query: { "list-type": "2", prefix: "runs/r1/" } }),
    ).toEqual({ action: "s3:ListBucket", resource: "arn:aws:s3:::results", context: { "s3:prefix": "runs/r1/" } });
    expect(iamRequestOf({ ...base, method: "PUT", path: "/results/runs/r1/status/client-0.json", query: {} })).toEqual({
      action: "s3:PutObject",
      resource: "arn:aws:s3:::results/runs/r1/status/client-0.json",
    });
    expect(
      iamRequestOf({
        ...base,
        method: "POST",
        path: "/",
        query: {},
        target: "AmazonSSM.GetParameter",
        body: '{"Name":"/ycsb-lab/r1/admin-password"}',
      }),
    ).toEqual({
      action: "ssm:GetParameter",
      resource: "arn:aws:ssm:us-east-1:123456789012:parameter/ycsb-lab/r1/admin-password",
    });
  });
});

describe("the boot command's environment", () => {
  it("refuses a rehearsal's swaps on an instance (without YCSB_LAB_REHEARSAL=1)", () => {
    expect(() => bootEnvironment({ YCSB_LAB_ENGINE_ARTIFACTS: "/tmp/x" })).toThrow(
      /YCSB_LAB_ENGINE_ARTIFACTS: rehearsal settings, refused/,
    );
    expect(() => bootEnvironment({ YCSB_LAB_REHEARSAL: "1", YCSB_LAB_ADDRESS_MAP: "10.0.0.1=10.0.0.2" })).toThrow(
      /loopback/,
    );
    expect(bootEnvironment({}).home).toBe("/opt/ycsb-lab");
  });
  it("maps addresses and mount points, and names every swap", () => {
    const env = bootEnvironment({
      YCSB_LAB_REHEARSAL: "1",
      YCSB_LAB_HOME: "/r/n0",
      YCSB_LAB_ADDRESS_MAP: "10.42.1.10=127.0.12.1",
      YCSB_LAB_FS_ROOT: "/r/n0/fs",
      YCSB_LAB_MAX_HEAP_MB: "512",
    });
    expect(hostAddress(env, "10.42.1.10")).toBe("127.0.12.1");
    expect(hostAddress(env, "10.42.1.11")).toBe("10.42.1.11");
    expect(hostPath(env, "/data")).toBe("/r/n0/fs/data");
    expect(rehearsalNotes(env).join("\n")).toMatch(
      /addresses: 10\.42\.1\.10 -> 127\.0\.12\.1[\s\S]*volumes[\s\S]*512 MiB/,
    );
  });
  it("reads the run URL the user-data gives", () => {
    expect(parseRunUrl("s3://results/runs/quickstart-1/")).toEqual({ root: "s3://results", runId: "quickstart-1" });
    expect(parseRunUrl("s3://results/lab/2026/runs/r1")).toEqual({ root: "s3://results/lab/2026", runId: "r1" });
    expect(() => parseRunUrl("s3://results/r1/")).toThrow(/--run: expected/);
  });
});

describe("engine runtime: Cassandra as the boot command starts it", () => {
  const description: ClusterDescription = {
    descriptionVersion: 1,
    runId: "r1",
    scenario: "quickstart",
    engine: "cassandra",
    version: "5.0.4",
    preset: "balanced",
    loadPreset: "balanced",
    replication: 3,
    recordCount: 1000,
    fieldCount: 10,
    serverSettings: { write_request_timeout: "100000ms" },
    region: "us-east-1",
    bucket: "results",
    parameterPath: "/ycsb-lab/r1/",
    nodes: [0, 1, 2, 3].map((index) => ({
      index,
      address: `10.42.1.${10 + index}`,
      instanceType: "m6i.large",
      memoryGiB: 8,
      vcpus: 2,
    })),
    clients: [{ index: 0, address: "10.42.2.10", instanceType: "c6i.large" }],
    storage: { data: { kind: "ebs", device: "sdf" }, dataDir: "/data", log: { device: "sdg" }, logDir: "/log" },
    kit: { sha256: "a".repeat(64), version: "0.1.0" },
    lifetime: { expiry: "2026-12-31" },
  };
  const paths = { install: "/opt/y/engine", conf: "/opt/y/conf", data: "/data", log: "/log", run: "/opt/y/run" };
  it("is a valid cluster description, and one that is not names its field", () => {
    expect(clusterDescriptionProblems(description)).toEqual([]);
    expect(clusterDescriptionProblems({ ...description, replication: 5 }).map((p) => p.path)).toEqual(["/replication"]);
    expect(clusterDescriptionProblems({ ...description, nodes: [description.nodes[1]!] }).map((p) => p.path)).toContain(
      "/nodes/0/index",
    );
  });
  it("renders cassandra.yaml per node (a YAML parser reads it), the commitlog on the log volume, study settings kept", () => {
    const ctx = nodeContextOf(description, 1, paths);
    const runtime = cassandraRuntime();
    const yaml = parseYaml(runtime.files(ctx, paths).find((f) => f.path.endsWith("cassandra.yaml"))!.content);
    expect(yaml).toMatchObject({
      listen_address: "10.42.1.11",
      commitlog_directory: "/log/cassandra/commitlog",
      commitlog_sync: "periodic",
      write_request_timeout: "100000ms",
    });
    expect(yaml.seed_provider[0].parameters[0].seeds).toBe("10.42.1.10,10.42.1.11,10.42.1.12");
    // A new ring: this node's tokens up front, nothing to stream, so it joins without waiting for the others.
    expect(yaml).toMatchObject({
      auto_bootstrap: false,
      num_tokens: 16,
      initial_token: initialTokens(4, 16, 1).join(","),
    });
    expect(yaml.allocate_tokens_for_local_replication_factor).toBeUndefined();
    const [proc] = runtime.processes(ctx, paths) as ProcessSpec[];
    // cassandra-env.sh's heap for 8 GiB, the jamm agent resolved at start; a seed waits for nobody.
    expect(proc!.argv).toContain("-Xmx2048m");
    expect(proc!.argv).toContain("-javaagent:${glob:/opt/y/engine/cassandra/lib/jamm-*.jar}");
    expect(proc!.after).toBeUndefined();
    // A node that is not a seed starts as soon as the first seed gossips.
    expect((runtime.processes(nodeContextOf(description, 3, paths), paths)[0] as ProcessSpec).after).toEqual([
      { host: "10.42.1.10", port: 7000, what: "the first seed to gossip" },
    ]);
    expect((cassandraRuntime({ maxHeapMb: 768 }).processes(ctx, paths)[0] as ProcessSpec).argv).toContain("-Xmx768m");
  });
});

describe("Cassandra tokens chosen up front (parallel joins)", () => {
  it.each([1, 3, 32])("%i nodes x 16 vnodes: distinct tokens, every node owns exactly 1/N of the ring", (nodes) => {
    const all = Array.from({ length: nodes }, (_, i) =>
      initialTokens(nodes, 16, i).map((t) => ({ t: BigInt(t), node: i })),
    );
    const ring = all.flat().sort((a, b) => (a.t < b.t ? -1 : 1));
    expect(new Set(ring.map((r) => r.t)).size).toBe(nodes * 16);
    const owned = new Array<bigint>(nodes).fill(0n);
    // A token owns the range from the previous token (exclusive) up to itself; the first wraps around.
    ring.forEach((r, k) => {
      const prev = k === 0 ? ring[ring.length - 1]!.t - (1n << 64n) : ring[k - 1]!.t;
      owned[r.node]! += r.t - prev;
    });
    // Integer division rounds each of a node's 16 ranges by at most one token: a share off by 16 in 2^64 at most.
    const share = (1n << 64n) / BigInt(nodes);
    for (const o of owned) expect(o - share <= 16n && share - o <= 16n).toBe(true);
    expect(ring[0]!.t).toBe(-(1n << 63n));
  });
});

describe("small pieces of the boot path", () => {
  it("resolves a jar glob to the one file, and refuses none or several", () => {
    const dir = mkdtempSync(join(tmpdir(), "glob-"));
    writeFileSync(join(dir, "jamm-0.4.0.jar"), "");
    expect(resolveGlobs(`-javaagent:\${glob:${dir}/jamm-*.jar}`)).toBe(`-javaagent:${dir}/jamm-0.4.0.jar`);
    writeFileSync(join(dir, "jamm-0.5.0.jar"), "");
    expect(() => resolveGlobs(`\${glob:${dir}/jamm-*.jar}`)).toThrow(
      /expected one matching file, found jamm-0\.4\.0\.jar, jamm-0\.5\.0\.jar/,
    );
    expect(() => resolveGlobs(`\${glob:${dir}/nothing-*.jar}`)).toThrow(/found none/);
  });
  it("reads both layouts of Apache's .sha512 files", () => {
    const hex = "ab".repeat(64);
    expect(parseSha512File(`${hex}  apache-cassandra-5.0.4-bin.tar.gz\n`)).toBe(hex);
    expect(parseSha512File(`hbase-2.5.11-bin.tar.gz: ${hex.toUpperCase().match(/.{8}/g)!.join(" ")}\n`)).toBe(hex);
    expect(() => parseSha512File("404 Not Found")).toThrow(/no SHA-512/);
  });
  it("shows the fleet at a glance, data nodes first, missing instances named", () => {
    const now = Date.parse("2026-11-23T12:00:00Z");
    const lines = renderFleetStatus(
      [
        {
          instance: "client-0",
          role: "client",
          index: 0,
          stage: "running",
          at: "2026-11-23T11:59:30Z",
          phase: { position: 3, of: 4, name: "a" },
          detail: "workload",
        },
        {
          instance: "node-0",
          role: "data",
          index: 0,
          stage: "failed",
          at: "2026-11-23T11:50:00Z",
          detail: "cassandra exited with code 1",
          logTail: true,
        },
      ],
      now,
      { nodes: 2, clients: 1 },
    );
    expect(lines[1]).toMatch(/^node-0\s+failed\s+10m\s+cassandra exited with code 1$/);
    expect(lines[2]).toMatch(/^node-1\s+no status/);
    expect(lines[3]).toMatch(/^client-0\s+running 3\/4\s+30s\s+a \(workload\)$/);
  });
  it("marks an instance whose heartbeat stopped, and says whom a client waits for at a barrier", () => {
    const now = Date.parse("2026-11-23T12:00:00Z");
    const lines = renderFleetStatus(
      [
        {
          instance: "node-0",
          role: "data",
          index: 0,
          stage: "ready",
          at: "2026-11-23T11:00:00Z",
          heartbeatAt: "2026-11-23T11:58:00Z",
        },
        {
          instance: "client-0",
          role: "client",
          index: 0,
          stage: "running",
          at: "2026-11-23T11:59:00Z",
          heartbeatAt: "2026-11-23T11:59:50Z",
          phase: { position: 4, of: 5, name: "b" },
          detail: "at the barrier before phase 4 (b): waiting 60 s for client(s) 1",
        },
      ],
      now,
    );
    expect(lines[1]).toMatch(/^node-0\s+ready\s+60m\s+SILENT for 120 s \(no heartbeat\): its machine may be gone/);
    expect(lines[2]).toMatch(/b \(at the barrier before phase 4 \(b\): waiting 60 s for client\(s\) 1\)$/);
  });
  it("writes a tar that GNU tar unpacks, byte-for-byte the same for the same files in any order", () => {
    const files = [
      { path: "bin/ycsb-lab.mjs", data: Buffer.from("console.log(1)\n"), executable: true },
      { path: `java/${"x".repeat(120)}/long-name.jar`, data: Buffer.alloc(1500, 7) },
      { path: "kit.json", data: Buffer.from("{}\n") },
    ];
    const a = tarArchive(files);
    const b = tarArchive([...files].reverse());
    expect(createHash("sha256").update(a).digest("hex")).toBe(createHash("sha256").update(b).digest("hex"));
    const dir = mkdtempSync(join(tmpdir(), "tar-"));
    writeFileSync(join(dir, "k.tar.gz"), gzipSync(a));
    mkdirSync(join(dir, "out"));
    execFileSync("tar", ["-xzf", join(dir, "k.tar.gz"), "-C", join(dir, "out")]);
    expect(readFileSync(join(dir, "out", "java", "x".repeat(120), "long-name.jar"))).toEqual(Buffer.alloc(1500, 7));
    expect(
      execFileSync("stat", ["-c", "%a", join(dir, "out", "bin", "ycsb-lab.mjs")], { encoding: "utf8" }).trim(),
    ).toBe("755");
    expect(gunzipSync(gzipSync(a)).length % 512).toBe(0);
  });
});

describe("OS tuning per engine and version (seed 002 appendix C, vendors' current advice)", () => {
  it("MongoDB 8 gets transparent huge pages as its manual asks; 7.x and every other engine keep them off", () => {
    const writes = (engine: "mongodb" | "cassandra", version: string) =>
      Object.fromEntries(
        tuningSteps(osTuning(engine, version)).flatMap((s) =>
          s.kind === "write" ? [[s.path, s.value]] : s.kind === "sysctl" ? [[s.key, s.value]] : [],
        ),
      );
    expect(writes("mongodb", "8.0")).toMatchObject({
      "/sys/kernel/mm/transparent_hugepage/enabled": "always",
      "/sys/kernel/mm/transparent_hugepage/defrag": "defer+madvise",
      "/sys/kernel/mm/transparent_hugepage/khugepaged/max_ptes_none": "0",
      "vm.overcommit_memory": "1",
    });
    expect(writes("mongodb", "7.0")).toMatchObject({
      "/sys/kernel/mm/transparent_hugepage/enabled": "never",
      "/sys/kernel/mm/transparent_hugepage/defrag": "never",
    });
    expect(writes("mongodb", "7.0")["vm.overcommit_memory"]).toBeUndefined();
    expect(writes("cassandra", "5.0.4")["/sys/kernel/mm/transparent_hugepage/enabled"]).toBe("never");
  });
});
