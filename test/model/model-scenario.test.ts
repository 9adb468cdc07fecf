import { describe, expect, test } from "vitest";
import {
  buildPlan,
  checkScenario,
  resolveDeployment,
  SCENARIOS,
  type ScenarioSpec,
  scenario,
  scenarioPresets,
  YCSB_MAX_COUNT,
} from "../../model/index.js";

describe("built-in scenarios", () => {
  test.each(Object.keys(SCENARIOS))("%s passes its own checks and resolves its default deployment", (name) => {
    const spec = scenario(name);
    expect(checkScenario(spec)).toEqual([]);
    const d = resolveDeployment(spec);
    expect(d.clients).toBeGreaterThanOrEqual(1);
    expect(d.recordCount).toBeGreaterThan(0);
  });

  // Seed 001, "Testing Parameters": nodes -> client nodes, total records, threads per client.
  test.each([
    [1, 1, 15_000_000, 128],
    [2, 1, 30_000_000, 256],
    [4, 2, 60_000_000, 256],
    [8, 3, 120_000_000, 341],
    [16, 6, 240_000_000, 341],
    [32, 11, 480_000_000, 372],
  ])(
    "datastax-2013 at %i nodes: %i clients, %i records, %i threads per client (seed 001 table)",
    (nodes, clients, records, threads) => {
      const d = resolveDeployment(scenario("datastax-2013"), { nodes });
      expect(d).toMatchObject({ clients, recordCount: records, threadsPerClient: threads });
    },
  );

  test("endpoint-2015 loads with 40 threads per client and the non-durable preset, then runs durable (seed 000)", () => {
    const d = resolveDeployment(scenario("endpoint-2015"), { nodes: 4, engine: "cassandra" });
    expect(d).toMatchObject({
      clients: 4,
      threadsPerClient: 256,
      loadThreadsPerClient: 40,
      preset: "durable",
      loadPreset: "throughput",
    });
    expect(d.recordCount).toBe(2_000_000_000);
    expect(d.presetNote).toBeUndefined();
  });

  test("endpoint-2015's other engines run the settings seed 000 printed for them (none: their defaults)", () => {
    const presets = Object.fromEntries(
      (["cassandra", "hbase", "mongodb", "couchbase"] as const).map((e) => [
        e,
        resolveDeployment(scenario("endpoint-2015"), { engine: e }).preset,
      ]),
    );
    expect(presets).toEqual({ cassandra: "durable", hbase: "balanced", mongodb: "balanced", couchbase: "throughput" });
    // Durable is still on offer for them, and every phase of such a run says the paper never set it.
    const d = resolveDeployment(scenario("endpoint-2015"), { engine: "hbase", preset: "durable" });
    expect(d.presetNote).toMatch(
      /^endpoint-2015 ran hbase with balanced, not durable: durable is ycsb-lab's choice here \(seed 000 lines 562-626/,
    );
    const plan = buildPlan(scenario("endpoint-2015"), { engine: "hbase", preset: "durable", nodes: 2 });
    expect(
      plan.phases
        .filter((p) => p.kind === "workload" || p.kind === "load")
        .every((p) => p.properties["ycsblab.presetNote"] === d.presetNote),
    ).toBe(true);
    expect(
      buildPlan(scenario("endpoint-2015"), { engine: "hbase", nodes: 2 }).phases.some(
        (p) => p.properties["ycsblab.presetNote"],
      ),
    ).toBe(false);
    expect(() => resolveDeployment(scenario("endpoint-2015"), { engine: "cassandra", preset: "balanced" })).toThrow(
      /ran cassandra with durable only/,
    );
  });

  test("seed 001's MongoDB loads 32 nodes with 20 threads per client (line 154); other cells keep 128 per data node", () => {
    expect(resolveDeployment(scenario("datastax-2013"), { engine: "mongodb", nodes: 32 }).loadThreadsPerClient).toBe(
      20,
    );
    expect(resolveDeployment(scenario("datastax-2013"), { engine: "mongodb", nodes: 16 }).loadThreadsPerClient).toBe(
      341,
    );
    expect(resolveDeployment(scenario("datastax-2013"), { engine: "cassandra", nodes: 32 }).loadThreadsPerClient).toBe(
      372,
    );
  });

  test("seed 000 runs 500 million records per node at every size, 16 billion at 32 nodes (no 2^31 refusal)", () => {
    for (const nodes of [8, 16, 32]) {
      const plan = buildPlan(scenario("endpoint-2015"), { nodes });
      expect(plan.deployment).toMatchObject({ scale: 1, recordCount: 500_000_000 * nodes });
      const load = plan.phases.find((p) => p.kind === "load")!;
      // Each client loads its own 500M, within the int YCSB's Client reads a load's insertcount as.
      expect(new Set(load.perClient.map((c) => c.insertcount))).toEqual(new Set(["500000000"]));
      expect(Number(load.perClient.at(-1)!.insertstart)).toBe(500_000_000 * (nodes - 1));
    }
  });

  test("every cell of every built-in study plans at scale 1: each engine, each of its presets, each node count", () => {
    const refused: string[] = [];
    let cells = 0;
    for (const spec of Object.values(SCENARIOS)) {
      for (const engine of spec.engines) {
        for (const preset of scenarioPresets(spec, engine)) {
          for (const nodes of spec.nodeCounts) {
            cells++;
            try {
              const { deployment } = buildPlan(spec, { engine, preset, nodes });
              if (deployment.scale !== 1)
                refused.push(`${spec.name} ${engine} ${preset} ${nodes}: scale ${deployment.scale}`);
            } catch (e) {
              refused.push(`${spec.name} ${engine} ${preset} ${nodes}: ${(e as Error).message}`);
            }
          }
        }
      }
    }
    expect(refused).toEqual([]);
    // quickstart's 3 presets on every engine and node count, and every study's cells (seed 000 alone: 4 engines x 6 sizes).
    expect(cells).toBeGreaterThanOrEqual(24);
  });

  test("what YCSB 0.17.0 still counts in ints is refused, naming the field: a client's load share and operation count", () => {
    // One client loading 16 billion records: its insertcount is past 2^31 - 1.
    expect(() => resolveDeployment(scenario("endpoint-2015"), { nodes: 32, clients: 1 })).toThrow(
      /clients: .*insertcount would be 16,000,000,000, past the 2,147,483,647 .*use at least 8 clients/,
    );
    expect(resolveDeployment(scenario("endpoint-2015"), { nodes: 32, clients: 8 }).recordCount).toBe(16_000_000_000);
    const big = {
      ...scenario("quickstart"),
      workloads: [{ workload: "a", operationCount: YCSB_MAX_COUNT + 1 }],
      operationCountPer: "client" as const,
    };
    expect(() => buildPlan(big)).toThrow(/workloads\.a\.operationCount: 2147483648 is past 2147483647/);
    const perClient = {
      ...scenario("quickstart"),
      workloads: [{ workload: "a", operationCount: 2_000_000_000 }],
      operationCountPer: "client" as const,
    };
    expect(buildPlan(perClient).phases.find((p) => p.kind === "workload")!.perClient[0]!.operationcount).toBe(
      "2000000000",
    );
  });

  test("scale makes a cheap trial of the same scenario", () => {
    const d = resolveDeployment(scenario("lineate-2014"), { nodes: 6, scale: 0.001 });
    expect(d.recordCount).toBe(30_000);
    expect(d.replication).toBe(2);
  });
});

