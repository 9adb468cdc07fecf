import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { renderCassandraYaml } from "../../engines/cassandra/config.js";
import { cassandraSchemaCql, cassandraYaml } from "../../engines/cassandra/formation.js";
import { cassandraSchemaStatements } from "../../engines/cassandra/schema.js";
import { usertableSpec } from "../../engines/hbase/cluster-config.js";
import { hbaseTableSpec, hexStringSplitPoints } from "../../engines/hbase/schema.js";
import type { NodeContext } from "../../engines/node-context.js";
import {
  resolveDeployment,
  SCENARIOS,
  ScenarioError,
  STUDY_PRINTED,
  scenario,
  scenarioField,
} from "../../model/index.js";
import { schemaToolArgs } from "../../runner/boot/formation/hbase.js";

/** Each scenario runs its engines as its study did: presets per engine, the study's own server values, its pre-split. */
const ctx = (over: Partial<NodeContext>): NodeContext => ({
  engine: "cassandra",
  version: "5.0.4",
  preset: "durable",
  loadPreset: "durable",
  nodeIps: ["10.0.1.10"],
  index: 0,
  replication: 1,
  recordCount: 1000,
  fieldCount: 10,
  runId: "r",
  region: "us-east-1",
  readyMarkerUrl: "s3://b/ready",
  adminPasswordParameter: "/p",
  memoryGiB: 32,
  vcpus: 4,
  dataDir: "/data",
  mongoTopology: "sharded",
  serverSettings: {},
  ...over,
});

describe("presets follow the studies", () => {
  it("seed 002: Cassandra without its commit log and Couchbase on defaults (throughput), MongoDB on defaults (balanced)", () => {
    const spec = scenario("lineate-2014");
    expect(resolveDeployment(spec, { engine: "cassandra" }).preset).toBe("throughput");
    expect(resolveDeployment(spec, { engine: "couchbase" }).preset).toBe("throughput");
    expect(resolveDeployment(spec, { engine: "mongodb" }).preset).toBe("balanced");
    expect(() => resolveDeployment(spec, { engine: "cassandra", preset: "balanced" })).toThrow(
      /line 443: "Disable the commit log\."/,
    );
  });

  it("seed 004: Couchbase has no balanced cell ('no equivalent option')", () => {
    const spec = scenario("usa-2015-durability");
    expect(() => resolveDeployment(spec, { engine: "couchbase", preset: "balanced" })).toThrow(ScenarioError);
    expect(() => resolveDeployment(spec, { engine: "couchbase", preset: "balanced" })).toThrow(
      /No equivalent option available/,
    );
    expect(resolveDeployment(spec, { engine: "couchbase", preset: "durable" }).preset).toBe("durable");
    expect(resolveDeployment(spec, { engine: "cassandra", preset: "balanced" }).preset).toBe("balanced");
  });

  it("seed 004: LeveledCompactionStrategy for Cassandra's throughput table, a 10 ms commitlog window when durable", () => {
    const spec = scenario("usa-2015-durability");
    const throughput = resolveDeployment(spec, { engine: "cassandra", preset: "throughput" });
    expect(throughput.study).toEqual({ cassandra: { tableCompaction: "LeveledCompactionStrategy" } });
    const table = cassandraSchemaCql(ctx({ preset: "throughput", study: throughput.study }));
    expect(table).toContain("durable_writes = false");
    expect(table).toContain(
      "WITH compression = {'enabled': 'false'} AND compaction = {'class': 'LeveledCompactionStrategy'};",
    );
    const durable = resolveDeployment(spec, { engine: "cassandra", preset: "durable" });
    const yaml = cassandraYaml(ctx({ preset: "durable", study: durable.study }));
    expect(yaml).toContain("commitlog_sync: group\ncommitlog_sync_group_window: 10ms\n");
    // The catalogue's durable preset, for scenarios without a window of their own: 5.0's batch.
    expect(cassandraSchemaStatements({ preset: "throughput", replicationFactor: 1 })[2]).not.toContain("compaction");
    expect(
      renderCassandraYaml({
        clusterName: "c",
        seeds: ["127.0.0.1"],
        listenAddress: "127.0.0.1",
        rpcAddress: "127.0.0.1",
        dataDir: "/d",
        commitlogDir: "/c",
        hintsDir: "/h",
        savedCachesDir: "/s",
        preset: "durable",
      }),
    ).toContain("commitlog_sync: batch\n");
  });

  it("seed 000: durable with its 2 ms window, the load non-durable", () => {
    const d = resolveDeployment(scenario("endpoint-2015"), { engine: "cassandra", nodes: 4 });
    expect(d).toMatchObject({
      preset: "durable",
      loadPreset: "throughput",
      study: { cassandra: { commitlogSync: "group", commitlogSyncGroupWindowMs: 2 } },
    });
    expect(cassandraYaml(ctx({ study: d.study }))).toContain("commitlog_sync_group_window: 2ms");
  });

  it("seed 001: HBase pre-split as printed, NUMREGIONS => node count with HexStringSplit; one node unsplit", () => {
    const d = resolveDeployment(scenario("datastax-2013"), { engine: "hbase", nodes: 4 });
    expect(d.study).toEqual({ hbaseSplit: { algorithm: "HexStringSplit", regionsPerNode: 1 } });
    // HBase's RegionSplitter.HexStringSplit over 00000000..ffffffff in 4 regions.
    expect(hexStringSplitPoints(4)).toEqual(["3fffffff", "7fffffff", "bfffffff"]);
    expect(hbaseTableSpec({ preset: "balanced", nodes: 1, splitAlgorithm: "HexStringSplit" }).splits).toEqual([]);
    const table = usertableSpec(
      ctx({
        engine: "hbase",
        preset: "balanced",
        nodeIps: ["10.0.1.10", "10.0.1.11", "10.0.1.12", "10.0.1.13"],
        study: d.study,
      }),
    );
    expect(table.splits).toEqual(["3fffffff", "7fffffff", "bfffffff"]);
    // What the leader's schema tool is asked to create (runner/boot/formation/hbase.ts).
    const args = schemaToolArgs({
      bindingDir: "/kit/java/bindings/hbase",
      quorum: "10.0.1.10",
      servers: 4,
      timeoutSec: 60,
      table,
    });
    expect(args.filter((_, i) => args[i - 1] === "--split")).toEqual(["3fffffff", "7fffffff", "bfffffff"]);
  });
});

