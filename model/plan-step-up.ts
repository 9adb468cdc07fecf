import type { Plan, PlanPhase } from "./plan.js";

/**
 * Step-up (seeds 002 and 004): raise threads until throughput stops rising. The plan lists every candidate step;
 * whether a step runs is decided at run time, identically on every client, from the total throughput of the
 * steps already run in its group (summed over clients, as DESIGN.md aggregates throughput).
 */
export interface StepOutcome {
  step: number;
  /** Total throughput of the step over all clients, ops/s. */
  throughput: number;
}

export type StepDecision = { run: true } | { run: false; reason: string };

/** Whether step `step` of a group runs, given the outcomes of its earlier steps. */
export function decideStep(step: number, minGainPct: number, earlier: StepOutcome[]): StepDecision {
  if (step === 0) return { run: true };
  const sorted = [...earlier].sort((a, b) => a.step - b.step);
  const prev = sorted.find((o) => o.step === step - 1);
  if (!prev) return { run: false, reason: `step ${step - 1} did not run` };
  const best = Math.max(0, ...sorted.filter((o) => o.step < step - 1).map((o) => o.throughput));
  if (best === 0 && step === 1) return { run: true };
  const gainPct = best > 0 ? ((prev.throughput - best) / best) * 100 : Infinity;
  if (gainPct < minGainPct) {
    return {
      run: false,
      reason: `throughput stopped rising: step ${step - 1} reached ${prev.throughput.toFixed(0)} ops/s vs best ${best.toFixed(0)} ops/s before (gain ${gainPct.toFixed(1)}% < ${minGainPct}%)`,
    };
  }
  return { run: true };
}

/** The workload phase of each step of a group (warm-ups carry the same stepUp marker but are not outcomes). */
export function stepPhases(plan: Plan, group: string): PlanPhase[] {
  return plan.phases.filter((p) => p.stepUp?.group === group && p.kind === "workload");
}
