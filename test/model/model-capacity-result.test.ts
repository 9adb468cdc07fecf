import { describe, expect, it } from "vitest";
import { capacityReportLines } from "../../model/capacity-report.js";
import {
  capacityPrice,
  capacityResult,
  configurationPrice,
  judgeSteps,
  type StoredStep,
} from "../../model/capacity-result.js";
import type { CapacitySearch } from "../../model/capacity-search.js";
import type { StepClient } from "../../model/capacity-step.js";
import { createHistogram, encodeHistogram } from "../../model/hdr/index.js";
import { LOCAL_RUN_NO_PRICE } from "../../model/run-cost.js";

const SEARCH: CapacitySearch = {
  slo: { operations: ["READ"], percentile: 99, limitMs: 10, errorBudgetPct: 0.1 },
  fractions: [0.5, 0.75, 1.05],
  maxSteps: 4,
};

/** One client's step with every READ (service and intended) at the given latency, µs. */
function client(throughput: number, serviceUs: number, intendedUs: number): StepClient {
  const encoded = (us: number) => {
    const h = createHistogram({ lowestDiscernibleValue: 1, numberOfSignificantValueDigits: 3 }, 100_000_000);
    for (let i = 0; i < 100; i++) h.recordValue(us);
    return encodeHistogram(h);
  };
  const op = { count: 100, avgUs: null, minUs: null, maxUs: null, percentilesUs: {}, returns: { OK: 100 } };
  return {
    result: { overall: { throughputOpsSec: throughput }, operations: { READ: op, "Intended-READ": op } },
    hdrHistograms: { READ: encoded(serviceUs), "Intended-READ": encoded(intendedUs) },
  };
}

const STEPS: StoredStep[] = [
  // Stored out of order: the result lists them by step.
  { step: 2, role: "ladder", target: 1200, clients: [client(500, 3000, 45_000), client(500, 3000, 45_000)] },
  { step: 0, role: "probe", target: null, clients: [client(600, 4000, 4000), client(600, 4000, 4000)] },
  { step: 1, role: "ladder", target: 600, clients: [client(300, 2000, 3000), client(300, 2000, 3000)] },
];

describe("capacity result of a search", () => {
  it("names the sustainable throughput, the step that broke and why, and each step's op and intended percentile", () => {
    const steps = judgeSteps(SEARCH, STEPS);
    const r = capacityResult("a-cap", SEARCH, steps, configurationPrice("m6i.large", 3));
    expect(r.steps.map((s) => [s.step, s.role, s.target, s.achievedOpsSec, s.pass])).toEqual([
      [0, "probe", null, 1200, false],
      [1, "ladder", 600, 600, true],
      [2, "ladder", 1200, 1000, false],
    ]);
    expect(r.sustainableOpsSec).toBe(600);
    expect(r.heldStep).toBe(1);
    expect(r.broke?.step).toBe(2);
    expect(r.broke?.breaches).toEqual([
      "READ p99 intended 45.02 ms > 10 ms",
      "achieved 1000 ops/s < 95% of target 1200",
    ]);
    const read = r.steps[2]!.operations.find((o) => o.operation === "READ")!;
    expect(read.opMs).toBeCloseTo(3, 1);
    expect(read.intendedMs).toBeCloseTo(45, 0);
    // By hand: 3 x m6i.large at 0.096 $/h = 0.288 $/h; 600 ops/s / 0.288 = 2083.3; 0.288 / (600 x 3600) x 1e6 = 0.1333 $.
    if (!r.price.priced) throw new Error(`not priced: ${r.price.statement}`);
    expect(r.price.usdPerHour).toBeCloseTo(0.288, 9);
    expect(r.price.opsPerSecPerUsdHour).toBeCloseTo(2083.33, 1);
    expect(r.price.usdPerMillionOps).toBeCloseTo(0.13333, 4);
  });

  it("a local run carries no price and says so; a search where nothing held sustains 0 with no price-performance", () => {
    expect(configurationPrice("local", 1)).toEqual({ statement: LOCAL_RUN_NO_PRICE });
    expect(configurationPrice("m1.unknown", 1)).toEqual({
      statement: 'no price for instance type "m1.unknown" in model/instance-types.ts',
    });
    const broke = judgeSteps(SEARCH, [STEPS[1]!, STEPS[0]!]);
    const r = capacityResult("a-cap", SEARCH, broke, configurationPrice("local", 1));
    expect(r.sustainableOpsSec).toBe(0);
    expect(r.heldStep).toBeNull();
    expect(r.broke?.step).toBe(2);
    expect(r.price).toEqual({ priced: false, statement: LOCAL_RUN_NO_PRICE });
    expect(capacityPrice(0, { usdPerHour: 1, basis: "on-demand" })).toMatchObject({
      priced: true,
      opsPerSecPerUsdHour: null,
      usdPerMillionOps: null,
    });
  });

  it("prices the configuration from its data instances' realized spans when the run has them, else on demand", () => {
    const span = (instance: string, startedAt: string, endedAt: string) => ({
      instance,
      role: instance.startsWith("node") ? ("data" as const) : ("client" as const),
      instanceType: instance.startsWith("node") ? "m6i.large" : "c6i.large",
      startedAt,
      endedAt,
    });
    const spans = [
      span("node-0", "2026-01-01T10:00:00Z", "2026-01-01T11:00:00Z"),
      // Half the time: the configuration stood one hour and billed 1.5 node-hours.
      span("node-1", "2026-01-01T10:00:00Z", "2026-01-01T10:30:00Z"),
      span("client-0", "2026-01-01T10:00:00Z", "2026-01-01T12:00:00Z"),
    ];
    expect(configurationPrice("m6i.large", 2, spans)).toEqual({ usdPerHour: 1.5 * 0.096, basis: "realized" });
    expect(configurationPrice("m6i.large", 2, [])).toEqual({ usdPerHour: 2 * 0.096, basis: "on-demand" });
    expect(configurationPrice("m6i.large", 2, [{ ...spans[0]!, instanceType: null }])).toEqual({
      statement: 'node-0: no price for instance type "unknown" in model/instance-types.ts',
    });
    expect(capacityPrice(100, configurationPrice("m6i.large", 2, spans))).toMatchObject({
      priced: true,
      basis: "realized",
    });
  });
});