describe("docs/runner.md's scenario table", () => {
  it("states every departure of every seed's scenario, with its why, in that scenario's row", async () => {
    const { readFileSync } = await import("node:fs");
    const { SCENARIOS } = await import("../../model/scenarios.js");
    const readme = readFileSync(new URL("../../docs/runner.md", import.meta.url), "utf8");
    let rows = 0;
    for (const s of Object.values(SCENARIOS)) {
      const seed = (s.sources as readonly { seed?: string }[]).find((x) => x.seed)?.seed;
      if (!seed) continue;
      expect((s.departures as readonly unknown[]).length, s.name).toBeGreaterThan(0);
      for (const d of s.departures as readonly { what: string; why: string }[]) {
        expect(readme, `${s.name}: ${d.what}`).toContain(`| ${s.name} (${seed}) | ${d.what} | ${d.why} |`);
        // Each row stands on the paper's line it departs from.
        expect(d.what, `${s.name}: ${d.what}`).toMatch(/\blines? \d+|\bappendix [A-C]\b/);
        rows++;
      }
    }
    expect(readme.match(/^\| [a-z0-9-]+ \(\d{3}\) \|/gm)).toHaveLength(rows);
  });

  it("every scenario field that differs from what its paper printed has a departure naming it (model/study-printed.ts)", () => {
    let differing = 0;
    for (const [name, printed] of Object.entries(STUDY_PRINTED)) {
      const spec = scenario(name);
      const named = (spec.departures ?? []).flatMap((d) => d.fields ?? []);
      for (const p of printed) {
        const value = scenarioField(spec, p.field);
        if (isDeepStrictEqual(value, p.printed)) continue;
        differing++;
        expect(
          named,
          `${name}: ${p.field} is ${JSON.stringify(value)}, the paper printed ${JSON.stringify(p.printed)} (${p.line})`,
        ).toContain(p.field);
      }
      // A departure names only fields the paper printed otherwise.
      for (const field of named) {
        const p = printed.find((x) => x.field === field);
        expect(
          p,
          `${name}: departure names ${field}, which model/study-printed.ts has no printed value for`,
        ).toBeDefined();
        expect(isDeepStrictEqual(scenarioField(spec, field), p!.printed), `${name}: ${field} is as printed`).toBe(
          false,
        );
      }
    }
    // Every seeded scenario is transcribed; instance types, windows and caps differ today.
    const seeded = Object.values(SCENARIOS)
      .filter((s) => (s.sources as readonly { seed?: string }[]).some((x) => x.seed))
      .map((s) => s.name);
    expect(Object.keys(STUDY_PRINTED).sort()).toEqual([...seeded].sort());
    expect(differing).toBeGreaterThanOrEqual(12);
  });

  it("a scenario value that differs from its paper without a departure is caught", () => {
    const spec = { ...scenario("usa-2015-durability"), departures: [] };
    const cap = STUDY_PRINTED["usa-2015-durability"]!.find((p) => p.field === "workloads.a.maxExecutionTimeSec")!;
    expect(scenarioField(spec, cap.field)).toBe(900);
    expect(isDeepStrictEqual(scenarioField(spec, cap.field), cap.printed)).toBe(false);
    expect(scenarioField(scenario("datastax-2013"), "workloads.write-scan.maxExecutionTimeSec")).toBe(3600);
    expect(scenarioField(scenario("datastax-2013"), "workloads.nope.maxExecutionTimeSec")).toBeUndefined();
  });
});
