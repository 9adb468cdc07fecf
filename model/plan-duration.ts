import { measuredLoadRate } from "./measured-rates.js";
import type { Plan, PlanPhase } from "./plan.js";

/**
 * How long a plan takes on AWS, estimated before anything exists (for the cost of the whole run). Time caps are
 * taken as given (plus a warm-up inside the phase); a phase bounded only by its operation count is estimated at an
 * assumed rate per data node, or, for a load measured on a real engine (model/measured-rates.ts), at that rate per
 * client. Every assumption is named in the result, and the dashboard's measured runtimes replace them once a run
 * exists.
 */
export interface DurationAssumptions {
  bootSec: number;
  opsPerSecPerNode: number;
  settleSec: number;
  resetSec: number;
  phaseOverheadSec: number;
}

export const DURATION_ASSUMPTIONS: DurationAssumptions = {
  /** OS packages, the kit, the engine download and the cluster's formation (the rehearsal's steps, on EC2). */
  bootSec: 15 * 60,
  /**
   * Operations per second per data node when only an operation count bounds a phase: the middle of seed 000's
   * measured range (lines 225-260: 428 ops/s for HBase read-mostly on 1 node up to about 14,000 for Cassandra).
   */
  opsPerSecPerNode: 5_000,
  /** A settle without a time of its own waits for compactions: assumed one minute. */
  settleSec: 60,
  /** A reset (engine stopped, data wiped, restarted, the cluster formed again). */
  resetSec: 10 * 60,
  /** Each YCSB phase: JVM start, the barrier, the upload. */
  phaseOverheadSec: 30,
};

export interface PhaseDuration {
  index: number;
  name: string;
  seconds: number;
  /**
   * "cap" (the phase's maxexecutiontime), "rate" (operations at the assumed rate), "measured" (a load at a rate
   * measured on the engine), "fixed" (a named allowance).
   */
  basis: "cap" | "rate" | "measured" | "fixed";
}

export interface RunDuration {
  hours: number;
  phases: PhaseDuration[];
  assumptions: string[];
}

function operations(p: PlanPhase, plan: Plan): number | undefined {
  const counts = p.perClient
    .map((c) => Number(c.operationcount ?? c.insertcount))
    .filter((n) => Number.isFinite(n) && n > 0);
  if (counts.length > 0) return counts.reduce((a, b) => a + b, 0);
  const shared = Number(p.properties.operationcount ?? (p.kind === "load" ? p.properties.recordcount : undefined));
  return Number.isFinite(shared) && shared > 0 ? shared * (p.kind === "load" ? 1 : plan.deployment.clients) : undefined;
}

/** One YCSB phase: its operations at the measured or the assumed rate, or its time cap, whichever ends it first. */
function ycsbPhaseDuration(p: PlanPhase, plan: Plan, a: DurationAssumptions): PhaseDuration {
  const ops = operations(p, plan);
  const measured = measuredLoadRate(plan, p);
  // A measured rate is one client's: the clients load their shares at once.
  const rate = measured ? measured.opsPerSec * plan.deployment.clients : a.opsPerSecPerNode * plan.deployment.nodes;
  const atRate = ops === undefined ? Number.POSITIVE_INFINITY : ops / rate;
  const cap = p.maxExecutionTimeSec ?? Number.POSITIVE_INFINITY;
  const seconds = Math.min(atRate, cap);
  const basis = cap <= atRate ? "cap" : measured ? "measured" : "rate";
  return {
    index: p.index,
    name: p.name,
    seconds: (Number.isFinite(seconds) ? seconds : 3600) + (p.warmupSec ?? 0) + a.phaseOverheadSec,
    basis,
  };
}

export function estimateRunDuration(plan: Plan, a: DurationAssumptions = DURATION_ASSUMPTIONS): RunDuration {
  const phases: PhaseDuration[] = plan.phases.map((p) => {
    if (p.kind === "prepare") return { index: p.index, name: p.name, seconds: a.phaseOverheadSec, basis: "fixed" };
    if (p.kind === "settle")
      return {
        index: p.index,
        name: p.name,
        seconds: (p.settle?.minSec ?? 0) + (p.settle?.waitForCompactions ? a.settleSec : 0),
        basis: "fixed",
      };
    if (p.kind === "reset") return { index: p.index, name: p.name, seconds: a.resetSec, basis: "fixed" };
    return ycsbPhaseDuration(p, plan, a);
  });
  const total = a.bootSec + phases.reduce((s, p) => s + p.seconds, 0);
  const measured = [...new Set(plan.phases.map((p) => measuredLoadRate(plan, p)).filter((m) => m !== undefined))];
  return {
    hours: Math.round((total / 3600) * 100) / 100,
    phases,
    assumptions: [
      `boot and formation ${a.bootSec / 60} min`,
      `${a.opsPerSecPerNode.toLocaleString("en-US")} ops/s per data node where only an operation count bounds a phase (seed 000's measured range: 428 to about 14,000)`,
      ...measured.map(
        (m) =>
          `${m.preset} loads at ${m.opsPerSec.toLocaleString("en-US")} ops/s per client (${m.engine}, ${m.server}, ${m.threadsPerClient} threads: ` +
          `measured by ${m.script} on ${m.machine}, ${m.measuredAt})`,
      ),
      "time caps taken in full",
      `${a.resetSec / 60} min per reset, ${a.settleSec} s per compaction wait, ${a.phaseOverheadSec} s per phase`,
    ],
  };
}
