/** GET /runs/:id/phases/:phase/series: one phase's status lines and latency histograms per client, for its charts. */
import {
  mergeHistogramsOrNothing,
  millisecondBuckets,
  percentileSpectrum,
  type SpectrumPoint,
} from "../../../model/aggregate/index.js";
import { LIMITS } from "../../../model/result-limits.js";
import type { Db } from "../../db/client.js";
import { storedBuckets, storedColumn, storedObject } from "../stored-values.js";

/** The per-client detail of one phase the dashboard plots (issue 7): status lines and latency histogram buckets. */
export async function phaseSeries(db: Db, runId: string, phase: string) {
  const p = await db.phase.findUnique({
    where: { runId_name: { runId, name: phase } },
    select: {
      name: true,
      clients: true,
      clientResults: {
        orderBy: { clientIndex: "asc" },
        select: {
          clientIndex: true,
          statusSeries: { select: { points: true } },
          operations: { select: { operation: true, histogramBuckets: true } },
        },
      },
      operations: { select: { operation: true, clients: true, hdrHistogram: true }, orderBy: { operation: "asc" } },
    },
  });
  if (!p) return null;
  return {
    runId,
    phase: p.name,
    clients: p.clientResults.map((c) => ({
      clientIndex: c.clientIndex,
      status: throughputColumns(c.statusSeries?.points),
      histograms: Object.fromEntries(
        c.operations.flatMap((o) => {
          const buckets = storedBuckets(o.histogramBuckets);
          return buckets ? [[o.operation, buckets]] : [];
        }),
      ),
    })),
    latency: phaseDistributions(Math.max(p.clients, p.clientResults.length), p.operations),
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
