import { describe, expect, it } from "vitest";
import {
  DETECTOR_FIGURES,
  detectableChange,
  historyNoise,
  outlierRuns,
  tCritical,
} from "../../model/change-point-power.js";
import { findChangePoints } from "../../model/change-points.js";
import { seededRandom as random } from "../support/seeded-random.js";

function noisy(levels: readonly [number, number][], relativeSd: number, seed: number): number[] {
  const r = random(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
  return levels.flatMap(([count, level]) => Array.from({ length: count }, () => level * (1 + relativeSd * gauss())));
}

/** Seeded histories of n runs at `noise` with a step of `step` in the middle: how many the detector flags. */
function flagged(n: number, noise: number, step: number, histories = 200): number {
  let found = 0;
  for (let i = 0; i < histories; i++) {
    const series = noisy(
      [
        [n / 2, 10_000],
        [n / 2, 10_000 * (1 - step)],
      ],
      noise,
      5000 + i,
    );
    if (findChangePoints(series).length > 0) found++;
  }
  return found;
}

describe("what a history can show: the smallest detectable change, its noise, its outliers", () => {
  it("the t critical value is Student's (two-sided 5 % at 10 df: 2.228; 0.1 % at 38 df: 3.566)", () => {
    expect(tCritical(0.05, 10)).toBeCloseTo(2.228, 2);
    expect(tCritical(0.001, 38)).toBeCloseTo(3.566, 2);
  });

  it("the stated change is flagged in about 4 of 5 seeded histories, at every length; half of it rarely", () => {
    const step = detectableChange(40, 0.03)!;
    // 40 runs at 3 % noise: a step near 5 % (the Bonferroni factor over 35 splits puts the bar above Otava's).
    expect(step).toBeGreaterThan(0.045);
    expect(step).toBeLessThan(0.06);
    for (const [n, noise] of [
      [20, 0.03],
      [40, 0.03],
      [80, 0.02],
      [200, 0.03],
    ] as const) {
      const d = detectableChange(n, noise)!;
      expect(flagged(n, noise, d), `${n} runs at ${noise}`).toBeGreaterThanOrEqual(150);
      expect(flagged(n, noise, d), `${n} runs at ${noise}`).toBeLessThanOrEqual(185);
      expect(flagged(n, noise, d / 2), `half of it, ${n} runs`).toBeLessThan(30);
    }
    // Noise alone: none of 200 histories flagged.
    expect(flagged(40, 0.03, 0)).toBe(0);
  });

  it("the figures the method text prints are this detector's (20 + 20 runs, 3 % noise, found at the step ±1)", () => {
    const atStep = (step: number) =>
      Array.from({ length: DETECTOR_FIGURES.histories }, (_, i) =>
        noisy(
          [
            [20, 10_000],
            [20, 10_000 * (1 - step)],
          ],
          0.03,
          5000 + i,
        ),
      ).filter((s) => findChangePoints(s).some((c) => (step === 0 ? true : Math.abs(c.index - 20) <= 1))).length;
    expect({ noise: atStep(0), five: atStep(0.05), three: atStep(0.03) }).toEqual({
      noise: DETECTOR_FIGURES.noiseOnlyFlagged,
      five: DETECTOR_FIGURES.fivePercentFound,
      three: DETECTOR_FIGURES.threePercentFound,
    });
  });

  it("more runs or less noise show smaller changes; too short a history shows none", () => {
    expect(detectableChange(80, 0.03)!).toBeLessThan(detectableChange(40, 0.03)!);
    expect(detectableChange(40, 0.01)!).toBeCloseTo(detectableChange(40, 0.03)! / 3, 9);
    expect(detectableChange(5, 0.03)).toBeNull();
  });

  it("noise is pooled within the segments, so a step is not noise", () => {
    const series = noisy(
      [
        [20, 10_000],
        [20, 8_000],
      ],
      0.02,
      7,
    );
    const changes = findChangePoints(series);
    expect(changes.map((c) => c.index)).toEqual([20]);
    expect(historyNoise(series, changes)!).toBeGreaterThan(0.015);
    expect(historyNoise(series, changes)!).toBeLessThan(0.025);
    expect(historyNoise(series, [])!).toBeGreaterThan(0.08);
  });

  it("a single outlier run is marked in its segment, and a step is not an outlier", () => {
    const series = noisy(
      [
        [20, 10_000],
        [20, 9_000],
      ],
      0.01,
      9,
    );
    series[31] = 6_000;
    const changes = findChangePoints(series);
    expect(changes.map((c) => c.index)).toEqual([20]);
    expect(outlierRuns(series, changes)).toEqual([31]);
    expect(outlierRuns(noisy([[40, 10_000]], 0.01, 10), [])).toEqual([]);
  });
});
