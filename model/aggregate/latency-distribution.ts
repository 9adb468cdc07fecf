import type { JsHistogram } from "hdr-histogram-js";

/**
 * The whole latency distribution of a merged HDR histogram, for the dashboard's latency view: a percentile
 * spectrum (HdrHistogram's percentile plot) and one-millisecond buckets (the form of YCSB's
 * measurementtype=histogram and of seed 004's latency histograms), so every phase measured with HDR logs has both,
 * not only the five percentiles YCSB prints.
 */
export interface SpectrumPoint {
  percentile: number;
  valueUs: number;
}

/**
 * 0, 10, ..., 90, then nine points in each decade of the spectrum's 1/(1-p) axis (91..99, 99.1..99.9, 99.91..99.99,
 * ...), as HdrHistogram's percentile plots show a distribution; the last, 99.99999, needs ten million recordings.
 */
export const SPECTRUM_PERCENTILES: readonly number[] = (() => {
  const out = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90];
  for (let decade = 1; decade <= 6; decade++)
    for (let m = 9; m >= 1; m--) out.push(Number((100 - m * 10 ** (1 - decade)).toFixed(decade - 1)));
  return out;
})();

/**
 * The value at each spectrum percentile the histogram resolves: a percentile whose tail holds less than one
 * recording (1 - p < 1/count) would only repeat the maximum, so the spectrum stops before it.
 */
export function percentileSpectrum(h: JsHistogram): SpectrumPoint[] {
  const count = h.totalCount;
  if (count === 0) return [];
  return SPECTRUM_PERCENTILES.filter((p) => (100 - p) / 100 >= 1 / count).map((percentile) => ({
    percentile,
    valueUs: h.getValueAtPercentile(percentile),
  }));
}

/** YCSB's default `histogram.buckets`: 1 ms buckets 0..999, then ">1000" for everything slower (OneMeasurementHistogram). */
export const MILLISECOND_BUCKETS = 1000;

/**
 * Recordings per millisecond of latency, labelled as YCSB prints its histogram ("0" = [0, 1) ms, ..., ">1000"),
 * empty buckets left out. Each HDR bucket counts where its lowest equivalent value falls: HdrHistogram's resolution
 * (3 significant digits) is finer than 1 ms below about 2 s, so no bucket is split there.
 */
export function millisecondBuckets(h: JsHistogram, buckets = MILLISECOND_BUCKETS): { bucket: string; count: number }[] {
  const counts = new Map<number, number>();
  for (let i = 0; i < h.countsArrayLength; i++) {
    const n = h.getCountAtIndex(i);
    if (n === 0) continue;
    const ms = Math.min(buckets, Math.floor(h.lowestEquivalentValue(h.valueFromIndex(i)) / 1000));
    counts.set(ms, (counts.get(ms) ?? 0) + n);
  }
  return [...counts.entries()]
    .sort(([a], [b]) => a - b)
    .map(([ms, count]) => ({ bucket: ms === buckets ? `>${buckets}` : String(ms), count }));
}
