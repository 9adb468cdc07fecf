/**
 * Each run's headline kept on its row (runs.headline): its phase count, its workloads and its peak (runPeak), what the
 * runs explorer and the timeline show for every run listed. Computed from a page's phases at each request, a /runs
 * page of 100 runs read and took apart about 3,600 phases, the slowest answer beside a writer on both stores (issue 28,
 * docs/benchmarks.md). A write marks the runs it stored phases for ("r:<run id>" in dirty_groups, refresh.ts) and the
 * settler recounts them (settle.ts), in the transaction that takes the mark; a reader uses a kept headline only where
 * no mark is pending, read in the same statement, and counts the others from their phases as before.
 */
import { LIMITS } from "../../../model/result-limits.js";
import { Prisma } from "../../../prisma/generated/client.js";
import { sqlReader } from "../../db/pg-direct.js";
import { type PeakPhase, runPeak } from "../queries/run-peak.js";
import { storedCount, storedNumber, storedObject } from "../stored-values.js";
import type { Writer } from "./writer.js";

export interface RunHeadline {
  /** How many phases the run has stored. */
  phases: number;
  /** The most records a phase of it was given (YCSB recordcount): the scale it ran at (model/local-cell.ts). */
  records: number | null;
  /** Its workloads (load phases left out), in phase order. */
  workloads: string[];
  peak: ReturnType<typeof runPeak>;
}

export const runDirtyId = (runId: string) => `r:${runId}`;

/** A phase's fields a headline reads: its peak fields and its YCSB recordcount, if it states one. */
export type HeadlinePhase = PeakPhase & { records: number | null };

/** The headline of one run from its phases, in phase order (pure). */
export function runHeadline(phases: readonly HeadlinePhase[]): RunHeadline {
  const records = phases.flatMap((p) => (p.records === null ? [] : [p.records]));
  return {
    phases: phases.length,
    records: records.length ? Math.max(...records) : null,
    workloads: [...new Set(phases.flatMap((p) => (p.workload && p.kind !== "load" ? [p.workload] : [])))],
    peak: runPeak(phases),
  };
}

/** The phase fields a headline needs, by run, in phase order. */
async function peakPhases(db: Writer, runIds: readonly string[]): Promise<Map<string, HeadlinePhase[]>> {
  const out = new Map<string, HeadlinePhase[]>(runIds.map((id) => [id, []]));
  if (runIds.length === 0) return out;
  const rows = await sqlReader(db).$queryRaw<(HeadlinePhase & { runId: string })[]>`
    SELECT p.run_id AS "runId", p.name, p.index, p.kind, p.workload, p.throughput_sum AS "throughputSum",
           p.clients_reported AS "clientsReported", p.clients, p.threads_per_client AS "threadsPerClient", p.target,
           p.repeat, p.verdict,
           CASE WHEN p.properties->>'recordcount' ~ '^[0-9]{1,15}$' THEN (p.properties->>'recordcount')::float8 END AS records
    FROM phases p WHERE p.run_id = ANY(${[...runIds]}::text[]) ORDER BY p.run_id, p.index`;
  for (const { runId, ...p } of rows)
    out.get(runId)?.push({
      ...p,
      index: Number(p.index),
      throughputSum: Number(p.throughputSum),
      clientsReported: Number(p.clientsReported),
      clients: Number(p.clients),
      threadsPerClient: Number(p.threadsPerClient),
      target: p.target === null ? null : Number(p.target),
      repeat: Number(p.repeat),
      records: p.records === null ? null : Number(p.records),
    });
  return out;
}

/**
 * These runs' headlines recounted from their phases and kept (the settler, the rebuild); a run gone is skipped. A run
 * whose row a write holds (its totals and end, kept under the row's lock until it commits) is not waited for: it is
 * marked again for the next round. Waiting there would deadlock: that write waits for the marks this transaction took.
 * Returns how many were marked again.
 */
