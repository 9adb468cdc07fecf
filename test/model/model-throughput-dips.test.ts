import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DIP_MIN_SEC, DIP_RATIO, findThroughputDips } from "../../model/throughput-dips.js";
import { parseYcsbOutput } from "../../runner/ycsb-output/index.js";

const fixture = (name: string, file: string) =>
  readFileSync(new URL(`../fixtures/ycsb/${name}/${file}`, import.meta.url));
const seconds = (n: number) => Array.from({ length: n }, (_, i) => (i + 1) * 1);

describe("throughput dips (the runner's verdict and the dashboard's marks)", () => {
  it("a run under half the mean for ten seconds or more is a dip; its lines are the ones inside it", () => {
    const rates = [...Array(10).fill(1000), ...Array(12).fill(100), ...Array(11).fill(1000)];
    const dips = findThroughputDips(seconds(rates.length), rates);
    expect(dips).toEqual([
      { fromSec: 10, toSec: 22, minOpsPerSec: 100, lines: [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21] },
    ]);
    expect(DIP_RATIO).toBe(0.5);
    expect(DIP_MIN_SEC).toBe(10);
  });

  it("shorter drops, the last (partial) line, lines without a rate and 0 s are not dips", () => {
    const nine = [...Array(10).fill(1000), ...Array(9).fill(100), ...Array(11).fill(1000)];
    expect(findThroughputDips(seconds(nine.length), nine)).toEqual([]);
    const tail = [...Array(30).fill(1000), 10];
    expect(findThroughputDips(seconds(tail.length), tail)).toEqual([]);
    const gaps = [null, ...Array(30).fill(1000), null];
    expect(findThroughputDips([0, ...seconds(31)], gaps)).toEqual([]);
  });

  it("finds none in a real steady series, and finds one injected into it", () => {
    const { statusSeries: s } = parseYcsbOutput(
      fixture("timeseries", "stdout.txt"),
      fixture("timeseries", "stderr.txt"),
    );
    expect(s.opsPerSec.filter((r) => r !== null).length).toBeGreaterThan(2);
    expect(findThroughputDips(s.elapsedSec, s.opsPerSec)).toEqual([]);
    // Stretch the real series to a long run, then drop it to a tenth for 20 s before its last line.
    const n = s.elapsedSec.length;
    const rates = Array.from({ length: 60 }, (_, i) => s.opsPerSec[1 + (i % (n - 2))] ?? null);
    const elapsed = seconds(60);
    for (let i = 35; i < 55; i++) rates[i] = (rates[i] ?? 0) / 10;
    const dips = findThroughputDips(elapsed, rates);
    expect(dips).toHaveLength(1);
    expect(dips[0]).toMatchObject({ fromSec: 35, toSec: 55 });
  });
});