describe("a finished search in a console's words", () => {
  it("says why it ended, the sustainable throughput, the step that broke and why, the price, then every step", () => {
    const r = capacityResult("a-cap", SEARCH, judgeSteps(SEARCH, STEPS), configurationPrice("local", 1));
    expect(capacityReportLines(r, "fixed steps: 1200 ops/s broke")).toEqual([
      "capacity a-cap (READ p99 < 10 ms, errors <= 0.1 %): search ended: fixed steps: 1200 ops/s broke",
      "  sustainable: 600 ops/s (step 1, target 600 ops/s)",
      "  broke: step 2 at target 1200 ops/s: READ p99 intended 45.02 ms > 10 ms; achieved 1000 ops/s < 95% of target 1200",
      `  price: ${LOCAL_RUN_NO_PRICE}`,
      "  step 0 probe target none (unthrottled): achieved 1200 ops/s, READ p99 op 4.00 / intended 4.00 ms: probe",
      "  step 1 ladder target 600 ops/s: achieved 600 ops/s, READ p99 op 2.00 / intended 3.00 ms: held",
      "  step 2 ladder target 1200 ops/s: achieved 1000 ops/s, READ p99 op 3.00 / intended 45.02 ms: broke (READ p99 intended 45.02 ms > 10 ms; achieved 1000 ops/s < 95% of target 1200)",
    ]);
  });

  it("a search where nothing held says so; a priced one gives $ per hour and per million operations", () => {
    const none = capacityResult(
      "b-cap",
      SEARCH,
      judgeSteps(SEARCH, [STEPS[1]!, STEPS[0]!]),
      configurationPrice("m6i.large", 3),
    );
    const lines = capacityReportLines(none, "fixed steps: 1200 ops/s broke");
    expect(lines[1]).toBe("  sustainable: 0 ops/s (no step held the SLO)");
    expect(lines[3]).toMatch(/^ {2}price: \$0\.288\/h, no price-performance \(nothing sustained\) \(.+, as of .+\)$/);
    const held = capacityResult(
      "a-cap",
      SEARCH,
      judgeSteps(SEARCH, STEPS.slice(1)),
      configurationPrice("m6i.large", 3),
    );
    const priced = capacityReportLines(held, "the plan's 4 steps are used");
    expect(priced[2]).toBe("  broke: no step above the sustainable one broke");
    // By hand, as above: 600 ops/s at 0.288 $/h is 2083 ops/s per $/h and 0.1333 $ per million operations.
    expect(priced[3]).toMatch(/^ {2}price: \$0\.288\/h, 2083 ops\/s per \$\/h, \$0\.1333 per million operations \(/);
  });
});
