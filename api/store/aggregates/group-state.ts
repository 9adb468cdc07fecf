/**
 * What a kept group remembers of its phases so a write recounts it from the phases it wrote alone (groups.ts): each
 * phase's few numbers (throughput, runtime, verdict, its operation groups' counts and means, in the order the full
 * recount reads them, so every sum adds in the same order) and, while the group is under the merge limit, each
 * operation's histogram merged per load level and per verdict class. A phase's numbers are a few dozen bytes; its
 * histograms, the costly part, are read once and merged into the kept ones. Pure: groups.ts reads and writes.
 */
import type { JsHistogram } from "hdr-histogram-js";
import {
  type Include,
  isComplete,
  loadLevel,
  mergeHistogramsOrNothing,
  worstVerdict,
} from "../../../model/aggregate/index.js";
import { encodeHistogram } from "../../../model/hdr/histogram.js";
import type { PhaseSummaryRow } from "../queries/filters.js";
import { MERGE_LIMIT, type OperationParts } from "../queries/phase-groups.js";
import type { MergedOf } from "./summaries.js";

/** What every phase of a group shares (its key's facts, its source's): kept once. */
export type GroupFacts = Omit<PhaseSummaryRow, PerPhase>;
type PerPhase = (typeof PER_PHASE)[number];
const PER_PHASE = [
  "phaseId",
  "runId",
  "phase",
  "runRepeat",
  "repeat",
  "throughputOpsSec",
  "runtimeMs",
  "verdict",
  "clientsReported",
  "clients",
  "threadsPerClient",
  "target",
  "operationCount",
  "operationCountPer",
  "engineVersion",
  "referenceTable",
] as const;

/** One operation group of a phase as a summary reads it: [operation, count, avgUs, client p99, clients]. */
export type OperationEntry = [string, number, number | null, number | null, number];

/** One phase: its per-phase fields, its index in its run (the recount's order), its operation groups. */
export interface PhaseEntry extends Pick<PhaseSummaryRow, PerPhase> {
  index: number;
  /** Operation group rows stored for the phase (read for complete phases only): what the merge limit counts. */
  operationRows: number;
  operations: OperationEntry[];
}

export interface GroupState {
  facts: GroupFacts;
  /** In the order phaseSummaries reads them: run id (as the database orders text), then the phase's index. */
  phases: PhaseEntry[];
  /** Merged histogram per level, verdict class and operation (null: some part had none or did not decode); null
   * past the merge limit, where the summaries take the max of the phases' percentiles instead. */
  histograms: Record<string, string | null> | null;
}

/** A phase as read for its group: its row, its index and (complete phases) its operation groups and histograms. */
export interface ReadPhase {
  row: PhaseSummaryRow;
  index: number;
  operationRows: number;
  operations: OperationEntry[];
  /** By operation: the phase's merged histogram, null where it has none; absent when histograms were not read. */
  histograms?: Map<string, string | null>;
}

/** Invalid phases are counted by include=all only: their histograms are kept apart from the others'. */
const verdictClass = (verdict: string) => (worstVerdict([verdict]) === "invalid" ? "invalid" : "counted");
const histogramKey = (level: string, cls: string, operation: string) => `${level}\u0000${cls}\u0000${operation}`;

/**
 * Whether a group's summaries merge histograms (groups.ts reads them, as the full recount did): a group of at most
 * MERGE_LIMIT / 4 phases always, a larger one while its complete phases' operation rows are at most MERGE_LIMIT.
 */
export function mergesHistograms(phases: number, operationRows: number): boolean {
  return phases * 4 <= MERGE_LIMIT || operationRows <= MERGE_LIMIT;
}

export function operationRowsOf(phases: readonly PhaseEntry[]): number {
  return phases.reduce((a, p) => a + (isComplete(p) ? p.operationRows : 0), 0);
}

function entryOf(p: ReadPhase): PhaseEntry {
  const out = { index: p.index, operationRows: p.operationRows, operations: p.operations } as PhaseEntry;
  for (const k of PER_PHASE) (out as unknown as Record<string, unknown>)[k] = p.row[k];
  return out;
}

function factsOf(row: PhaseSummaryRow): GroupFacts {
  const facts: Record<string, unknown> = { ...row };
  for (const k of PER_PHASE) delete facts[k];
  return facts as GroupFacts;
}

/** Adds the phases' histograms (in phase order) into kept ones; a part without one makes its key unmergeable. */
function mergeInto(kept: Record<string, string | null>, phases: readonly ReadPhase[]): Record<string, string | null> {
  const added = new Map<string, (string | null)[]>();
  for (const p of phases) {
    if (!isComplete(p.row)) continue;
    const level = loadLevel(p.row);
    const cls = verdictClass(p.row.verdict);
    for (const [operation] of p.operations) {
      const key = histogramKey(level, cls, operation);
      const list = added.get(key) ?? [];
      list.push(p.histograms?.get(operation) ?? null);
      added.set(key, list);
    }
  }
  const out = { ...kept };
  for (const [key, list] of added) {
    const before = key in kept ? [kept[key]!] : [];
    const all = [...before, ...list];
    const merged = all.every((h) => typeof h === "string" && h.length > 0)
      ? mergeHistogramsOrNothing(all as string[])
      : undefined;
    out[key] = merged ? encodeHistogram(merged) : null;
  }
  return out;
}

