import type { Validity } from "../result-document.js";
import { type RepeatStatistics, repeatStatistics } from "../statistics.js";
import { VERDICTS } from "../verdicts.js";

/**
 * The aggregation rules, each stated once. Ingest keeps a phase's totals with them, the queries select and
 * combine phases with them, the dashboard reads what they produced: no SQL or browser copy of any of them.
 */

export type Verdict = Validity["verdict"];

/**
 * The workload a phase's results count under: a load phase's are the workload "load" (seeds 000 and 001 report
 * the load's throughput as a table of its own), whatever workload's properties the load ran with.
 */
export function phaseWorkload(p: { kind: string; workload?: string | null }): string | null {
  return p.kind === "load" ? "load" : (p.workload ?? null);
}

/** A phase's throughput is the sum of its clients' (each client counts its own operations; seed 000 "summed"). */
export function phaseThroughput(clients: readonly { throughputOpsSec: number }[]): number {
  return clients.reduce((a, c) => a + c.throughputOpsSec, 0);
}

/** A phase lasts until its slowest client is done: its runtime is that client's (seed 003's "total runtime"). */
export function phaseRuntimeMs(clients: readonly { runtimeMs: number }[]): number {
  return clients.reduce((a, c) => Math.max(a, c.runtimeMs), 0);
}

const SEVERITY: Record<Verdict, number> = { valid: 0, warning: 1, invalid: 2 };

/** The worst verdict of a phase's clients, or of a run's phases (invalid > warning > valid); none judged is valid. */
export function worstVerdict(verdicts: readonly (string | null | undefined)[]): Verdict {
  let worst: Verdict = "valid";
  for (const v of verdicts) {
    const verdict: Verdict = (VERDICTS as readonly string[]).includes(v ?? "") ? (v as Verdict) : "valid";
    if (SEVERITY[verdict]! > SEVERITY[worst]!) worst = verdict;
  }
  return worst;
}

/** The clients of a phase that reported: distinct indexes among the phase's own (0..clients-1). */
export function clientsReported(clientIndexes: readonly number[], clients: number): number {
  return new Set(clientIndexes.filter((i) => i >= 0 && i < clients)).size;
}

/** The verdicts less severe than this one: a run's verdict is raised to a phase's when it is one of them. */
export function lessSevere(verdict: Verdict): Verdict[] {
  return VERDICTS.filter((v) => SEVERITY[v]! < SEVERITY[verdict]!);
}

/** Only when every client reported is a phase's summed throughput the cluster's (a phase of no clients is none). */
export function isComplete(p: { clientsReported: number; clients: number }): boolean {
  return p.clients >= 1 && p.clientsReported >= p.clients;
}

/**
 * Which phases an aggregate counts: complete ones, and by default only those not judged invalid (the runner's
 * verdict: YCSB failed, over 1 % of operations failed, a short load). A warning (saturated client, a dip) is kept.
 * `include: "all"` counts invalid phases too; an incomplete phase is never counted (its sum is not the cluster's).
 */
export const INCLUDE_VALUES = ["valid", "all"] as const;
export type Include = (typeof INCLUDE_VALUES)[number];

export interface LeftOut {
  /** Phases judged invalid, left out (0 with include=all). */
  invalid: number;
  /** Phases some client never reported. */
  incomplete: number;
}

export interface CountablePhase {
  clientsReported: number;
  clients: number;
  verdict: string;
}

export function selectPhases<T extends CountablePhase>(
  phases: readonly T[],
  include: Include = "valid",
): { counted: T[]; leftOut: LeftOut } {
  const counted: T[] = [];
  const leftOut: LeftOut = { invalid: 0, incomplete: 0 };
  for (const p of phases) {
    if (!isComplete(p)) leftOut.incomplete++;
    else if (include === "valid" && worstVerdict([p.verdict]) === "invalid") leftOut.invalid++;
    else counted.push(p);
  }
  return { counted, leftOut };
}

