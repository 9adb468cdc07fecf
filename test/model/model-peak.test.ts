import { describe, expect, it } from "vitest";
import { type ConfiguredPhase, configurationKey, deploymentIdentity } from "../../model/aggregate/repeats.js";
import {
  overRepeats,
  overRepeatsOf,
  peakLevelOverRepeats,
  publishedRepeats,
  selectPhases,
  worstVerdict,
} from "../../model/aggregate/rules.js";
import { phaseNameWithoutRepeat } from "../../model/plan.js";

describe("a configuration's result over load levels and repeats", () => {
  const at = (repeat: number, threadsPerClient: number, throughputOpsSec: number) => ({
    runId: "r0",
    repeat,
    threadsPerClient,
    clients: 1,
    target: null,
    throughputOpsSec,
  });
  it("takes the mean over repeats at each load level first, then the level of the highest mean", () => {
    const sweep = [1, 2, 4, 8, 16].map((threads, i) => at(0, threads, [900, 1700, 3100, 4200, 3900][i]!));
    const again = [at(1, 8, 4000), at(1, 16, 4400)];
    const { level, throughput } = peakLevelOverRepeats([...sweep, ...again]);
    // 8 threads: (4200 + 4000) / 2 = 4100; 16 threads: (3900 + 4400) / 2 = 4150.
    expect(level.map((p) => [p.repeat, p.threadsPerClient])).toEqual([
      [0, 16],
      [1, 16],
    ]);
    expect(throughput.mean).toBe(4150);
    expect(throughput.n).toBe(2);
  });
  it("seed 003's back-to-back repeats: top levels within noise give the best level's mean, not the mean of each repeat's best", () => {
    // Three repeats at 128, 256 and 512 threads, 1-2 % apart (seed 003 Tables 1-8), the best level differing per repeat.
    const table = { 128: [1000, 1020, 990], 256: [1010, 990, 1015], 512: [995, 1005, 1000] } as const;
    const phases = Object.entries(table).flatMap(([t, values]) => values.map((v, r) => at(r, Number(t), v)));
    const { level, throughput } = peakLevelOverRepeats(phases);
    expect(level.map((p) => p.threadsPerClient)).toEqual([256, 256, 256]);
    expect(throughput.mean).toBeCloseTo(1005, 9);
    // The rule it replaces: each repeat's best (1010, 1020, 1015), averaged, 1015: above every level's mean.
    const bestOfEach = [0, 1, 2].map((r) =>
      Math.max(...phases.filter((p) => p.repeat === r).map((p) => p.throughputOpsSec)),
    );
    expect(overRepeats(bestOfEach).mean).toBe(1015);
    expect(throughput.mean!).toBeLessThan(1015);
  });
  it("a published figure carries the n its study averaged: seeds 000, 001 and 003 printed means of 3 runs", () => {
    expect(["000", "001", "002", "003", "004"].map((s) => publishedRepeats(`published:${s}`))).toEqual([
      3,
      3,
      undefined,
      3,
      undefined,
    ]);
    expect(overRepeatsOf("published:000", [227_292.8])).toEqual({ n: 3, mean: 227_292.8, stdDev: null, ci95: null });
    expect(overRepeatsOf("published:004", [12_000])).toEqual({ n: 1, mean: 12_000, stdDev: null, ci95: null });
    expect(overRepeatsOf("measured", [1000, 3000]).n).toBe(2);
  });
  it("repeats of 1000, 2000 and 3000 ops/s in one run give 2000 with its CI and n = 3, not the best 3000", () => {
    const repeats = [1000, 2000, 3000].map((t, repeat) => at(repeat, 4, t));
    const result = peakLevelOverRepeats(repeats).throughput;
    expect(result.n).toBe(3);
    expect(result.mean).toBe(2000);
    // t(0.975, 2) = 4.303, s = 1000: half-width 4.303 * 1000 / sqrt(3).
    expect(result.ci95!.halfWidth).toBeCloseTo((4.303 * 1000) / Math.sqrt(3), 6);
    expect(result.ci95!.low).toBeLessThan(2000);
  });
  it("keeps the first of equal levels and gives nothing without phases", () => {
    expect(peakLevelOverRepeats([at(0, 1, 5), at(0, 2, 5)]).level).toEqual([at(0, 1, 5)]);
    expect(peakLevelOverRepeats([])).toEqual({ level: [], throughput: { n: 0, mean: null, stdDev: null, ci95: null } });
  });
  it("counts complete phases not judged invalid, and says how many it left out", () => {
    const phases = [
      { id: 1, clientsReported: 2, clients: 2, verdict: "valid" },
      { id: 2, clientsReported: 2, clients: 2, verdict: "warning" },
      { id: 3, clientsReported: 2, clients: 2, verdict: "invalid" },
      { id: 4, clientsReported: 1, clients: 2, verdict: "valid" },
    ];
    expect(selectPhases(phases)).toEqual({ counted: [phases[0], phases[1]], leftOut: { invalid: 1, incomplete: 1 } });
    expect(selectPhases(phases, "all")).toEqual({
      counted: [phases[0], phases[1], phases[2]],
      leftOut: { invalid: 0, incomplete: 1 },
    });
  });
  it("the worst verdict: invalid over warning over valid, none judged is valid", () => {
    expect(worstVerdict([])).toBe("valid");
    expect(worstVerdict([null, "valid", undefined])).toBe("valid");
    expect(worstVerdict(["valid", "warning"])).toBe("warning");
    expect(worstVerdict(["warning", "invalid", "valid"])).toBe("invalid");
  });
});

