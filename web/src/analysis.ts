/**
 * Pure chart-side analysis: the knee the dashboard marks on a sweep and how it lays out latency distributions.
 * Throughput dips are the runner's own rule (model/throughput-dips.ts); the ideal-linear line and scalability
 * score come from the API (model/aggregate/scaling.ts). No DOM, no fetch: unit-tested on its own.
 */

export interface XY {
  x: number;
  y: number;
}

/**
 * The knee of p99 latency against achieved throughput, by Kneedle (Satopää et al., ICDCS 2011):
 * points in sweep order, both axes normalised to [0,1], the knee is the point farthest below the chord
 * (x - y largest): latency still low while throughput is already high. Returns its index, or -1 when
 * fewer than three points or a flat axis make a knee meaningless.
 */
export function findKnee(points: readonly XY[]): number {
  if (points.length < 3) return -1;
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const [xMin, xMax] = [Math.min(...xs), Math.max(...xs)];
  const [yMin, yMax] = [Math.min(...ys), Math.max(...ys)];
  if (!(xMax > xMin) || !(yMax > yMin)) return -1;
  let best = -1;
  let bestGap = 0;
  points.forEach((p, i) => {
    const gap = (p.x - xMin) / (xMax - xMin) - (p.y - yMin) / (yMax - yMin);
    if (gap > bestGap) {
      bestGap = gap;
      best = i;
    }
  });
  return best;
}

export interface PercentilePoint {
  /** Percentile as printed ("99.9"). */
  label: string;
  percentile: number;
  /** 1 / (1 - p/100): the HdrHistogram percentile-spectrum x axis, log scale (p99 -> 100, p99.9 -> 1000). */
  x: number;
  /** Latency in ms. */
  y: number;
}

/** Latency by percentile for the HDR plot; p100 (the max) has no finite spectrum position and is dropped. */
export function percentileSpectrum(percentilesUs: Readonly<Record<string, number>>): PercentilePoint[] {
  const points: PercentilePoint[] = [];
  for (const [label, valueUs] of Object.entries(percentilesUs)) {
    const percentile = Number(label);
    if (!Number.isFinite(percentile) || percentile < 0 || percentile >= 100 || !Number.isFinite(valueUs)) continue;
    points.push({ label, percentile, x: 1 / (1 - percentile / 100), y: valueUs / 1000 });
  }
  return points.sort((a, b) => a.percentile - b.percentile);
}

/** Tick label for the spectrum axis: 10 -> "90%", 1000 -> "99.9%". */
export function spectrumTickLabel(x: number): string {
  const p = 100 * (1 - 1 / x);
  return `${Number(p.toFixed(4))}%`;
}

export interface HistogramBar {
  /** Bucket as printed by YCSB's histogram measurement: upper bound in ms, ">N" the overflow. */
  bucket: string;
  /** Lower edge in ms, for sorting and the x axis. */
  fromMs: number;
  count: number;
}

/**
 * YCSB `measurementtype=histogram` buckets in latency order with empty buckets kept out (the seed 004
 * histogram has a log-scale count axis, where zero has no place).
 */
export function histogramBars(buckets: readonly { bucket: string; count: number }[]): HistogramBar[] {
  const bars: HistogramBar[] = [];
  for (const b of buckets) {
    const overflow = b.bucket.startsWith(">");
    const n = Number(overflow ? b.bucket.slice(1) : b.bucket);
    if (!Number.isFinite(n) || b.count <= 0) continue;
    bars.push({ bucket: b.bucket, fromMs: overflow ? n + 1 : n, count: b.count });
  }
  return bars.sort((a, b) => a.fromMs - b.fromMs);
}

/**
 * A latency as seed 004 prints it in its tables: "4ms", "203ms", or "<1ms" (below the table's resolution: drawn at
 * 1 ms and marked as a bound). Null for anything else, never a guess.
 */
export function publishedMs(cell: unknown): { ms: number; below: boolean } | null {
  if (typeof cell !== "string") return null;
  const m = /^\s*(<)?\s*(\d+(?:\.\d+)?)\s*ms\s*$/.exec(cell);
  return m ? { ms: Number(m[2]), below: m[1] === "<" } : null;
}