export async function refreshRunHeadlines(tx: Writer, runIds: readonly string[]): Promise<number> {
  if (runIds.length === 0) return 0;
  const ids = [...new Set(runIds)].sort();
  // Each run by its key, in id order (OFFSET 0 keeps a lookup a lookup: on a small table the planner would scan every
  // run for the few named); a run a write holds is skipped, not waited for.
  const free = new Set(
    (
      await tx.$queryRaw<{ id: string }[]>`
        SELECT r.id FROM unnest(${ids}::text[]) WITH ORDINALITY AS x(id, n)
        CROSS JOIN LATERAL (SELECT id FROM runs WHERE runs.id = x.id OFFSET 0 FOR UPDATE SKIP LOCKED) r ORDER BY x.n`
    ).map((r) => r.id),
  );
  const skipped = ids.filter((id) => !free.has(id));
  // Of those, the runs still stored (a run deleted since its mark is not marked again).
  const held = skipped.length
    ? (
        await tx.$queryRaw<{ id: string }[]>`
          SELECT r.id FROM unnest(${skipped}::text[]) AS x(id)
          CROSS JOIN LATERAL (SELECT id FROM runs WHERE runs.id = x.id OFFSET 0) r`
      ).map((r) => r.id)
    : [];
  if (held.length)
    await tx.$executeRaw`INSERT INTO dirty_groups (id, whole) SELECT ${runDirtyId("")} || x, true FROM unnest(${held}::text[]) AS x`;
  if (free.size === 0) return held.length;
  const phases = await peakPhases(tx, [...free]);
  const rows = [...phases].map(([id, ps]) => ({ id, headline: runHeadline(ps) }));
  await tx.$executeRaw`
    UPDATE runs r SET headline = x.headline FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(id text, headline jsonb)
    WHERE r.id = x.id`;
  return held.length;
}

/** A run's kept headline as read beside its pending mark (HEADLINE_MARK, HEADLINE_PENDING), in one snapshot. */
export interface KeptHeadline {
  id: string;
  headline: unknown;
  pending: boolean;
}

/** The join of a run `r`'s first pending mark, by key (a statement reading runs adds it to read their headlines). */
export const HEADLINE_MARK = Prisma.sql`LEFT JOIN LATERAL (SELECT true AS pending FROM dirty_groups d WHERE d.id = 'r:' || r.id LIMIT 1) d ON true`;
/** Whether a mark is pending for the run (with HEADLINE_MARK). */
export const HEADLINE_PENDING = Prisma.sql`d.pending IS NOT NULL AS pending`;

/**
 * The headlines of these runs: kept, where no write since is waiting to be settled (the mark and the headline read in
 * one statement, so one snapshot), else counted from their phases now. Each run's marks are looked up by key, the first
 * found enough (LIMIT 1 also keeps the lookup a lookup: as a hashed subplan the planner read every mark pending).
 */
export async function headlinesOf(db: Writer, runIds: readonly string[]): Promise<Map<string, RunHeadline>> {
  if (runIds.length === 0) return new Map();
  const kept = await sqlReader(db).$queryRaw<KeptHeadline[]>`
    SELECT r.id, r.headline, ${HEADLINE_PENDING} FROM runs r ${HEADLINE_MARK} WHERE r.id = ANY(${[...runIds]}::text[])`;
  return headlinesFromKept(db, kept);
}

/** The headlines of runs read with their marks: each kept one where no mark is pending, else counted from its phases. */
export async function headlinesFromKept(db: Writer, kept: readonly KeptHeadline[]): Promise<Map<string, RunHeadline>> {
  const out = new Map<string, RunHeadline>();
  const counted: string[] = [];
  for (const k of kept) {
    const h = k.pending ? null : storedHeadline(k.headline);
    if (h) out.set(k.id, h);
    else counted.push(k.id);
  }
  for (const [id, ps] of await peakPhases(db, counted)) out.set(id, runHeadline(ps));
  return out;
}

/** A kept headline as the API serves it, or null when it is of another shape (counted from the phases then). */
function storedHeadline(v: unknown): RunHeadline | null {
  const o = storedObject(v);
  if (!o || !Array.isArray(o.workloads) || storedCount(o.phases) === null) return null;
  if (o.records !== null && storedNumber(o.records, Number.MAX_SAFE_INTEGER) === null) return null;
  const head = {
    phases: Number(o.phases),
    records: o.records === null ? null : Number(o.records),
    workloads: o.workloads.map(String),
  };
  if (o.peak === null) return { ...head, peak: null };
  const peak = storedObject(o.peak);
  const throughput = storedObject(peak?.throughput);
  if (!peak || !throughput || typeof peak.workload !== "string" || typeof peak.phase !== "string") return null;
  return {
    ...head,
    peak: {
      workload: peak.workload,
      phase: peak.phase,
      threads: Number(peak.threads),
      target: storedNumber(peak.target, LIMITS.throughputOpsSec),
      throughput: throughput as NonNullable<RunHeadline["peak"]>["throughput"],
    },
  };
}
