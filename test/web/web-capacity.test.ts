import { describe, expect, it } from "vitest";
import type { CapacityResult } from "../../model/capacity-result.js";
import { capacityFrontier, configurationLabel, ladderRows, sloText } from "../../web/src/capacity.js";

const point = (label: string, usdPerHour: number | null, sustainableOpsSec: number) => ({
  label,
  usdPerHour,
  sustainableOpsSec,
});

describe("capacity frontier", () => {
  it("keeps the configurations no other beats on both price and sustainable throughput, cheapest first", () => {
    const points = [
      point("dear and slow", 1.0, 100),
      point("cheap", 0.1, 200),
      point("middle", 0.5, 900),
      point("dear and fast", 2.0, 1500),
      point("as fast as middle, dearer", 0.8, 900),
      point("local, no price", null, 5000),
    ];
    expect(capacityFrontier(points).map((p) => p.label)).toEqual(["cheap", "middle", "dear and fast"]);
  });

  it("two equal points both stay on it; none priced gives none", () => {
    const twins = [point("a", 1, 100), point("b", 1, 100), point("c", 1, 50)];
    expect(capacityFrontier(twins).map((p) => p.label)).toEqual(["a", "b"]);
    expect(capacityFrontier([point("local", null, 100)])).toEqual([]);
  });

  it("names a configuration by engine, preset, nodes and instance type, marking a stand-in", () => {
    const c = {
      engine: "cassandra",
      preset: "balanced",
      nodes: 3,
      instanceTypes: { data: "i4i.xlarge" },
      standIn: null,
    };
    expect(configurationLabel(c)).toBe("cassandra · balanced · 3 × i4i.xlarge");
    expect(configurationLabel({ ...c, standIn: "site.ycsb.BasicDB" })).toBe(
      "cassandra (stand-in) · balanced · 3 × i4i.xlarge",
    );
  });
});

describe("capacity step ladder", () => {
  const op = (operation: string, opMs: number | null, intendedMs: number | null, count = 100, failed = 0) => ({
    operation,
    count,
    failed,
    opMs,
    intendedMs,
  });
  const result: Pick<CapacityResult, "slo" | "steps"> = {
    slo: { operations: ["READ", "UPDATE"], percentile: 99, limitMs: 10, errorBudgetPct: 0.5 },
    steps: [
      {
        step: 1,
        role: "ladder",
        target: 500,
        achievedOpsSec: 498,
        pass: true,
        breaches: [],
        operations: [op("READ", 2, 3), op("UPDATE", 2.5, 4), op("SCAN", 50, 60)],
      },
      {
        step: 0,
        role: "probe",
        target: null,
        achievedOpsSec: 1000,
        pass: false,
        breaches: [],
        operations: [op("READ", 5, 5), op("UPDATE", 6, 6)],
      },
      {
        step: 2,
        role: "ladder",
        target: 900,
        achievedOpsSec: 700,
        pass: false,
        breaches: ["READ p99 intended 40.00 ms > 10 ms"],
        operations: [op("READ", 4, 40, 300, 3), op("UPDATE", 5, null, 100, 1)],
      },
    ],
  };

  it("lists each step in order: target, achieved, the SLO's operations' op and intended percentile, errors, held or broke", () => {
    const rows = ladderRows(result);
    expect(rows.map((r) => [r.step, r.verdict, r.target, r.achievedOpsSec])).toEqual([
      [0, "probe", null, 1000],
      [1, "held", 500, 498],
      [2, "broke", 900, 700],
    ]);
    // Only the SLO's operations are judged; SCAN's 60 ms is not a breach.
    expect(rows[1]!.judged).toEqual([
      { operation: "READ", opMs: 2, intendedMs: 3, overLimit: false },
      { operation: "UPDATE", opMs: 2.5, intendedMs: 4, overLimit: false },
    ]);
    // Without an intended histogram the service time is judged (as model/capacity-search.ts judgeStep does).
    expect(rows[2]!.judged.map((j) => j.overLimit)).toEqual([true, false]);
    expect(rows[2]!.errorsPct).toBeCloseTo(1, 9);
    expect(rows[2]!.breaches).toEqual(["READ p99 intended 40.00 ms > 10 ms"]);
    expect(sloText(result.slo)).toBe("p99 of READ, UPDATE ≤ 10 ms, errors ≤ 0.5 %");
  });
});
