/** Grouping phases into configurations and repeats, each repeat at its peak, and the clients' operation groups merged per phase. */
import { aggregateOperation, configurationKey, overRepeats, peakPerRepeat, selectPhases, worstVerdict, type ClientOperationInput, type CountablePhase, type RepeatedPhase, type Include, type LeftOut } from "../../../model/aggregate/index.js";
import { Prisma } from "../../../prisma/generated/client.js";
import type { Db } from "../../db/open.js";
import { storedCount, storedLatency, storedObject, storedPercentiles, storedReasons } from "../stored-values.js";
import type { PhaseSummaryRow } from "./filters.js";

/** One stored operation group as the aggregation reads it; a group without a count in range is left out. */
export function storedOperation(o: { operation: string; count: unknown; avgUs: unknown; minUs: unknown; maxUs: unknown; percentilesUs: unknown; hdrHistogram?: string | null }): [string, ClientOperationInput][] {
  const count = storedCount(o.count);
  if (count === null) return [];
  const hdrHistogram = typeof o.hdrHistogram === "string" && o.hdrHistogram.length > 0 ? o.hdrHistogram : null;
  return [[o.operation, { count, avgUs: storedLatency(o.avgUs), minUs: storedLatency(o.minUs), maxUs: storedLatency(o.maxUs), percentilesUs: storedPercentiles(o.percentilesUs), hdrHistogram }]];
}

/** Count, count-weighted mean, and p99 from the clients' merged HDR histograms (else the max of theirs, labelled). */
function latencyOf(inputs: readonly ClientOperationInput[]) {
  const a = aggregateOperation(inputs, [99]);
  return { count: a.count, avgUs: a.avgUs, p99Us: a.percentilesUs["99"] ?? null, p99Method: a.percentileMethod };
}

