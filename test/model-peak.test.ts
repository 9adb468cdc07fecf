import { describe, expect, it } from "vitest";
import { overRepeats, peakPerRepeat, selectPhases, worstVerdict } from "../model/aggregate/rules.js";
import { configurationKey, type ConfiguredPhase } from "../model/aggregate/repeats.js";
import { phaseNameWithoutRepeat } from "../model/plan.js";

describe("a configuration's result over load levels and repeats", () => {
  it("takes each repeat at its peak phase, then the mean over repeats, never the whole sweep", () => {
    const sweep = [1, 2, 4, 8, 16].map((threads, i) => ({ runId: "r0", repeat: 0, threads, throughputOpsSec: [900, 1700, 3100, 4200, 3900][i]! }));
    const again = [{ runId: "r0", repeat: 1, threads: 8, throughputOpsSec: 4000 }, { runId: "r0", repeat: 1, threads: 16, throughputOpsSec: 4400 }];
    const peaks = peakPerRepeat([...sweep, ...again]);
    expect(peaks.map((p) => [p.repeat, p.threads])).toEqual([[0, 8], [1, 16]]);
    expect(overRepeats(peaks.map((p) => p.throughputOpsSec)).mean).toBe((4200 + 4400) / 2);
  });
  it("repeats of 1000, 2000 and 3000 ops/s in one run give 2000 with its CI and n = 3, not the best 3000", () => {
    const repeats = [1000, 2000, 3000].map((t, repeat) => ({ runId: "one-run", repeat, throughputOpsSec: t }));
    const result = overRepeats(peakPerRepeat(repeats).map((p) => p.throughputOpsSec));
    expect(result.n).toBe(3);
    expect(result.mean).toBe(2000);
    // t(0.975, 2) = 4.303, s = 1000: half-width 4.303 * 1000 / sqrt(3).
    expect(result.ci95!.halfWidth).toBeCloseTo((4.303 * 1000) / Math.sqrt(3), 6);
    expect(result.ci95!.low).toBeLessThan(2000);
  });
  it("keeps the first of equal peaks and gives nothing without phases", () => {
    expect(peakPerRepeat([{ runId: "a", repeat: 0, n: 1, throughputOpsSec: 5 }, { runId: "a", repeat: 0, n: 2, throughputOpsSec: 5 }])).toEqual([{ runId: "a", repeat: 0, n: 1, throughputOpsSec: 5 }]);
    expect(overRepeats([])).toEqual({ n: 0, mean: null, stdDev: null, ci95: null });
  });
  it("counts complete phases not judged invalid, and says how many it left out", () => {
    const phases = [
      { id: 1, clientsReported: 2, clients: 2, verdict: "valid" },
      { id: 2, clientsReported: 2, clients: 2, verdict: "warning" },
      { id: 3, clientsReported: 2, clients: 2, verdict: "invalid" },
      { id: 4, clientsReported: 1, clients: 2, verdict: "valid" },
    ];
    expect(selectPhases(phases)).toEqual({ counted: [phases[0], phases[1]], leftOut: { invalid: 1, incomplete: 1 } });
    expect(selectPhases(phases, "all")).toEqual({ counted: [phases[0], phases[1], phases[2]], leftOut: { invalid: 0, incomplete: 1 } });
  });
  it("the worst verdict: invalid over warning over valid, none judged is valid", () => {
    expect(worstVerdict([])).toBe("valid");
    expect(worstVerdict([null, "valid", undefined])).toBe("valid");
    expect(worstVerdict(["valid", "warning"])).toBe("warning");
    expect(worstVerdict(["warning", "invalid", "valid"])).toBe("invalid");
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
    workload: "b",
    phase: "b",
    threadsPerClient: 256,
    clients: 4,
    target: null,
    properties: { recordcount: "2000000", operationcount: "2250000", "hdrhistogram.output.path": "/tmp/run/phases/3-b/client-0/hdr/" },
    ...over,
  });
  it("are the repeat phases of one run and the runs of other repeat indexes, whatever their per-client properties", () => {
    const key = configurationKey(phase());
    expect(configurationKey(phase({ phase: "b-r1", properties: { operationcount: "2250001", recordcount: "2000000", "hdrhistogram.output.path": "/x/client-1/" } }))).toBe(key);
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
    // Seed 003's published runs at 1k and 10k operations: the same threads and workload, two configurations.
    const seed003 = (table: string) => phase({ scenario: "andor-parv-2019", sourceId: "published:003", phase: "a-t1", properties: { referenceTable: table } });
    expect(configurationKey(seed003("003-runtime-t1"))).not.toBe(configurationKey(seed003("003-runtime-t2")));
  });
});