/** A group's state from all of its phases, in the full recount's order (their histograms read when it merges). */
export function stateOf(phases: readonly ReadPhase[]): GroupState {
  const entries = phases.map(entryOf);
  const merges = mergesHistograms(entries.length, operationRowsOf(entries));
  return { facts: factsOf(phases[0]!.row), phases: entries, histograms: merges ? mergeInto({}, phases) : null };
}

/**
 * The state with these phases added or replacing their earlier reading. `order` ranks every run id as the database
 * orders text. "recount" when the change cannot be added: a phase already complete changed (its histograms would
 * have to come out again: rare, a phase's clients arrive before it is complete) or the kept histograms are missing;
 * the caller then recounts the whole group. "histograms" when the written phases' histograms are needed and unread.
 */
export function withPhases(
  state: GroupState,
  phases: readonly ReadPhase[],
  order: ReadonlyMap<string, number>,
): GroupState | "recount" | "histograms" {
  const byId = new Map(state.phases.map((p, i) => [p.phaseId, i]));
  const replaced = new Set<number>();
  for (const p of phases) {
    const at = byId.get(p.row.phaseId);
    if (at === undefined) continue;
    if (isComplete(state.phases[at]!)) return "recount";
    replaced.add(p.row.phaseId);
  }
  const rank = (p: { runId: string; index: number }) => [order.get(p.runId) ?? Number.NaN, p.index] as const;
  const entries = [...state.phases.filter((p) => !replaced.has(p.phaseId)), ...phases.map(entryOf)];
  if (entries.some((p) => Number.isNaN(rank(p)[0]))) throw new Error("a run id missing from the recount's order");
  entries.sort((a, b) => rank(a)[0] - rank(b)[0] || a.index - b.index);
  const merges = mergesHistograms(entries.length, operationRowsOf(entries));
  if (!merges) return { facts: state.facts, phases: entries, histograms: null };
  if (state.histograms === null) return "recount";
  if (phases.some((p) => isComplete(p.row) && !p.histograms)) return "histograms";
  return { facts: state.facts, phases: entries, histograms: mergeInto(state.histograms, phases) };
}

/** The group's phases as the summaries read them (summaries.ts), each operation group without its histogram. */
export function rowsOf(state: GroupState): { rows: PhaseSummaryRow[]; ops: OperationParts } {
  const ops: OperationParts = new Map();
  const rows = state.phases.map((p) => {
    const { index: _index, operationRows: _rows, operations, ...own } = p;
    if (isComplete(p))
      ops.set(
        p.phaseId,
        operations.map(([operation, count, avgUs, p99, clients]) => ({
          operation,
          count,
          avgUs,
          clientPercentilesUs: (p99 === null ? {} : { "99": p99 }) as Record<string, number | null>,
          clients,
          hdrHistogram: null,
        })),
      );
    return { ...state.facts, ...own } as PhaseSummaryRow;
  });
  return { rows, ops };
}

/** The kept merge of an operation over the phases a summary counts (one level, one include), or null. */
export function mergedOf(state: GroupState, include: Include): MergedOf {
  return (operation, phases) => {
    if (state.histograms === null || phases.length === 0) return null;
    const level = loadLevel(phases[0]!);
    const classes = include === "all" ? ["counted", "invalid"] : ["counted"];
    const kept = classes.map((c) => histogramKey(level, c, operation)).filter((k) => k in state.histograms!);
    const encoded = kept.map((k) => state.histograms![k]);
    if (encoded.length === 0 || encoded.some((h) => h === null)) return null;
    return (mergeHistogramsOrNothing(encoded as string[]) as JsHistogram | undefined) ?? null;
  };
}

/**
 * A state as stored: each phase as an array in PER_PHASE's order (then its index, rows and operations), so the text a
 * recount reads and writes holds a group's numbers, not its field names thousands of times (a third of the size).
 */
export function encodeState(state: GroupState): string {
  const phases = state.phases.map((p) => [...PER_PHASE.map((k) => p[k]), p.index, p.operationRows, p.operations]);
  return JSON.stringify({ facts: state.facts, phases, histograms: state.histograms });
}

export function decodeState(text: string): GroupState {
  const stored = JSON.parse(text) as { facts: GroupFacts; phases: unknown[][]; histograms: GroupState["histograms"] };
  const phases = stored.phases.map((values) => {
    const out: Record<string, unknown> = {};
    PER_PHASE.forEach((k, i) => {
      out[k] = values[i];
    });
    const [index, operationRows, operations] = values.slice(PER_PHASE.length);
    return { ...out, index, operationRows, operations } as PhaseEntry;
  });
  return { facts: stored.facts, phases, histograms: stored.histograms };
}
