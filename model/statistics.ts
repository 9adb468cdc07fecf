/**
 * Statistics over repeats of the same measurement (seed 003 ran 3 repeats; seed 000 averaged 3 runs).
 * Pure functions; the API and the dashboard share them.
 */

/** Two-sided 95% Student t critical values by degrees of freedom (standard table, e.g. NIST/SEMATECH e-Handbook 1.3.6.7.2). */
const T95: Record<number, number> = {
  1: 12.706,
  2: 4.303,
  3: 3.182,
  4: 2.776,
  5: 2.571,
  6: 2.447,
  7: 2.365,
  8: 2.306,
  9: 2.262,
  10: 2.228,
  11: 2.201,
  12: 2.179,
  13: 2.16,
  14: 2.145,
  15: 2.131,
  16: 2.12,
  17: 2.11,
  18: 2.101,
  19: 2.093,
  20: 2.086,
  21: 2.08,
  22: 2.074,
  23: 2.069,
  24: 2.064,
  25: 2.06,
  26: 2.056,
  27: 2.052,
  28: 2.048,
  29: 2.045,
  30: 2.042,
  40: 2.021,
  60: 2.0,
  120: 1.98,
};

/** t(0.975, df); between table rows the next smaller df is used (a slightly wider, conservative interval). */
export function tCritical95(df: number): number {
  if (!Number.isInteger(df) || df < 1) throw new RangeError(`degrees of freedom must be an integer >= 1, got ${df}`);
  if (T95[df] !== undefined) return T95[df]!;
  if (df > 120) return 1.96;
  const lower = Object.keys(T95)
    .map(Number)
    .filter((k) => k <= df)
    .sort((a, b) => b - a)[0]!;
  return T95[lower]!;
}

export interface RepeatStatistics {
  n: number;
  mean: number | null;
  /** Sample standard deviation (n - 1); null below 2 values. */
  stdDev: number | null;
  /** 95% confidence interval of the mean (Student t); null below 2 values. */
  ci95: { low: number; high: number; halfWidth: number } | null;
  /** stdDev / mean; null below 2 values or for a zero mean. */
  coefficientOfVariation: number | null;
  /** (max - min) / min, the "maximum difference" seed 002 reports (4.5%); null for no values or min 0. */
  maxDifference: number | null;
  min: number | null;
  max: number | null;
}

export function repeatStatistics(values: readonly number[]): RepeatStatistics {
  const n = values.length;
  if (n === 0)
    return {
      n,
      mean: null,
      stdDev: null,
      ci95: null,
      coefficientOfVariation: null,
      maxDifference: null,
      min: null,
      max: null,
    };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const min = Math.min(...values);
  const max = Math.max(...values);
  const maxDifference = min > 0 ? (max - min) / min : null;
  if (n < 2) return { n, mean, stdDev: null, ci95: null, coefficientOfVariation: null, maxDifference, min, max };
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1);
  const stdDev = Math.sqrt(variance);
  const halfWidth = (tCritical95(n - 1) * stdDev) / Math.sqrt(n);
  return {
    n,
    mean,
    stdDev,
    ci95: { low: mean - halfWidth, high: mean + halfWidth, halfWidth },
    coefficientOfVariation: mean !== 0 ? stdDev / mean : null,
    maxDifference,
    min,
    max,
  };
}
