import { describe, expect, it } from "vitest";
import { buildPlan, scenario } from "../../model/index.js";
import { MEASURED_LOAD_RATES, measuredLoadRate } from "../../model/measured-rates.js";
import { DURATION_ASSUMPTIONS, estimateRunDuration } from "../../model/plan-duration.js";

/** `ycsb-lab plan --cost` estimates a durable usa-2015 plan at the load rate measured on a real Cassandra. */
describe("a durable load takes as long as measured, not the assumed rate per node", () => {
  const durable = buildPlan(scenario("usa-2015-durability"), { engine: "cassandra", preset: "durable" });
  const measured = MEASURED_LOAD_RATES.find((m) => m.scenario === "usa-2015-durability" && m.preset === "durable")!;

  it("every reload of the 20M records before a step is estimated at the measured rate", () => {
    const loads = durable.phases.filter((p) => p.kind === "load");
    // Seed 004 wipes and reloads before every step: 8 steps (8..1024 threads) x 2 workloads, the first load shared.
    expect(loads).toHaveLength(16);
    const d = estimateRunDuration(durable);
    for (const load of loads) {
      expect(measuredLoadRate(durable, load)).toBe(measured);
      const p = d.phases.find((x) => x.index === load.index)!;
      expect(p.basis).toBe("measured");
      expect(p.seconds).toBeCloseTo(20_000_000 / measured.opsPerSec + DURATION_ASSUMPTIONS.phaseOverheadSec, 6);
    }
    expect(d.assumptions.join("\n")).toContain(
      `durable loads at ${measured.opsPerSec.toLocaleString("en-US")} ops/s per client (cassandra, commitlog_sync group, 10 ms window`,
    );
    expect(d.assumptions.join("\n")).toContain("bench/durable-load.ts");
  });

  it("the measured rate is far below the assumed 5,000 ops/s per node, and the run's hours say so", () => {
    expect(measured.opsPerSec).toBeLessThan(DURATION_ASSUMPTIONS.opsPerSecPerNode / 2);
    const assumed = estimateRunDuration(durable, DURATION_ASSUMPTIONS);
    const loadHours = (16 * 20_000_000) / measured.opsPerSec / 3600;
    expect(assumed.hours).toBeGreaterThan(loadHours);
    // Other presets and engines keep the assumed rate: nothing was measured for them.
    const balanced = buildPlan(scenario("usa-2015-durability"), { engine: "cassandra", preset: "balanced" });
    expect(
      estimateRunDuration(balanced)
        .phases.filter((p) => p.name.startsWith("load"))
        .every((p) => p.basis === "rate"),
    ).toBe(true);
    const mongo = buildPlan(scenario("usa-2015-durability"), { engine: "mongodb", preset: "durable" });
    expect(mongo.phases.some((p) => measuredLoadRate(mongo, p))).toBe(false);
  });

  it("a warm-up inside a capped phase adds to its time (seed 002: 1 minute before each 5-minute step)", () => {
    const plan = buildPlan(scenario("lineate-2014"), { scale: 0.01 });
    const step = estimateRunDuration(plan).phases.find((p) => p.name === "b-step-t4-r0")!;
    expect(step).toMatchObject({ basis: "cap", seconds: 300 + 60 + DURATION_ASSUMPTIONS.phaseOverheadSec });
  });
});
