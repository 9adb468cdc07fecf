/** Grouping phases into configurations and repeats, the peak load level over repeats, and the operation groups kept per phase. */
import {
  type ClientOperationInput,
  type CountablePhase,
  configurationKey,
  type Include,
  type LeftOut,
  type LevelledPhase,
  overRepeatsOf,
  type PhaseOperationPart,
  peakLevelOverRepeats,
  selectPhases,
} from "../../../model/aggregate/index.js";
import { sqlReader } from "../../db/pg-direct.js";
import { storedCount, storedLatency, storedObject, storedPercentiles, storedReasons } from "../stored-values.js";
import type { PhaseSummaryRow, Queryable } from "./filters.js";

/** One stored operation group as the aggregation reads it; a group without a count in range is left out. */
export function storedOperation(o: {
  operation: string;
  count: unknown;
  avgUs: unknown;
  minUs: unknown;
  maxUs: unknown;
  percentilesUs: unknown;
  hdrHistogram?: string | null;
}): [string, ClientOperationInput][] {
  const count = storedCount(o.count);
  if (count === null) return [];
  const hdrHistogram = typeof o.hdrHistogram === "string" && o.hdrHistogram.length > 0 ? o.hdrHistogram : null;
  return [
    [
      o.operation,
      {
        count,
        avgUs: storedLatency(o.avgUs),
        minUs: storedLatency(o.minUs),
        maxUs: storedLatency(o.maxUs),
        percentilesUs: storedPercentiles(o.percentilesUs),
        hdrHistogram,
      },
    ],
  ];
}

/** Appends to the list under a key (in place: grouping thousands of rows must not copy each list again). */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Groups rows by a key made of some of their fields, in first-seen order. */
export function groupBy<T>(rows: readonly T[], key: (r: T) => unknown[]): { key: unknown[]; rows: T[] }[] {
  const groups = new Map<string, { key: unknown[]; rows: T[] }>();
  for (const r of rows) {
    const k = key(r);
    const id = JSON.stringify(k);
    const g = groups.get(id);
    if (g) g.rows.push(r);
    else groups.set(id, { key: k, rows: [r] });
  }
  return [...groups.values()];
}

export const NO_LEFT_OUT: LeftOut = { invalid: 0, incomplete: 0 };

/**
 * A configuration's result over its repeats: the phases counted (model/aggregate/rules.ts selectPhases), the mean over
 * repeats at each load level and the level of the highest mean (peakLevelOverRepeats: `peaks` are that level's
 * phases), with its 95% CI and n; a published figure carries the n its study printed (overRepeatsOf). Never the best.
 */
export function atPeakOverRepeats<T extends CountablePhase & LevelledPhase>(
  phases: readonly T[],
  include: Include | undefined,
  sourceId = "",
) {
  const { counted, leftOut } = selectPhases(phases, include);
  const peaks = peakLevelOverRepeats(counted).level;
  return {
    counted,
    leftOut,
    peaks,
    throughput: overRepeatsOf(
      sourceId,
      peaks.map((p) => p.throughputOpsSec),
    ),
  };
}

/**
 * Merging decodes every histogram: past this many phase operation groups in one answer (or one group ingest keeps),
 * percentiles fall back to the max of the phases' own, labelled max-of-clients, so a view over a whole database stays
 * fast. A filtered view (one engine, scenario or run set) stays well under it.
 */
export const MERGE_LIMIT = 5_000;

/** Each phase's operation groups as ingest keeps them, by phase id. */
export type OperationParts = Map<number, (PhaseOperationPart & { operation: string })[]>;

/**
 * The operation groups ingest keeps per phase (phase_operations), by phase, with their merged HDR histograms unless
 * more than `mergeLimit` groups are read. Ids go as one array parameter (a bind parameter each failed past 32,767).
 */
