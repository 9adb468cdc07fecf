/**
 * What a history can show: the smallest step its change-point test (model/change-points.ts) would find at its noise
 * and length, and the runs that stand apart from their segment. "No change point" says nothing without the first: a
 * history of 10 noisy runs cannot show a 5 % regression. Pure.
 */
import { fDistributionSurvival } from "./anova.js";
import { CHANGE_POINT_DEFAULTS, type ChangePoint, type ChangePointOptions } from "./change-points.js";

/** Power the detectable change is stated at: found in 4 histories out of 5 (the usual 80 %). */
export const DETECTION_POWER = 0.8;
/** z of the power: the step must clear the critical value by this many standard errors (Φ⁻¹(0.8)). */
const Z_POWER = 0.8416;

/** The two-sided Student t critical value at p for df degrees of freedom (bisection on the t test's own p-value). */
export function tCritical(p: number, df: number): number {
  let [lo, hi] = [0, 1e3];
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (fDistributionSurvival(mid * mid, 1, df) > p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * The smallest relative step in the middle of a history of n runs with relative noise `noise` (standard deviation over
 * the mean) that the detector flags in 4 histories out of 5 (checked on seeded histories of 20 to 200 runs,
 * test/model/model-change-point-power.test.ts; the run it names is then within one of the step in most of them): the
 * t-test's critical value at its threshold (p <= 0.001 after the Bonferroni factor for the splits it tries) plus
 * z(0.8), in standard errors of a difference of the two halves' means. Null when the history is too short for two
 * segments.
 */
export function detectableChange(n: number, noise: number, options: ChangePointOptions = {}): number | null {
  const o = { ...CHANGE_POINT_DEFAULTS, ...options };
  if (!(n >= 2 * o.minSegment) || !(noise >= 0)) return null;
  const splits = n - 2 * o.minSegment + 1;
  const half = Math.floor(n / 2);
  const se = noise * Math.sqrt(1 / half + 1 / (n - half));
  const step = (tCritical(o.maxPValue / splits, n - 2) + Z_POWER) * se;
  return Math.max(step, o.minMagnitude);
}

function mean(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The history's segments between its change points, as [from, to) index ranges. */
export function segments(n: number, changes: readonly Pick<ChangePoint, "index">[]): [number, number][] {
  const cuts = [0, ...changes.map((c) => c.index).sort((a, b) => a - b), n];
  return cuts
    .slice(1)
    .map((to, i) => [cuts[i]!, to] as [number, number])
    .filter(([a, b]) => b > a);
}

/** Relative noise: the standard deviation pooled within segments (what the t-test sees), over the mean of all runs. */
export function historyNoise(values: readonly number[], changes: readonly Pick<ChangePoint, "index">[]): number | null {
  let ss = 0;
  let df = 0;
  for (const [a, b] of segments(values.length, changes)) {
    const seg = values.slice(a, b);
    if (seg.length < 2) continue;
    const m = mean(seg);
    ss += seg.reduce((acc, v) => acc + (v - m) ** 2, 0);
    df += seg.length - 1;
  }
  const overall = mean(values);
  return df > 0 && overall > 0 ? Math.sqrt(ss / df) / overall : null;
}

/** Iglewicz & Hoaglin's cut (1993): a modified z-score beyond 3.5 marks an outlier. */
export const OUTLIER_Z = 3.5;

/**
 * Runs that stand apart from their own segment: a modified z-score (0.6745 (x - median) / MAD) beyond 3.5 against
 * the segment between change points, so a step is not an outlier and an outlier is not a step. Indexes, in order.
 */
export function outlierRuns(values: readonly number[], changes: readonly Pick<ChangePoint, "index">[]): number[] {
  const out: number[] = [];
  for (const [a, b] of segments(values.length, changes)) {
    const seg = values.slice(a, b);
    if (seg.length < 5) continue;
    const m = median(seg);
    const mad = median(seg.map((v) => Math.abs(v - m)));
    if (!(mad > 0)) continue;
    seg.forEach((v, i) => {
      if (Math.abs((0.6745 * (v - m)) / mad) > OUTLIER_Z) out.push(a + i);
    });
  }
  return out;
}

/** What the detector did on 200 seeded histories of 20 + 20 runs at 3 % noise
 * (test/model/model-change-point-power.test.ts). */
export const DETECTOR_FIGURES = {
  histories: 200,
  noiseOnlyFlagged: 0,
  fivePercentFound: 121,
  threePercentFound: 15,
} as const;

/** How the detector departs from Apache Otava's defaults, in words the regressions page prints under its method. */
export const OTAVA_DIFFERENCE =
  "Apache Otava (formerly Hunter) tests each best split at p <= 0.001 as it stands; here its p-value is first multiplied by the number " +
  "of splits tried (Bonferroni) and each side keeps at least 3 runs, so noise alone raises no alarm at the price of missing more small " +
  `steps: on ${DETECTOR_FIGURES.histories} seeded histories of 20 + 20 runs at 3 % noise, ${DETECTOR_FIGURES.noiseOnlyFlagged} noise-only histories flagged, ` +
  `${DETECTOR_FIGURES.fivePercentFound} five-per-cent and ${DETECTOR_FIGURES.threePercentFound} three-per-cent steps found at the right run.`;
