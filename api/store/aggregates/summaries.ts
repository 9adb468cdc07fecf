/**
 * What one group of phases shows in a view, by the model's rules (model/aggregate/rules.ts): a configuration's point
 * (/sweeps) and repeat group (/repeatability), a peak group's point (/scaling) and cell (/durability). Pure: the same
 * functions compute the rows ingest keeps (groups.ts) and a view's answer from the phases when a filter cuts through
 * its groups (a date range), so the two never disagree.
 */

import type { JsHistogram } from "hdr-histogram-js";
import {
  combineOperationParts,
  type Include,
  type LeftOut,
  type LevelledPhase,
  type OverRepeats,
  overRepeats,
  type PhaseOperationPart,
  selectPhases,
  worstVerdict,
} from "../../../model/aggregate/index.js";
import { type RepeatStatistics, repeatStatistics } from "../../../model/statistics.js";
import type { PhaseSummaryRow } from "../queries/filters.js";
import { atPeakOverRepeats, type OperationParts } from "../queries/phase-groups.js";

export interface OperationLatency {
  count: number;
  avgUs: number | null;
  p99Us: number | null;
  p99Method: "merged-hdr" | "single-client" | "max-of-clients";
}

/**
 * Where a caller keeps the histograms of a group's phases merged already (group-state.ts): the merge of one
 * operation over these phases (all of one load level), null where they do not merge. Without it, merged here.
 */
export type MergedOf = (operation: string, phases: readonly LevelledPhase[]) => JsHistogram | null;

/** Count, count-weighted mean and p99 of each operation over every client of these phases (repeats pooled). */
export function latencyOfPhases<P extends { phaseId: number }>(
  phases: readonly P[],
  ops: OperationParts,
  mergedOf?: (operation: string, phases: readonly P[]) => JsHistogram | null,
): Record<string, OperationLatency> {
  const byOperation = new Map<string, PhaseOperationPart[]>();
  for (const p of phases) {
    for (const o of ops.get(p.phaseId) ?? []) {
      const list = byOperation.get(o.operation);
      if (list) list.push(o);
      else byOperation.set(o.operation, [o]);
    }
  }
  const out: Record<string, OperationLatency> = {};
  for (const [op, parts] of [...byOperation].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const c = combineOperationParts(parts, [99], mergedOf?.(op, phases));
    out[op] = { count: c.count, avgUs: c.avgUs, p99Us: c.percentilesUs["99"] ?? null, p99Method: c.percentileMethod };
  }
  return out;
}

/** Phases behind a drawn value kept by id where not judged valid, at most this many: their reasons are read when shown. */
const SUSPECT_KEPT = 20;

/** The worst verdict of the phases a value stands on, and the ids of those not judged valid (the views' hollow marks). */
export function verdictOf(phases: readonly { phaseId: number; verdict: string }[]): {
  verdict: string;
  suspect: number[];
} {
  return {
    verdict: worstVerdict(phases.map((p) => p.verdict)),
    suspect: phases
      .filter((p) => p.verdict !== "valid")
      .map((p) => p.phaseId)
      .slice(0, SUSPECT_KEPT),
  };
}

/** One repeat of a configuration as /repeatability lists it. */
export interface RepeatEntry {
  runId: string;
  phase: string;
  runRepeat: number;
  repeat: number;
  throughputOpsSec: number;
  verdict: string;
}

/** A configuration under one `include`: its /sweeps point and its /repeatability group. */
export interface ConfigurationSummary {
  leftOut: LeftOut;
  /** Names of the phases counted (its repeats). */
  phases: string[];
  throughput: OverRepeats;
  runtime: OverRepeats;
  latency: Record<string, OperationLatency>;
  repeats: RepeatEntry[];
  statistics: RepeatStatistics;
  /** The counted phases' worst verdict, and those not judged valid (their reasons are shown with the point). */
  verdict: string;
  suspect: number[];
}

/** The phases of one configuration (in run, then phase order) under one `include`. */
export function configurationSummary(
  ps: readonly PhaseSummaryRow[],
  include: Include,
  ops: OperationParts,
  mergedOf?: MergedOf,
): ConfigurationSummary {
  const { counted, leftOut } = selectPhases(ps, include);
  const repeats = counted
    .map((r) => ({
      runId: r.runId,
      phase: r.phase,
      runRepeat: r.runRepeat,
      repeat: r.repeat,
      throughputOpsSec: r.throughputOpsSec,
      verdict: r.verdict,
    }))
    .sort((a, b) => a.runRepeat - b.runRepeat || a.runId.localeCompare(b.runId) || a.repeat - b.repeat);
  return {
    leftOut,
    phases: counted.map((p) => p.phase),
    throughput: overRepeats(counted.map((p) => p.throughputOpsSec)),
    runtime: overRepeats(counted.map((p) => p.runtimeMs)),
    latency: latencyOfPhases(counted, ops, mergedOf),
    repeats,
    statistics: repeatStatistics(repeats.map((r) => r.throughputOpsSec)),
    ...verdictOf(counted),
  };
}

/** A peak group under one `include`: its /scaling point and /durability cell. */
export interface PeakSummary {
  leftOut: LeftOut;
  /** Phases counted (every load level of every repeat). */
  counted: number;
  throughput: OverRepeats;
  /** Runs whose repeats were counted at the peak level. */
  runs: number;
  peakThreads: number[];
  /** The peak level's phases' latency (durability's p99). */
  latency: Record<string, OperationLatency>;
  /** The peak phases' worst verdict, and those not judged valid: what the drawn point or bar stands on. */
  verdict: string;
  suspect: number[];
}

/**
 * The phases of one peak group under one `include`: the mean over repeats at each load level, at the level of the
 * highest mean (model/aggregate/rules.ts peakLevelOverRepeats), a published figure with the n its study printed.
 */
export function peakSummary(
  rs: readonly PhaseSummaryRow[],
  include: Include,
  ops: OperationParts,
  mergedOf?: MergedOf,
): PeakSummary {
  const { counted, leftOut, peaks, throughput } = atPeakOverRepeats(rs, include, rs[0]?.sourceId);
  return {
    leftOut,
    counted: counted.length,
    throughput,
    runs: new Set(peaks.map((r) => r.runId)).size,
    peakThreads: [...new Set(peaks.map((r) => r.threadsPerClient * r.clients))].sort((a, b) => a - b),
    latency: latencyOfPhases(peaks, ops, mergedOf),
    ...verdictOf(peaks),
  };
}

/** The phases whose operation groups a summary reads: those counted under `include: "all"` (a superset of "valid"'s). */
export function phasesNeedingOperations(groups: readonly (readonly PhaseSummaryRow[])[]): number[] {
  return groups.flatMap((ps) => selectPhases(ps, "all").counted.map((p) => p.phaseId));
}