/** latencyOf each operation over every client of these phases (repeats pooled). */
export function latencyOfPhases(phases: readonly { phaseId: number }[], ops: Map<number, (ClientOperationInput & { operation: string })[]>) {
  const byOperation = new Map<string, ClientOperationInput[]>();
  for (const p of phases) for (const o of ops.get(Number(p.phaseId)) ?? []) pushTo(byOperation, o.operation, o);
  return Object.fromEntries([...byOperation].map(([op, inputs]) => [op, latencyOf(inputs)]));
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
 * A configuration's result over its repeats: the phases counted (model/aggregate/rules.ts selectPhases), each repeat
 * at its peak load level (peakPerRepeat), and the mean with its 95% CI and n over those repeats. Never the best.
 */
export function atPeakOverRepeats<T extends CountablePhase & RepeatedPhase>(phases: readonly T[], include: Include | undefined) {
  const { counted, leftOut } = selectPhases(phases, include);
  const peaks = peakPerRepeat(counted);
  return { counted, leftOut, peaks, throughput: overRepeats(peaks.map((p) => p.throughputOpsSec)) };
}

/**
 * Merging decodes every histogram: past this many client operation groups in one answer (a query over a whole
 * database), percentiles fall back to the max of the clients' own, labelled max-of-clients, so an unfiltered
 * /sweeps or /durability stays fast. A filtered view (one engine, scenario or run set) stays well under it.
 */
export const MERGE_LIMIT = 5_000;

/** Each client's operation groups of these phases by phase, with their HDR histograms unless more than MERGE_LIMIT. */
export async function clientOperations(db: Db, phaseIds: readonly number[], mergeLimit: number): Promise<Map<number, (ClientOperationInput & { operation: string })[]>> {
  const out = new Map<number, (ClientOperationInput & { operation: string })[]>();
  if (phaseIds.length === 0) return out;
  const rows = await db.$queryRaw<{ id: number; phaseId: number; operation: string; count: number; avgUs: number | null; minUs: number | null; maxUs: number | null; percentilesUs: Record<string, number> }[]>`
    SELECT o.id, c.phase_id AS "phaseId", o.operation, o.count::float8 AS count, o.avg_us AS "avgUs", o.min_us AS "minUs", o.max_us AS "maxUs",
           jsonb_build_object('99', o.percentiles_us->'99') AS "percentilesUs"
    FROM client_results c JOIN operation_stats o ON o.client_result_id = c.id
    WHERE c.phase_id = ANY(${[...phaseIds]}::int[])`;
  const histograms = new Map<number, string>();
  if (rows.length > 0 && rows.length <= mergeLimit) {
    const hs = await db.$queryRaw<{ id: number; h: string }[]>`
      SELECT id, hdr_histogram AS h FROM operation_stats WHERE hdr_histogram IS NOT NULL AND id IN (${Prisma.join(rows.map((r) => r.id))})`;
    for (const h of hs) histograms.set(Number(h.id), h.h);
  }
  for (const r of rows) {
    for (const [operation, o] of storedOperation({ ...r, hdrHistogram: histograms.get(Number(r.id)) ?? null })) pushTo(out, Number(r.phaseId), { ...o, operation });
  }
  return out;
}

/**
 * The YCSB properties of these phases, for configurationKey (model/aggregate/repeats.ts). Ids go as one array
 * parameter: a bind parameter each stopped working past 32,767 (a view over 100,000 runs failed).
 */
export async function phaseProperties(db: Db, rows: readonly PhaseSummaryRow[]): Promise<Map<number, Record<string, unknown>>> {
  const properties = new Map<number, Record<string, unknown>>();
  if (rows.length === 0) return properties;
  const ps = await db.$queryRaw<{ id: number; properties: Record<string, unknown> }[]>`
    SELECT id, properties FROM phases WHERE id = ANY(${rows.map((r) => r.phaseId)}::int[])`;
  for (const p of ps) properties.set(Number(p.id), storedObject(p.properties) ?? {});
  return properties;
}

/** The repeats of one configuration (model/aggregate/repeats.ts configurationKey), in the order the rows came. */
export function configurations(rows: readonly PhaseSummaryRow[], properties: Map<number, Record<string, unknown>>) {
  return groupBy(rows, (r) => [configurationKey({ ...r, properties: properties.get(r.phaseId) ?? {} })]).map((g) => g.rows);
}

/** At most this many distinct reasons per point: a chart's hover names why, the runs list has every one. */
const REASONS_SHOWN = 5;

/**
 * The reasons behind the verdicts of phases judged warning or invalid, by phase id, in one query (valid phases have
 * none to say, so most answers read nothing): what the views show on hover beside a hollow marker.
 */
export async function phaseReasons(db: Db, phases: readonly { phaseId: number; verdict: string }[]): Promise<Map<number, string[]>> {
  const ids = [...new Set(phases.filter((p) => p.verdict !== "valid").map((p) => Number(p.phaseId)))];
  const out = new Map<number, string[]>();
  if (ids.length === 0) return out;
  const rows = await db.$queryRaw<{ phaseId: number; reasons: unknown }[]>`
    SELECT c.phase_id AS "phaseId", v.reasons FROM client_results c JOIN validity_verdicts v ON v.client_result_id = c.id
    WHERE c.phase_id = ANY(${ids}::int[]) AND v.reasons <> '[]'::jsonb ORDER BY c.phase_id, c.client_index`;
  for (const r of rows) for (const reason of storedReasons(r.reasons)) pushTo(out, Number(r.phaseId), reason);
  return out;
}

/** The verdict of a drawn point (the worst of the phases it counts) and their distinct reasons. */
export function pointVerdict(phases: readonly { phaseId: number; verdict: string }[], reasons: Map<number, string[]>): { verdict: string; reasons: string[] } {
  const all = [...new Set(phases.flatMap((p) => reasons.get(Number(p.phaseId)) ?? []))];
  return { verdict: worstVerdict(phases.map((p) => p.verdict)), reasons: all.slice(0, REASONS_SHOWN) };
}
