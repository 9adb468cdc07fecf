/** GET /runs/:id/phases/:phase/series: one phase's status lines and latency histograms per client, for its charts. */
import {
  mergeHistogramsOrNothing,
  millisecondBuckets,
  percentileSpectrum,
  type SpectrumPoint,
} from "../../../model/aggregate/index.js";
import { LIMITS } from "../../../model/result-limits.js";
import type { Db } from "../../db/client.js";
import { sqlReader } from "../../db/pg-direct.js";
import { storedBuckets, storedColumn, storedObject } from "../stored-values.js";

interface SeriesRow {
  name: string;
  clients: number;
  clientRows: { clientIndex: number; points: unknown; histograms: { operation: string; buckets: unknown }[] }[];
  operations: { operation: string; clients: number; hdrHistogram: string | null }[];
}

/**
 * The per-client detail of one phase the dashboard plots (issue 7): status lines and latency histogram buckets. One
 * statement (on Postgres on the pool directly: api/db/pg-direct.ts): the phase with its clients' series and histograms
 * and its kept groups' merged histograms, built as json by the database.
 */
export async function phaseSeries(db: Db, runId: string, phase: string) {
  const [p] = await sqlReader(db).$queryRaw<SeriesRow[]>`
    SELECT p.name, p.clients, c.rows AS "clientRows", o.rows AS operations
    FROM phases p
    CROSS JOIN LATERAL (
      SELECT coalesce(json_agg(json_build_object('clientIndex', c.client_index, 'points', s.points, 'histograms', h.rows)
               ORDER BY c.client_index), '[]'::json) AS rows
      FROM client_results c
      LEFT JOIN status_series s ON s.client_result_id = c.id
      CROSS JOIN LATERAL (
        SELECT coalesce(json_agg(json_build_object('operation', x.operation, 'buckets', x.histogram_buckets)), '[]'::json) AS rows
        FROM operation_stats x WHERE x.client_result_id = c.id AND x.histogram_buckets IS NOT NULL) h
      WHERE c.phase_id = p.id) c
    CROSS JOIN LATERAL (
      SELECT coalesce(json_agg(json_build_object('operation', o.operation, 'clients', o.clients, 'hdrHistogram', o.hdr_histogram)
               ORDER BY o.operation), '[]'::json) AS rows
      FROM phase_operations o WHERE o.phase_id = p.id) o
    WHERE p.run_id = ${runId} AND p.name = ${phase}`;
  if (!p) return null;
  return {
    runId,
    phase: p.name,
    clients: p.clientRows.map((c) => ({
      clientIndex: Number(c.clientIndex),
      status: throughputColumns(c.points),
      histograms: Object.fromEntries(
        c.histograms.flatMap((o) => {
          const buckets = storedBuckets(o.buckets);
          return buckets ? [[o.operation, buckets]] : [];
        }),
      ),
    })),
    latency: phaseDistributions(
      Math.max(Number(p.clients), p.clientRows.length),
      p.operations.map((o) => ({ ...o, clients: Number(o.clients) })),
    ),
  };
}

/**
 * The whole distribution of each operation from the clients' merged HDR histograms (kept by ingest per phase): only
 * where every client of the phase has one (a partial merge would understate the tail), and labelled merged-hdr.
 */
function phaseDistributions(
  clients: number,
  operations: { operation: string; clients: number; hdrHistogram: string | null }[],
) {
  const out: Record<
    string,
    {
      method: "merged-hdr";
      clients: number;
      count: number;
      spectrum: SpectrumPoint[];
      buckets: { bucket: string; count: number }[];
    }
  > = {};
  for (const o of operations) {
    if (!o.hdrHistogram || o.clients < clients) continue;
    const h = mergeHistogramsOrNothing([o.hdrHistogram]);
    if (!h || h.totalCount === 0) continue;
    out[o.operation] = {
      method: "merged-hdr",
      clients: o.clients,
      count: h.totalCount,
      spectrum: percentileSpectrum(h),
      buckets: millisecondBuckets(h),
    };
  }
  return out;
}

/**
 * status_series.points holds the result document's columnar statusSeries (model/status-series.ts); the dashboard
 * needs two of its columns. Rows stored before the columnar contract hold an array of points: read those too.
 */
function throughputColumns(points: unknown): { elapsedSec: number[]; opsPerSec: (number | null)[] } {
  const [elapsed, ops] = Array.isArray(points)
    ? [
        storedColumn(
          points.map((p) => storedObject(p)?.elapsedSec),
          LIMITS.elapsedSec,
        ),
        storedColumn(
          points.map((p) => storedObject(p)?.opsPerSec),
          LIMITS.throughputOpsSec,
        ),
      ]
    : [
        storedColumn(storedObject(points)?.elapsedSec, LIMITS.elapsedSec),
        storedColumn(storedObject(points)?.opsPerSec, LIMITS.throughputOpsSec),
      ];
  // A line without its elapsed time cannot be placed: left out, with its throughput.
  const out = { elapsedSec: [] as number[], opsPerSec: [] as (number | null)[] };
  elapsed.forEach((t, i) => {
    if (t === null) return;
    out.elapsedSec.push(t);
    out.opsPerSec.push(ops[i] ?? null);
  });
  return out;
}
