import { describe, expect, it } from "vitest";
import { findChangePoints, studentTTest } from "../../model/change-points.js";
import { againstNoise, baselineFor, compareVersions, historyOrder } from "../../model/history.js";
import { seededRandom as random } from "../support/seeded-random.js";

function noisy(levels: readonly [number, number][], relativeSd: number, seed: number): number[] {
  const r = random(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
  return levels.flatMap(([count, level]) => Array.from({ length: count }, () => level * (1 + relativeSd * gauss())));
}

describe("change points (E-Divisive means, Student's t significance)", () => {
  it("finds a planted 12 % drop where it was planted", () => {
    const series = noisy(
      [
        [22, 10_000],
        [18, 8_800],
      ],
      0.01,
      1,
    );
    const found = findChangePoints(series);
    expect(found.map((c) => c.index)).toEqual([22]);
    expect(found[0]!.change).toBeCloseTo(-0.12, 1);
    expect(found[0]!.pValue).toBeLessThan(0.001);
  });

  it("finds two steps, and a 3 % one within 1 % noise", () => {
    expect(
      findChangePoints(
        noisy(
          [
            [20, 10_000],
            [20, 8_000],
            [20, 10_500],
          ],
          0.01,
          2,
        ),
      ).map((c) => c.index),
    ).toEqual([20, 40]);
    expect(
      findChangePoints(
        noisy(
          [
            [20, 10_000],
            [20, 9_700],
          ],
          0.01,
          3,
        ),
      ).map((c) => c.index),
    ).toEqual([20]);
  });

  it("flags no change in noise alone: 500 seeded histories of 40 runs with 2 % noise", () => {
    const flagged = Array.from(
      { length: 500 },
      (_, i) => findChangePoints(noisy([[40, 10_000]], 0.02, 100 + i)).length,
    ).filter((n) => n > 0);
    expect(flagged).toEqual([]);
  });

  it("needs a few runs on each side", () => {
    expect(findChangePoints([100, 100, 50, 50])).toEqual([]);
    expect(findChangePoints([])).toEqual([]);
  });

  it("t-test: identical samples p = 1, far apart p tiny", () => {
    expect(studentTTest([1, 2, 3, 4], [1, 2, 3, 4])).toBeCloseTo(1, 9);
    expect(studentTTest([1, 2, 3], [10, 11, 12])).toBeLessThan(0.001);
  });
});

describe("histories", () => {
  it("orders engine versions as releases, not as text", () => {
    expect(["5.0.10", "5.0.4", "5.0.5", "4.1.2", "5.1.0-beta1", "5.1.0"].sort(compareVersions)).toEqual([
      "4.1.2",
      "5.0.4",
      "5.0.5",
      "5.0.10",
      "5.1.0-beta1",
      "5.1.0",
    ]);
    const runs = [
      { id: "b", engineVersion: "5.0.5", startedAt: "2026-01-01T00:00:00Z" },
      { id: "a", engineVersion: "5.0.4", startedAt: "2026-01-02T00:00:00Z" },
    ];
    expect(historyOrder(runs, "time").map((r) => r.id)).toEqual(["b", "a"]);
    expect(historyOrder(runs, "version").map((r) => r.id)).toEqual(["a", "b"]);
  });

  it("a difference exceeds the noise only beyond the repeats' combined CI", () => {
    const base = { mean: 1000, ci95: { halfWidth: 30 } };
    expect(againstNoise(base, { mean: 880, ci95: { halfWidth: 40 } })).toEqual({
      change: -0.12,
      noise: 0.05,
      verdict: "exceeds noise",
    });
    expect(againstNoise(base, { mean: 980, ci95: { halfWidth: 40 } }).verdict).toBe("within noise");
    expect(againstNoise(base, { mean: 880, ci95: null }).verdict).toBe("noise unknown");
  });
});

describe("baselineFor: the pinned run a view's series is compared with", () => {
  const pinned = (runId: string, instanceType: string, mean: number | null) => ({
    runId,
    engineVersion: "5.0.4",
    configuration: { scenario: "s", engine: "cassandra", preset: "balanced", nodes: 3, instanceType },
    workloads: [{ workload: "a", threads: 16, throughput: { mean } }],
  });
  const series = { scenario: "s", engine: "cassandra", preset: "balanced", nodes: 3 };
  it("matches scenario, engine, preset and nodes, and the workload's peak", () => {
    expect(baselineFor([pinned("r1", "m5.large", 1000)], series, "a")).toEqual({
      runId: "r1",
      engineVersion: "5.0.4",
      threads: 16,
      throughputOpsSec: 1000,
    });
    expect(baselineFor([pinned("r1", "m5.large", 1000)], series, "b")).toBeUndefined();
    expect(baselineFor([pinned("r1", "m5.large", 1000)], { ...series, nodes: 4 }, "a")).toBeUndefined();
    expect(baselineFor([pinned("r1", "m5.large", null)], series, "a")).toBeUndefined();
  });
  it("two instance types pinned: the one asked for, and none when the series does not say which", () => {
    const both = [pinned("r1", "m5.large", 1000), pinned("r2", "i4i.xlarge", 2000)];
    expect(baselineFor(both, { ...series, instanceType: "i4i.xlarge" }, "a")?.runId).toBe("r2");
    expect(baselineFor(both, series, "a")).toBeUndefined();
  });
});
