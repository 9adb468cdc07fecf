/** A run's headline throughput: the runs explorer, compare, the timeline and the histories show the same number. */
import { type Include, isComplete } from "../../../model/aggregate/index.js";
import { LIMITS } from "../../../model/result-limits.js";
import type { Prisma } from "../../../prisma/generated/client.js";
import { storedNumber, storedPhaseThroughput } from "../stored-values.js";
import { atPeakOverRepeats } from "./phase-groups.js";

/** The phase fields a run's headline needs (phases ordered by index). */
export const PEAK_FIELDS = {
  name: true,
  index: true,
  kind: true,
  workload: true,
  throughputSum: true,
  clientsReported: true,
  clients: true,
  threadsPerClient: true,
  target: true,
  repeat: true,
  verdict: true,
} as const;
export type PeakPhase = Prisma.PhaseGetPayload<{ select: typeof PEAK_FIELDS }>;

/**
 * A run's headline throughput: a workload (its first with a complete phase unless named), the mean over repeats at
 * its peak load level (the rules of every aggregate view, so the runs list and compare show the same number for a
 * run). Invalid phases count here unless `include` is "valid": the runs list shows the verdict beside it.
 */
export function runPeak(phases: readonly PeakPhase[], workloadAsked?: string, include: Include = "all") {
  const work = phases.filter((p) => p.kind === "workload").sort((a, b) => a.index - b.index);
  const workload = workloadAsked ?? work.find((p) => isComplete(p))?.workload;
  if (workload === undefined || workload === null) return null;
  const ofWorkload = work
    .filter((p) => p.workload === workload)
    .map((p) => ({ ...p, runId: "", throughputOpsSec: storedPhaseThroughput(p.throughputSum) ?? 0 }));
  const { peaks, throughput } = atPeakOverRepeats(ofWorkload, include);
  const first = peaks[0];
  if (!first || throughput.mean === null) return null;
  return {
    workload,
    phase: first.name,
    threads: first.threadsPerClient * first.clients,
    target: storedNumber(first.target, LIMITS.throughputOpsSec),
    throughput,
  };
}
