import { describe, expect, it } from "vitest";
import { peakPerRun } from "../model/aggregate/peak.js";
import { configurationKey, type ConfiguredPhase } from "../model/aggregate/repeats.js";
import { phaseNameWithoutRepeat } from "../model/plan.js";

describe("a preset's result over load levels and repeats", () => {
  it("takes each run at its peak phase and averages the runs, never the whole sweep", () => {
    const sweep = [1, 2, 4, 8, 16].map((threads, i) => ({ runId: "r0", threads, throughputOpsSec: [900, 1700, 3100, 4200, 3900][i]! }));
    const repeat = [{ runId: "r1", threads: 8, throughputOpsSec: 4000 }, { runId: "r1", threads: 16, throughputOpsSec: 4400 }];
    const result = peakPerRun([...sweep, ...repeat]);
    expect(result.peaks.map((p) => [p.runId, p.threads])).toEqual([["r0", 8], ["r1", 16]]);
    expect(result.throughputOpsSec).toBe((4200 + 4400) / 2);
    // The mean of every phase would be 3,171 ops/s, a number no configuration gave.
    expect(result.throughputOpsSec).not.toBeCloseTo([...sweep, ...repeat].reduce((a, p) => a + p.throughputOpsSec, 0) / 7, 0);
  });
  it("keeps the first of equal peaks and gives null without phases", () => {
    expect(peakPerRun([{ runId: "a", n: 1, throughputOpsSec: 5 }, { runId: "a", n: 2, throughputOpsSec: 5 }]).peaks).toEqual([{ runId: "a", n: 1, throughputOpsSec: 5 }]);
    expect(peakPerRun([])).toEqual({ throughputOpsSec: null, peaks: [] });
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