export async function phaseOperationParts(
  db: Queryable,
  phaseIds: readonly number[],
  mergeLimit: number,
): Promise<OperationParts> {
  const out: OperationParts = new Map();
  if (phaseIds.length === 0) return out;
  const rows = await sqlReader(db).$queryRaw<
    { phaseId: number; operation: string; count: number; avgUs: number | null; p99: unknown; clients: number }[]
  >`
    SELECT phase_id AS "phaseId", operation, count, avg_us AS "avgUs", client_percentiles_us->'99' AS p99, clients
    FROM phase_operations WHERE phase_id = ANY(${[...phaseIds]}::int[])`;
  const histograms = new Map<string, string>();
  if (rows.length > 0 && rows.length <= mergeLimit) {
    const hs = await sqlReader(db).$queryRaw<{ phaseId: number; operation: string; h: string }[]>`
      SELECT phase_id AS "phaseId", operation, hdr_histogram AS h FROM phase_operations
      WHERE hdr_histogram IS NOT NULL AND phase_id = ANY(${[...phaseIds]}::int[])`;
    for (const h of hs) histograms.set(`${h.phaseId}\u0000${h.operation}`, h.h);
  }
  for (const r of rows) {
    const count = storedCount(r.count);
    if (count === null) continue;
    const p99 = storedLatency(r.p99);
    pushTo(out, Number(r.phaseId), {
      operation: r.operation,
      count,
      avgUs: storedLatency(r.avgUs),
      clientPercentilesUs: p99 === null ? {} : { "99": p99 },
      clients: Number(r.clients),
      hdrHistogram: histograms.get(`${r.phaseId}\u0000${r.operation}`) ?? null,
    });
  }
  return out;
}

/**
 * The YCSB properties of these phases, for configurationKey (model/aggregate/repeats.ts). Ids go as one array
 * parameter: a bind parameter each stopped working past 32,767 (a view over 100,000 runs failed).
 */
export async function phaseProperties(
  db: Queryable,
  rows: readonly PhaseSummaryRow[],
): Promise<Map<number, Record<string, unknown>>> {
  const properties = new Map<number, Record<string, unknown>>();
  if (rows.length === 0) return properties;
  const ps = await sqlReader(db).$queryRaw<{ id: number; properties: Record<string, unknown> }[]>`
    SELECT id, properties FROM phases WHERE id = ANY(${rows.map((r) => r.phaseId)}::int[])`;
  for (const p of ps) properties.set(Number(p.id), storedObject(p.properties) ?? {});
  return properties;
}

/** The repeats of one configuration (model/aggregate/repeats.ts configurationKey), in the order the rows came. */
export function configurations(rows: readonly PhaseSummaryRow[], properties: Map<number, Record<string, unknown>>) {
  return groupBy(rows, (r) => [configurationKey({ ...r, properties: properties.get(r.phaseId) ?? {} })]).map(
    (g) => g.rows,
  );
}

/**
 * The reasons behind the verdicts of these phases (those a summary kept as not judged valid), by phase id, in one
 * query: what the views show on hover beside a hollow marker or a hatched bar.
 */
export async function phaseReasons(db: Queryable, phaseIds: readonly number[]): Promise<Map<number, string[]>> {
  const ids = [...new Set(phaseIds.map(Number))];
  const out = new Map<number, string[]>();
  if (ids.length === 0) return out;
  const rows = await sqlReader(db).$queryRaw<{ phaseId: number; reasons: unknown }[]>`
    SELECT c.phase_id AS "phaseId", v.reasons FROM client_results c JOIN validity_verdicts v ON v.client_result_id = c.id
    WHERE c.phase_id = ANY(${ids}::int[]) AND v.reasons <> '[]'::jsonb ORDER BY c.phase_id, c.client_index`;
  for (const r of rows) for (const reason of storedReasons(r.reasons)) pushTo(out, Number(r.phaseId), reason);
  return out;
}

/** At most this many distinct reasons per drawn value: a hover names why, the runs list has every one. */
const REASONS_SHOWN = 5;

/** A drawn value's verdict (kept with its summary) and the distinct reasons of its suspect phases. */
export function pointVerdict(
  s: { verdict: string; suspect: readonly number[] },
  reasons: ReadonlyMap<number, string[]>,
): { verdict: string; reasons: string[] } {
  return {
    verdict: s.verdict,
    reasons: [...new Set(s.suspect.flatMap((id) => reasons.get(Number(id)) ?? []))].slice(0, REASONS_SHOWN),
  };
}
