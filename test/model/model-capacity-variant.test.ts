import { describe, expect, it } from "vitest";
import { capacityVariant, parseSloText, variantSearch } from "../../model/capacity-variant.js";
import { buildPlan, nextCapacityStep, scenario } from "../../model/index.js";

describe("a scenario's capacity variant", () => {
  it("reads an SLO as operations, percentile and limit", () => {
    expect(parseSloText("READ,UPDATE p99 10ms")).toEqual({
      operations: ["READ", "UPDATE"],
      percentile: 99,
      limitMs: 10,
      errorBudgetPct: 0.1,
    });
    expect(parseSloText("read p99.9 < 2.5 ms", 0)).toEqual({
      operations: ["READ"],
      percentile: 99.9,
      limitMs: 2.5,
      errorBudgetPct: 0,
    });
    expect(() => parseSloText("fast please")).toThrow(/"fast please" is not an SLO: write the operations/);
  });

  it("probes, runs the fixed steps, and leaves room to bisect only with a resolution", () => {
    const slo = parseSloText("READ p99 10ms");
    expect(variantSearch({ slo }).maxSteps).toBe(5);
    expect(variantSearch({ slo, resolutionOpsSec: 50 }).maxSteps).toBe(9);
    expect(variantSearch({ slo, fractions: [0.9], maxSteps: 3 })).toEqual({ slo, fractions: [0.9], maxSteps: 3 });
    // A stated maximum needs no probe: the fixed steps alone, the first of them the search's first step.
    const stated = variantSearch({ slo, maximumOpsSec: 2000, fractions: [0.5, 1] });
    expect(stated).toEqual({ slo, maximumOpsSec: 2000, fractions: [0.5, 1], maxSteps: 2 });
    expect(nextCapacityStep(stated, [])).toEqual({ run: true, role: "ladder", target: 1000 });
  });

  it("a swept study searches at its largest thread count instead, without its fixed targets", () => {
    const base = scenario("quickstart");
    const swept = { ...base, threads: { sweep: [1, 8, 32] }, targets: [100, 200] };
    const v = capacityVariant(swept, { slo: parseSloText("READ p99 10ms") });
    expect(v.threads).toEqual({ perClient: 32 });
    expect(v.targets).toBeUndefined();
    const plan = buildPlan(v);
    const steps = plan.phases.filter((p) => p.capacity);
    expect(steps.length).toBeGreaterThan(0);
    expect(new Set(steps.map((p) => p.threadsPerClient))).toEqual(new Set([32]));
  });
});