export function addLeftOut(a: LeftOut, b: LeftOut): LeftOut {
  return { invalid: a.invalid + b.invalid, incomplete: a.incomplete + b.incomplete };
}

/** One measurement of a configuration: a run's phase repeat (`-r<N>`), or a whole run repeated (another run id). */
export interface RepeatedPhase {
  runId: string;
  repeat: number;
  throughputOpsSec: number;
}

/** A measurement at one load level: its total client threads and its target (null: as fast as it goes). */
export interface LevelledPhase extends RepeatedPhase {
  threadsPerClient: number;
  clients: number;
  target: number | null;
}

/** The load level of a phase: total client threads and target; a step-up's or a sweep's steps are levels. */
export function loadLevel(p: { threadsPerClient: number; clients: number; target: number | null }): string {
  return `${p.threadsPerClient * p.clients}@${p.target ?? "max"}`;
}

/**
 * A configuration's result at its peak load level: the mean over repeats at each level first, then the level of the
 * highest mean (first of equals, in the order given), with that level's phases, its mean, CI and n. Seed 003 prints
 * the mean of its repeats per thread count (Tables 1-8); seed 004 reports the "maximum throughput" a configuration
 * reached. Taking each repeat's best level and averaging those maxima would be biased upward wherever levels are
 * within noise of each other (seed 003: 128 to 512 threads differ by 1-2 %), so the level is chosen on the means.
 */
export function peakLevelOverRepeats<T extends LevelledPhase>(
  phases: readonly T[],
): { level: T[]; throughput: OverRepeats } {
  const levels = new Map<string, T[]>();
  for (const p of phases) {
    const key = loadLevel(p);
    const list = levels.get(key);
    if (list) list.push(p);
    else levels.set(key, [p]);
  }
  let best: { level: T[]; throughput: OverRepeats } = { level: [], throughput: overRepeats([]) };
  for (const level of levels.values()) {
    const throughput = overRepeats(level.map((p) => p.throughputOpsSec));
    if (best.throughput.mean === null || (throughput.mean !== null && throughput.mean > best.throughput.mean))
      best = { level, throughput };
  }
  return best;
}

/**
 * How many runs a study's published figure is the mean of, as the paper says (its seed), where that is more than one:
 * a published point then carries that n (its spread is not printed: no CI).
 */
export const PUBLISHED_MEAN_OF: Record<string, { n: number; source: string }> = {
  "000": { n: 3, source: 'seed 000 lines 204-207: "the average was calculated for the three sets of results"' },
  // Seed 001 prints one figure per cell and does not say how it combined the 3 runs; as seed 000 did, a mean.
  "001": { n: 3, source: 'seed 001 line 49: "End Point performed each test 3 times on 3 different days"' },
  "003": { n: 3, source: "seed 003 lines 305-308: a total runtime average for each combination of three repeats" },
};

/** The repeats a published figure stands for: the study's printed n (PUBLISHED_MEAN_OF) for a "published:<seed>" source. */
export function publishedRepeats(sourceId: string): number | undefined {
  const seed = /^published:(\d{3})$/.exec(sourceId)?.[1];
  return seed ? PUBLISHED_MEAN_OF[seed]?.n : undefined;
}

/**
 * The aggregate over repeats of a configuration's values: for published figures (one value each, already a mean of
 * the study's repeats) the printed n and no interval; for measured ones, overRepeats.
 */
export function overRepeatsOf(sourceId: string, values: readonly number[]): OverRepeats {
  const printed = publishedRepeats(sourceId);
  if (printed === undefined || values.length !== 1) return overRepeats(values);
  return { n: printed, mean: values[0]!, stdDev: null, ci95: null };
}

/** What an aggregate over repeats reports: the mean with its 95% confidence interval and n, never the best. */
export type OverRepeats = Pick<RepeatStatistics, "n" | "mean" | "stdDev" | "ci95">;

export function overRepeats(values: readonly number[]): OverRepeats {
  const { n, mean, stdDev, ci95 } = repeatStatistics(values);
  return { n, mean, stdDev, ci95 };
}
