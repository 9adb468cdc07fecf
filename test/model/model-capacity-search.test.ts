import { describe, expect, it } from "vitest";
import {
  type CapacitySearch,
  capacityOutcome,
  type JudgedStep,
  judged,
  judgeStep,
  nextCapacityStep,
  type StepMeasurement,
  searchProblems,
} from "../../model/capacity-search.js";
import { stepMeasurement } from "../../model/capacity-step.js";
import { createHistogram, encodeHistogram } from "../../model/hdr/index.js";
import { buildPlan, scenario } from "../../model/index.js";
import { PlanSchema, schemaProblems } from "../../model/plan-schema.js";
import type { ResultDocument } from "../../model/result-document.js";

const planProblems = (plan: unknown) => schemaProblems(PlanSchema, plan);

const SLO = { operations: ["READ"], percentile: 99, limitMs: 10, errorBudgetPct: 0.1 };

/** A system that holds the SLO up to `breaking` ops/s and no further; the probe reaches `maximum`. */
function system(breaking: number, maximum: number) {
  return (target?: number): StepMeasurement => {
    const achievedOpsSec = target === undefined ? maximum : Math.min(target, maximum);
    const late = target !== undefined && target > breaking;
    return {
      ...(target === undefined ? {} : { target }),
      achievedOpsSec,
      operations: { READ: { count: 1000, failed: 0, opMs: 2, intendedMs: late ? 40 : 3 } },
    };
  };
}

/** Runs a search to its end against a system; returns the judged steps. */
function search(s: CapacitySearch, measure: (target?: number) => StepMeasurement): JudgedStep[] {
  const steps: JudgedStep[] = [];
  for (;;) {
    const next = nextCapacityStep(s, steps);
    if (!next.run) return steps;
    steps.push(judged(s, steps.length, next.role, measure(next.target)));
  }
}

describe("capacity search: judging a step", () => {
  const s: CapacitySearch = { slo: SLO, fractions: [0.5], maxSteps: 8 };
  it("judges intended latency, not the service time a late operation hides (coordinated omission)", () => {
    const b = judgeStep(s, {
      target: 100,
      achievedOpsSec: 100,
      operations: { READ: { count: 10, failed: 0, opMs: 1, intendedMs: 25 } },
    });
    expect(b).toEqual([{ kind: "latency", operation: "READ", valueMs: 25, limitMs: 10 }]);
  });
  it("a step that misses its target rate breaks even with latency in bounds", () => {
    const b = judgeStep(s, {
      target: 1000,
      achievedOpsSec: 800,
      operations: { READ: { count: 10, failed: 0, opMs: 1, intendedMs: 2 } },
    });
    expect(b.map((x) => x.kind)).toEqual(["achieved"]);
  });
  it("errors over the budget break the step; operations outside the SLO count towards the error rate", () => {
    const b = judgeStep(s, {
      target: 100,
      achievedOpsSec: 100,
      operations: {
        READ: { count: 990, failed: 0, opMs: 1, intendedMs: 2 },
        UPDATE: { count: 10, failed: 2, opMs: 1, intendedMs: 2 },
      },
    });
    expect(b).toEqual([{ kind: "errors", ratePct: 0.2, budgetPct: 0.1 }]);
  });
  it("names each bad field of a search", () => {
    expect(searchProblems({ slo: { ...SLO, percentile: 100, operations: [] }, maxSteps: 0 })).toHaveLength(4);
    expect(searchProblems(s)).toEqual([]);
  });
});

describe("capacity search: deciding the next target", () => {
  it("probes the maximum unthrottled first, then runs the fixed steps as its fractions and stops at the first break", () => {
    const steps = search({ slo: SLO, fractions: [0.5, 0.75, 0.9, 1.05], maxSteps: 10 }, system(800, 1000));
    expect(steps.map((st) => [st.role, st.target, st.pass])).toEqual([
      ["probe", undefined, false],
      ["ladder", 500, true],
      ["ladder", 750, true],
      ["ladder", 900, false],
    ]);
    const out = capacityOutcome(steps);
    expect([out.sustainableOpsSec, out.held?.target, out.broke?.target]).toEqual([750, 750, 900]);
  });

  it("bisects between the highest passing and the lowest breaking target to the resolution", () => {
    for (const breaking of [1, 137, 500, 999, 1000]) {
      const steps = search(
        { slo: SLO, maximumOpsSec: 1000, resolutionOpsSec: 10, maxSteps: 30 },
        system(breaking, 1000),
      );
      const out = capacityOutcome(steps);
      expect(out.held?.target ?? 0).toBeLessThanOrEqual(breaking);
      if (breaking < 1000) {
        expect(out.broke!.target).toBeGreaterThan(breaking);
        expect(out.broke!.target! - (out.held?.target ?? 0)).toBeLessThanOrEqual(10);
      } else expect(out.held?.target).toBe(1000);
    }
  });

  it("ladder then bisection refines inside the bracket the ladder found", () => {
    const steps = search(
      { slo: SLO, fractions: [0.5, 0.75, 0.9], resolutionOpsSec: 20, maxSteps: 20 },
      system(820, 1000),
    );
    expect(steps.slice(0, 4).map((st) => st.target)).toEqual([undefined, 500, 750, 900]);
    expect(steps.slice(4).every((st) => st.role === "bisect" && st.target! > 750 && st.target! < 900)).toBe(true);
    const out = capacityOutcome(steps);
    expect(out.broke!.target! - out.held!.target!).toBeLessThanOrEqual(20);
  });

  it("stops at the plan's number of steps", () => {
    const next = nextCapacityStep(
      { slo: SLO, maximumOpsSec: 1000, resolutionOpsSec: 1, maxSteps: 3 },
      search({ slo: SLO, maximumOpsSec: 1000, resolutionOpsSec: 1, maxSteps: 3 }, system(300, 1000)),
    );
    expect(next).toEqual({ run: false, reason: "the plan's 3 steps are used" });
  });
});

