import { describe, expect, test } from "vitest";
import { SCENARIOS, checkScenario, resolveDeployment, scenario, scenarioPresets, largestFittingScale, YCSB_MAX_COUNT, type ScenarioSpec } from "../model/index.js";

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
  ])("datastax-2013 at %i nodes: %i clients, %i records, %i threads per client (seed 001 table)", (nodes, clients, records, threads) => {
    const d = resolveDeployment(scenario("datastax-2013"), { nodes });
    expect(d).toMatchObject({ clients, recordCount: records, threadsPerClient: threads });
  });

  test("endpoint-2015 loads with 40 threads per client and the non-durable preset, then runs durable (seed 000)", () => {
    const d = resolveDeployment(scenario("endpoint-2015"), { nodes: 4, engine: "couchbase" });
    expect(d).toMatchObject({ clients: 4, threadsPerClient: 256, loadThreadsPerClient: 40, preset: "durable", loadPreset: "throughput" });
    expect(d.recordCount).toBe(2_000_000_000);
  });

  test("a data set YCSB 0.17.0 cannot count is refused before anything runs, naming the scale that fits", () => {
    // Seed 000's 500M records per node: 4 billion at 8 nodes, past YCSB's 32-bit counts (model/ycsb-limits.ts).
    expect(() => resolveDeployment(scenario("endpoint-2015"), { nodes: 8 })).toThrow(/scale: .*4,000,000,000 records exceed YCSB 0\.17\.0's 2,147,483,647.*use scale 0\.53 or less/);
    expect(() => resolveDeployment(scenario("endpoint-2015"), { nodes: 32, scale: 0.14 })).toThrow(/use scale 0\.13 or less/);
    expect(resolveDeployment(scenario("endpoint-2015"), { nodes: 8, scale: 0.53 }).recordCount).toBe(2_120_000_000);
    expect(resolveDeployment(scenario("endpoint-2015"), { nodes: 32, scale: 0.13 }).recordCount).toBe(2_080_000_000);
    expect(largestFittingScale(YCSB_MAX_COUNT)).toBe(1);
    expect(largestFittingScale(YCSB_MAX_COUNT + 1)).toBe(0.99);
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
    const bad = { ...spec, name: "Bad Name", engines: ["cassandra", "oracle"], workloads: [{ workload: "zz" }], repeats: 0 } as unknown as ScenarioSpec;
    const fields = checkScenario(bad).map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(["name", "engines", "workloads[0].workload", "repeats"]));
  });
});

describe("the presets a scenario runs an engine under", () => {
  test("quickstart runs every engine under all three presets; a one-preset study under its one", () => {
    for (const engine of scenario("quickstart").engines) expect(scenarioPresets(scenario("quickstart"), engine)).toEqual(["throughput", "balanced", "durable"]);
    expect(scenarioPresets(scenario("datastax-2013"), "cassandra")).toEqual(["balanced"]);
  });
  test("a study's own presets for an engine come first, and a preset the engine lacks is left out", () => {
    const spec = { ...scenario("quickstart"), enginePresets: { mongodb: { presets: ["durable"], source: "test" } } } as ScenarioSpec;
    expect(scenarioPresets(spec, "mongodb")).toEqual(["durable"]);
    expect(scenarioPresets(spec, "cassandra")).toEqual(["throughput", "balanced", "durable"]);
  });
});
