import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  millisecondBuckets,
  percentileSpectrum,
  SPECTRUM_PERCENTILES,
} from "../../model/aggregate/latency-distribution.js";
import { createHistogram } from "../../model/hdr/histogram.js";
import { HdrMerger } from "../../model/hdr/index.js";

const log = (client: number, op: string) =>
  readFileSync(new URL(`../fixtures/ycsb/hdr-v2/client-${client}/${op}.hdr`, import.meta.url), "utf8");

describe("latency distribution of a merged HDR histogram", () => {
  const merger = new HdrMerger();
  for (const c of [0, 1]) merger.addLog({ client: `c${c}`, operation: "READ", text: log(c, "READ") });
  merger.result();
  const h = merger.histogram("READ")!;

  it("spectrum: the histogram's own value at every percentile it resolves, rising, stopping before the max repeats", () => {
    const points = percentileSpectrum(h);
    expect(points.length).toBeGreaterThan(20);
    for (const p of points) expect(p.valueUs).toBe(h.getValueAtPercentile(p.percentile));
    for (let i = 1; i < points.length; i++) expect(points[i]!.valueUs).toBeGreaterThanOrEqual(points[i - 1]!.valueUs);
    const last = points.at(-1)!.percentile;
    expect((100 - last) / 100).toBeGreaterThanOrEqual(1 / h.totalCount);
    const next = SPECTRUM_PERCENTILES[SPECTRUM_PERCENTILES.indexOf(last) + 1]!;
    expect((100 - next) / 100).toBeLessThan(1 / h.totalCount);
    expect(SPECTRUM_PERCENTILES.slice(9, 20)).toEqual([90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 99.1]);
  });

  it("buckets: every recording in exactly one millisecond bucket, as YCSB labels them", () => {
    const buckets = millisecondBuckets(h);
    expect(buckets.reduce((a, b) => a + b.count, 0)).toBe(h.totalCount);
    expect(Number(buckets[0]!.bucket)).toBe(Math.floor(h.minNonZeroValue / 1000));
    const labels = buckets.map((b) => Number(b.bucket));
    expect(labels).toEqual([...labels].sort((a, b) => a - b));
  });

  it("buckets: values past the last bucket go to the overflow, values on a boundary to the bucket they open", () => {
    const small = createHistogram({ lowestDiscernibleValue: 1, numberOfSignificantValueDigits: 3 }, 3_600_000_000);
    for (const us of [999, 1000, 1999, 2000, 2_500_000]) small.recordValue(us);
    expect(millisecondBuckets(small, 1000)).toEqual([
      { bucket: "0", count: 1 },
      { bucket: "1", count: 2 },
      { bucket: "2", count: 1 },
      { bucket: ">1000", count: 1 },
    ]);
    expect(
      percentileSpectrum(createHistogram({ lowestDiscernibleValue: 1, numberOfSignificantValueDigits: 3 })),
    ).toEqual([]);
  });
});
