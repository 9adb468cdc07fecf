/**
 * Capacity search: the highest total rate a configuration sustains under a latency SLO. Steps are open-loop phases
 * (a YCSB `target` split over the clients) judged on the fleet's merged intended-latency histogram; the next target is
 * decided from the steps already run. Fixed steps follow scylla-cluster-tests (fractions of a measured maximum, e.g.
 * 50/75/90/105 %), the bisection PerfKitBenchmarker's search of a target rate against a latency threshold.
 */

/** What a step must hold to pass. */
export interface CapacitySlo {
  /** Operation groups judged, as YCSB names them (READ, UPDATE, ...); each one's percentile must hold. */
  operations: string[];
  /** The percentile judged, in (0, 100), e.g. 99. */
  percentile: number;
  /** The limit of that percentile of intended latency, ms. */
  limitMs: number;
  /** Failed operations allowed, % of every operation of the step. */
  errorBudgetPct: number;
}

export interface CapacitySearch {
  slo: CapacitySlo;
  /** Total rate the fractions apply to, ops/s; absent: the first step runs unthrottled and measures it. */
  maximumOpsSec?: number;
  /** Fixed steps as fractions of the maximum, run in order until one breaks (scylla-cluster-tests: 0.5 ... 1.05). */
  fractions?: number[];
  /** Then bisect between the highest passing and the lowest breaking target until they are this close, ops/s. */
  resolutionOpsSec?: number;
  /** A step whose achieved rate is below this share of its target breaks (it did not sustain it). @default 0.95 */
  achievedShare?: number;
  /** The plan holds this many candidate steps; the search stops there. */
  maxSteps: number;
}

export const DEFAULT_ACHIEVED_SHARE = 0.95;

/** One operation group of a step, merged over the fleet. */
export interface StepOperation {
  count: number;
  /** Operations that returned anything but OK. */
  failed: number;
  /** The SLO's percentile of the service time (the operation group), ms; null without samples. */
  opMs: number | null;
  /** The same percentile of intended latency (Intended-<op>: from the scheduled start), ms. */
  intendedMs: number | null;
}

/** A step's merged result: what every client measured, together. */
export interface StepMeasurement {
  /** Total target over all clients, ops/s; absent for the unthrottled probe. */
  target?: number;
  /** Throughput summed over the clients, ops/s. */
  achievedOpsSec: number;
  operations: Record<string, StepOperation>;
}

export type Breach =
  | { kind: "latency"; operation: string; valueMs: number; limitMs: number }
  | { kind: "errors"; ratePct: number; budgetPct: number }
  | { kind: "achieved"; achievedOpsSec: number; target: number; share: number }
  | { kind: "unmeasured"; operation: string };

export type StepRole = "probe" | "ladder" | "bisect";

export interface JudgedStep extends StepMeasurement {
  step: number;
  role: StepRole;
  /** The probe measures the maximum and is never counted as a passing step. */
  pass: boolean;
  breaches: Breach[];
}

export type NextStep = { run: true; role: StepRole; target?: number } | { run: false; reason: string };

/** Checks a search as a scenario states it; the error names the field. */
export function searchProblems(s: CapacitySearch): string[] {
  const out: string[] = [];
  const { slo } = s;
  if (!slo.operations.length) out.push("capacity.slo.operations: name at least one operation (READ, UPDATE, ...)");
  if (!(slo.percentile > 0 && slo.percentile < 100))
    out.push(`capacity.slo.percentile: must be in (0, 100), got ${slo.percentile}`);
  if (!(slo.limitMs > 0)) out.push(`capacity.slo.limitMs: must be > 0 ms, got ${slo.limitMs}`);
  if (!(slo.errorBudgetPct >= 0 && slo.errorBudgetPct <= 100))
    out.push(`capacity.slo.errorBudgetPct: must be in [0, 100], got ${slo.errorBudgetPct}`);
  if (!s.fractions?.length && s.resolutionOpsSec === undefined)
    out.push("capacity: give fractions, resolutionOpsSec or both");
  for (const f of s.fractions ?? []) if (!(f > 0)) out.push(`capacity.fractions: each must be > 0, got ${f}`);
  if (s.resolutionOpsSec !== undefined && !(s.resolutionOpsSec > 0))
    out.push(`capacity.resolutionOpsSec: must be > 0, got ${s.resolutionOpsSec}`);
  if (s.maximumOpsSec !== undefined && !(s.maximumOpsSec > 0))
    out.push(`capacity.maximumOpsSec: must be > 0, got ${s.maximumOpsSec}`);
  if (!(Number.isInteger(s.maxSteps) && s.maxSteps >= 1))
    out.push(`capacity.maxSteps: must be an integer >= 1, got ${s.maxSteps}`);
  return out;
}