/** A client's result document with only what a step's measurement reads. */
function clientDoc(
  throughput: number,
  groups: Record<string, { values: number[]; returns?: Record<string, number> }>,
): ResultDocument {
  const operations: Record<string, unknown> = {};
  const hdrHistograms: Record<string, string> = {};
  for (const [g, { values, returns }] of Object.entries(groups)) {
    const h = createHistogram({ lowestDiscernibleValue: 1, numberOfSignificantValueDigits: 3 }, 100_000_000);
    for (const v of values) h.recordValue(v);
    hdrHistograms[g] = encodeHistogram(h);
    operations[g] = {
      count: values.length,
      avgUs: null,
      minUs: null,
      maxUs: null,
      percentilesUs: {},
      returns: returns ?? { OK: values.length },
    };
  }
  return {
    result: { overall: { runtimeMs: 1000, throughputOpsSec: throughput }, operations },
    hdrHistograms,
  } as unknown as ResultDocument;
}

describe("capacity step: the fleet's merged measurement", () => {
  it("sums throughput and failures, and takes percentiles from the merged histograms of both clients", () => {
    const fast = Array.from({ length: 100 }, () => 1000);
    const slowTail = [...Array.from({ length: 97 }, () => 1000), 30_000, 30_000, 30_000];
    const docs = [
      clientDoc(400, { READ: { values: fast }, "Intended-READ": { values: fast } }),
      clientDoc(350, { READ: { values: fast, returns: { OK: 99, ERROR: 1 } }, "Intended-READ": { values: slowTail } }),
    ];
    const s: CapacitySearch = { slo: { ...SLO, percentile: 99 }, fractions: [1], maxSteps: 2 };
    const m = stepMeasurement(s, docs, 800);
    expect(m.achievedOpsSec).toBe(750);
    expect(m.operations.READ!.count).toBe(200);
    expect(m.operations.READ!.failed).toBe(1);
    // 3 slow of 200 merged: p99 is slow (30 ms); client 0 alone would say 1 ms, the average of the two 15.5 ms.
    expect(m.operations.READ!.intendedMs).toBeCloseTo(30, 0);
    expect(m.operations.READ!.opMs).toBeCloseTo(1, 1);
    expect(m.operations["Intended-READ"]).toBeUndefined();
  });
});

describe("capacity search in a plan", () => {
  const base = { ...scenario("quickstart"), workloads: [{ workload: "b", maxExecutionTimeSec: 60 }] };
  const search: CapacitySearch = {
    slo: { operations: ["READ", "UPDATE"], percentile: 99, limitMs: 10, errorBudgetPct: 0.1 },
    fractions: [0.5, 0.75, 0.9, 1.05],
    maxSteps: 6,
  };
  it("lists the candidate steps as open-loop phases measuring intended latency, with the search on each", () => {
    const plan = buildPlan({ ...base, capacity: search });
    const steps = plan.phases.filter((p) => p.capacity);
    expect(steps.map((p) => [p.name, p.capacity!.step, p.capacity!.group])).toEqual(
      Array.from({ length: 6 }, (_, i) => [`b-cap${i}`, i, "b-cap"]),
    );
    for (const p of steps) {
      expect(p.properties["measurement.interval"]).toBe("both");
      expect(p.capacity!.search).toEqual(search);
      expect(p.target).toBeUndefined();
    }
    expect(planProblems(plan)).toEqual([]);
  });
  it("refuses a search beside a thread step-up, sweep or fixed targets, and a bad SLO, naming the field", () => {
    expect(() => buildPlan({ ...base, capacity: search, targets: [100] })).toThrow(
      /capacity: a capacity search sets the target itself/,
    );
    expect(() => buildPlan({ ...base, capacity: { ...search, slo: { ...search.slo, limitMs: 0 } } })).toThrow(
      /capacity\.slo\.limitMs: must be > 0 ms/,
    );
  });
});
