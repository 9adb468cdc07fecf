import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseYcsbOutput } from "../../runner/ycsb-output/index.js";
import { findKnee, histogramBars, percentileSpectrum, publishedMs, spectrumTickLabel } from "../../web/src/analysis.js";
import { shortCitation } from "../../web/src/views/common.js";

const fixture = (name: string, file: string) =>
  readFileSync(new URL(`../fixtures/ycsb/${name}/${file}`, import.meta.url), "utf8");

describe("findKnee", () => {
  it("finds where p99 starts to climb while throughput flattens", () => {
    // threads 1..64: throughput saturates near 40k ops/s while p99 explodes after 16 threads.
    const sweep = [
      { x: 5_000, y: 1.0 },
      { x: 10_000, y: 1.1 },
      { x: 20_000, y: 1.3 },
      { x: 35_000, y: 1.8 },
      { x: 39_000, y: 6.0 },
      { x: 40_000, y: 25.0 },
    ];
    expect(findKnee(sweep)).toBe(3);
  });
  it("has no knee below three points or on a flat axis", () => {
    expect(
      findKnee([
        { x: 1, y: 1 },
        { x: 2, y: 3 },
      ]),
    ).toBe(-1);
    expect(
      findKnee([
        { x: 1, y: 2 },
        { x: 2, y: 2 },
        { x: 3, y: 2 },
      ]),
    ).toBe(-1);
  });
});

describe("percentileSpectrum", () => {
  it("places percentiles at 1/(1-p) in ms and drops p100", () => {
    const pts = percentileSpectrum({ "99.9": 41_000, "50": 800, "95": 3_000, "99": 8_000, "100": 90_000 });
    expect(pts.map((p) => p.label)).toEqual(["50", "95", "99", "99.9"]);
    expect(pts[2]!.x).toBeCloseTo(100);
    expect(pts[3]!.x).toBeCloseTo(1000);
    expect(pts[3]!.y).toBe(41);
  });
  it("labels spectrum ticks as percentiles", () => {
    expect(spectrumTickLabel(10)).toBe("90%");
    expect(spectrumTickLabel(1000)).toBe("99.9%");
  });
});

describe("histogramBars on real YCSB histogram output", () => {
  const out = parseYcsbOutput(fixture("histogram", "stdout.txt"), fixture("histogram", "stderr.txt"));
  const scan = out.operations.SCAN!;
  it("keeps every non-empty bucket in latency order with the overflow last", () => {
    expect(scan.histogramBuckets?.length).toBeGreaterThan(0);
    const bars = histogramBars(scan.histogramBuckets!);
    const total = bars.reduce((a, b) => a + b.count, 0);
    expect(total).toBe(scan.histogramBuckets!.reduce((a, b) => a + b.count, 0));
    expect(bars.every((b, i) => i === 0 || b.fromMs > bars[i - 1]!.fromMs)).toBe(true);
    expect(bars.every((b) => b.count > 0)).toBe(true);
  });
  it("puts the overflow bucket after the last numbered one", () => {
    const bars = histogramBars([
      { bucket: ">19", count: 2 },
      { bucket: "3", count: 5 },
      { bucket: "0", count: 0 },
    ]);
    expect(bars).toEqual([
      { bucket: "3", fromMs: 3, count: 5 },
      { bucket: ">19", fromMs: 20, count: 2 },
    ]);
  });
});

describe("publishedMs", () => {
  it("reads seed 004's printed latencies, a bound as a bound, and nothing else", () => {
    expect(publishedMs("4ms")).toEqual({ ms: 4, below: false });
    expect(publishedMs("203ms")).toEqual({ ms: 203, below: false });
    expect(publishedMs("<1ms")).toEqual({ ms: 1, below: true });
    expect(publishedMs(" 1.5 ms ")).toEqual({ ms: 1.5, below: false });
    for (const other of ["", "n/a", "4s", "ms", 4, null]) expect(publishedMs(other)).toBeNull();
  });
});

describe("shortCitation", () => {
  it("keeps authors and year of the seeds' citations, and anything else whole", () => {
    expect(shortCitation('End Point Corporation / DataStax, "Benchmarking Top NoSQL Databases", 2013', "001")).toBe(
      "End Point Corporation / DataStax 2013 (seed 001)",
    );
    expect(
      shortCitation(
        'C.-F. Andor and B. Pârv, "Runtime performance benchmarking for NoSQL databases", Studia Universitatis Babes-Bolyai Informatica, 2019',
      ),
    ).toBe("C.-F. Andor and B. Pârv 2019");
    expect(shortCitation("Lineate 2014 (seed 002), Throughput by cluster size 50% read / 50% write")).toBe(
      "Lineate 2014 (seed 002), Throughput by cluster size 50% read / 50% write",
    );
    expect(shortCitation("A study")).toBe("A study");
  });
});