/** Judges a step against the SLO: every breach, so the result says which operation broke and why. */
export function judgeStep(s: CapacitySearch, m: StepMeasurement): Breach[] {
  const breaches: Breach[] = [];
  for (const op of s.slo.operations) {
    const o = m.operations[op];
    if (!o || o.count === 0) continue;
    // Intended latency counts the wait a late operation had before it started (no coordinated omission).
    const value = o.intendedMs ?? o.opMs;
    if (value === null) breaches.push({ kind: "unmeasured", operation: op });
    else if (value > s.slo.limitMs)
      breaches.push({ kind: "latency", operation: op, valueMs: value, limitMs: s.slo.limitMs });
  }
  const all = Object.values(m.operations).reduce((a, o) => a + o.count, 0);
  const failed = Object.values(m.operations).reduce((a, o) => a + o.failed, 0);
  const ratePct = all > 0 ? (failed / all) * 100 : 0;
  if (ratePct > s.slo.errorBudgetPct) breaches.push({ kind: "errors", ratePct, budgetPct: s.slo.errorBudgetPct });
  const share = s.achievedShare ?? DEFAULT_ACHIEVED_SHARE;
  if (m.target !== undefined && m.achievedOpsSec < m.target * share) {
    breaches.push({ kind: "achieved", achievedOpsSec: m.achievedOpsSec, target: m.target, share });
  }
  return breaches;
}

/** A step's measurement judged, as the search keeps it. */
export function judged(s: CapacitySearch, step: number, role: StepRole, m: StepMeasurement): JudgedStep {
  const breaches = judgeStep(s, m);
  return { ...m, step, role, breaches, pass: role !== "probe" && breaches.length === 0 };
}

/** The rate the fractions apply to: the stated one, else what the probe reached. */
export function searchMaximum(s: CapacitySearch, steps: readonly JudgedStep[]): number | undefined {
  return s.maximumOpsSec ?? steps.find((st) => st.role === "probe")?.achievedOpsSec;
}

/**
 * The next step, from the judged steps so far (in order). The same inputs give the same answer on every client; the
 * runner still has one client decide and publish it, so the fleet cannot drift apart on rounding or timing.
 */
export function nextCapacityStep(s: CapacitySearch, steps: readonly JudgedStep[]): NextStep {
  if (steps.length >= s.maxSteps) return { run: false, reason: `the plan's ${s.maxSteps} steps are used` };
  const maximum = searchMaximum(s, steps);
  if (maximum === undefined) return { run: true, role: "probe" };
  if (!(maximum > 0)) return { run: false, reason: "the probe measured no throughput: nothing to search" };
  const ladder = steps.filter((st) => st.role === "ladder");
  const fractions = s.fractions ?? [];
  if (ladder.every((st) => st.pass) && ladder.length < fractions.length) {
    return { run: true, role: "ladder", target: Math.round(fractions[ladder.length]! * maximum) };
  }
  const targeted = steps.filter((st) => st.role !== "probe" && st.target !== undefined);
  const passing = targeted.filter((st) => st.pass).map((st) => st.target!);
  const breaking = targeted.filter((st) => !st.pass).map((st) => st.target!);
  const lo = passing.length ? Math.max(...passing) : 0;
  const hi = breaking.length ? Math.min(...breaking) : undefined;
  if (s.resolutionOpsSec === undefined) {
    return { run: false, reason: hi === undefined ? "every fixed step held" : `fixed steps: ${hi} ops/s broke` };
  }
  if (hi === undefined) {
    // Nothing broke yet: try the maximum itself (or the highest step above it that held was the answer).
    if (lo >= maximum) return { run: false, reason: `every step held up to ${lo} ops/s, at or above the maximum` };
    return { run: true, role: "bisect", target: Math.round(maximum) };
  }
  if (hi - lo <= s.resolutionOpsSec) return { run: false, reason: `resolution reached: ${lo} passes, ${hi} breaks` };
  return { run: true, role: "bisect", target: Math.round((lo + hi) / 2) };
}

export interface CapacityOutcome {
  /** The highest passing step's achieved rate, ops/s; 0 when no step passed. */
  sustainableOpsSec: number;
  /** The highest passing step. */
  held?: JudgedStep;
  /** The lowest breaking step above it, with its breaches. */
  broke?: JudgedStep;
}

/** The answer of a finished search: the sustainable throughput and the step that broke, and why. */
export function capacityOutcome(steps: readonly JudgedStep[]): CapacityOutcome {
  const targeted = steps.filter((st) => st.role !== "probe" && st.target !== undefined);
  const held = targeted.filter((st) => st.pass).sort((a, b) => b.target! - a.target!)[0];
  const broke = targeted
    .filter((st) => !st.pass && st.target! > (held?.target ?? 0))
    .sort((a, b) => a.target! - b.target!)[0];
  return { sustainableOpsSec: held?.achievedOpsSec ?? 0, ...(held ? { held } : {}), ...(broke ? { broke } : {}) };
}

/** One line per breach, in the domain's words. */
export function describeBreach(b: Breach, percentile: number): string {
  switch (b.kind) {
    case "latency":
      return `${b.operation} p${percentile} intended ${b.valueMs.toFixed(2)} ms > ${b.limitMs} ms`;
    case "errors":
      return `errors ${b.ratePct.toFixed(3)}% > budget ${b.budgetPct}%`;
    case "achieved":
      return `achieved ${b.achievedOpsSec.toFixed(0)} ops/s < ${(b.share * 100).toFixed(0)}% of target ${b.target}`;
    case "unmeasured":
      return `${b.operation}: no latency histogram to judge`;
  }
}