describe("the deployment identity every aggregate view groups by", () => {
  const run = {
    scenario: "quickstart",
    engine: "cassandra",
    engineVersion: "5.0.4",
    preset: "balanced",
    nodes: 1,
    sourceId: "measured",
    standIn: null,
    dataInstanceType: "m6i.large",
    clientInstanceType: "c6i.large",
  };
  it("holds the stand-in and the machines; a series drops only what it spans", () => {
    const real = deploymentIdentity(run);
    expect(deploymentIdentity({ ...run, standIn: "site.ycsb.BasicDB: no database" })).not.toEqual(real);
    expect(deploymentIdentity({ ...run, dataInstanceType: "local" })).not.toEqual(real);
    const bigger = { ...run, nodes: 3, engineVersion: "5.0.5" };
    // A /scaling series spans sizes and versions; a stand-in or other machines never.
    expect(deploymentIdentity(bigger, ["nodes", "engineVersion"])).toEqual(
      deploymentIdentity(run, ["nodes", "engineVersion"]),
    );
    expect(deploymentIdentity({ ...run, standIn: "FerretDB" }, ["nodes", "engineVersion"])).not.toEqual(
      deploymentIdentity(run, ["nodes", "engineVersion"]),
    );
    expect(deploymentIdentity(bigger)).not.toEqual(real);
  });
});

describe("repeats of one configuration", () => {
  const phase = (over: Partial<ConfiguredPhase> = {}): ConfiguredPhase => ({
    scenario: "endpoint-2015",
    engine: "cassandra",
    engineVersion: "5.0.4",
    preset: "durable",
    nodes: 4,
    sourceId: "measured",
    standIn: null,
    dataInstanceType: "i4i.xlarge",
    clientInstanceType: "c6i.xlarge",
    workload: "b",
    phase: "b",
    threadsPerClient: 256,
    clients: 4,
    target: null,
    properties: {
      recordcount: "2000000",
      operationcount: "2250000",
      "hdrhistogram.output.path": "/tmp/run/phases/3-b/client-0/hdr/",
    },
    ...over,
  });
  it("are the repeat phases of one run and the runs of other repeat indexes, whatever their per-client properties", () => {
    const key = configurationKey(phase());
    expect(
      configurationKey(
        phase({
          phase: "b-r1",
          properties: { operationcount: "2250001", recordcount: "2000000", "hdrhistogram.output.path": "/x/client-1/" },
        }),
      ),
    ).toBe(key);
    expect(phaseNameWithoutRepeat("a-ops1000-t4-r12")).toBe("a-ops1000-t4");
    expect(phaseNameWithoutRepeat("read-latest")).toBe("read-latest");
  });
  it("are not phases of another size, load level, cluster or study", () => {
    const key = configurationKey(phase());
    expect(configurationKey(phase({ properties: { ...phase().properties, recordcount: "200000" } }))).not.toBe(key);
    expect(configurationKey(phase({ phase: "b-t128", threadsPerClient: 128 }))).not.toBe(key);
    expect(configurationKey(phase({ clients: 2 }))).not.toBe(key);
    expect(configurationKey(phase({ target: 5000 }))).not.toBe(key);
    expect(configurationKey(phase({ sourceId: "published:000" }))).not.toBe(key);
    // A rehearsal on a stand-in, or a run on other machines, is another configuration.
    expect(configurationKey(phase({ standIn: "site.ycsb.BasicDB: no database" }))).not.toBe(key);
    expect(configurationKey(phase({ dataInstanceType: "local", clientInstanceType: "local" }))).not.toBe(key);
    expect(configurationKey(phase({ clientInstanceType: "c6i.2xlarge" }))).not.toBe(key);
    // Seed 003's published runs at 1k and 10k operations: the same threads and workload, two configurations.
    const seed003 = (table: string) =>
      phase({
        scenario: "andor-parv-2019",
        sourceId: "published:003",
        phase: "a-t1",
        properties: { referenceTable: table },
      });
    expect(configurationKey(seed003("003-runtime-t1"))).not.toBe(configurationKey(seed003("003-runtime-t2")));
  });
});