describe("bad deployments name the field", () => {
  const spec = scenario("datastax-2013");
  test.each([
    [{ engine: "redis" as never }, /^engine: unknown engine "redis"/],
    [{ engine: "couchbase" as const }, /^engine: scenario "datastax-2013" covers cassandra, hbase, mongodb/],
    [{ nodes: 0 }, /^nodes: must be a whole number >= 1/],
    [{ preset: "fast" as never }, /^preset: unknown preset "fast"/],
    [{ scale: 2 }, /^scale: must be in \(0, 1\]/],
  ])("%o", (choice, message) => {
    expect(() => resolveDeployment(spec, choice)).toThrow(message);
  });

  test("replication above the node count", () => {
    expect(() => resolveDeployment(scenario("lineate-2014"), { nodes: 1 })).toThrow(/^replication: /);
  });

  test("a malformed spec lists every wrong field", () => {
    const bad = {
      ...spec,
      name: "Bad Name",
      engines: ["cassandra", "oracle"],
      workloads: [{ workload: "zz" }],
      repeats: 0,
    } as unknown as ScenarioSpec;
    const fields = checkScenario(bad).map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(["name", "engines", "workloads[0].workload", "repeats"]));
  });
});

describe("the presets a scenario runs an engine under", () => {
  test("quickstart runs every engine under all three presets; a one-preset study under its one", () => {
    for (const engine of scenario("quickstart").engines)
      expect(scenarioPresets(scenario("quickstart"), engine)).toEqual(["throughput", "balanced", "durable"]);
    expect(scenarioPresets(scenario("datastax-2013"), "cassandra")).toEqual(["balanced"]);
  });
  test("a study's own presets for an engine come first, and a preset the engine lacks is left out", () => {
    const spec = {
      ...scenario("quickstart"),
      enginePresets: { mongodb: { presets: ["durable"], source: "test" } },
    } as ScenarioSpec;
    expect(scenarioPresets(spec, "mongodb")).toEqual(["durable"]);
    expect(scenarioPresets(spec, "cassandra")).toEqual(["throughput", "balanced", "durable"]);
  });
});
