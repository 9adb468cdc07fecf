import { describe, expect, it } from "vitest";
import { peakPerRun } from "../model/aggregate/peak.js";

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
