/**
 * Two-way analysis of variance of runtime by database (DB) and number of client threads (NT), as seed 003 (Andor &
 * Pârv 2019, section 3.2, Table 9) ran it with R's two-way ANOVA: sequential sums of squares in R's order (DB, NT,
 * DB:NT), F against the residual mean square, p from the F distribution.
 *
 * The input is one summary per cell (database x thread count): its number of repeats, their mean, and the spread
 * of the repeats about that mean when known. That is all a two-way ANOVA needs: effects are fitted on the cell means
 * weighted by their repeats, the residual adds the spread within the cells. Seed 003's Tables 1-8 print only the means
 * of 3 repeats; with the spread unknown (taken as 0) every F is an upper bound, and `withinKnown` says so.
 *
 * NT can be fitted as the paper did (one numeric regressor: 1, 2, 4, ... 512; Table 9's degrees of freedom are
 * 1, 1, 1 and 56 over 2 x 10 x 3 runs) or as the ten-level factor the paper describes (9 and 9 degrees of freedom).
 */

export interface CellSummary {
  database: string;
  threads: number;
  /** Repeats in the cell. */
  n: number;
  mean: number;
  /** Sum of squared deviations of the repeats from their mean; null when only the mean is known (a published table). */
  withinSumSq: number | null;
}

export type ThreadsAs = "numeric" | "levels";
export type AnovaTerm = "DB" | "NT" | "DB:NT" | "Residuals";

export interface AnovaRow {
  term: AnovaTerm;
  df: number;
  sumSq: number;
  /** null for the residual when it has no degrees of freedom. */
  meanSq: number | null;
  F: number | null;
  p: number | null;
  /** R's significance code: "***" p <= 0.001, "**" <= 0.01, "*" <= 0.05, "." <= 0.1, "" above. */
  significance: string;
}

export interface AnovaTable {
  threadsAs: ThreadsAs;
  rows: AnovaRow[];
  /** Runs behind the cells (the sum of their repeats). */
  observations: number;
  /** Whether every cell's spread was known; when not, F and p treat it as 0 (F an upper bound). */
  withinKnown: boolean;
  /** Why F could not be computed (no residual degrees of freedom or no residual variance), when so. */
  note?: string;
}

/** Summarise a cell's repeats (e.g. each repeat's runtime). */
export function cellOf(database: string, threads: number, values: readonly number[]): CellSummary {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  return { database, threads, n, mean, withinSumSq: values.reduce((a, v) => a + (v - mean) ** 2, 0) };
}

export function significanceCode(p: number | null): string {
  if (p === null) return "";
  return p <= 0.001 ? "***" : p <= 0.01 ? "**" : p <= 0.05 ? "*" : p <= 0.1 ? "." : "";
}

/** The two-way ANOVA of the cells; throws on cells it cannot use (n < 1, non-finite values). */
export function twoWayAnova(cells: readonly CellSummary[], threadsAs: ThreadsAs): AnovaTable {
  for (const c of cells) {
    if (
      !(Number.isInteger(c.n) && c.n >= 1) ||
      !Number.isFinite(c.mean) ||
      !Number.isFinite(c.threads) ||
      (c.withinSumSq !== null && !(c.withinSumSq >= 0))
    ) {
      throw new Error(
        `anova: cell ${c.database}/${c.threads} is not usable (n ${c.n}, mean ${c.mean}, within ${c.withinSumSq})`,
      );
    }
  }
  const databases = [...new Set(cells.map((c) => c.database))].sort();
  const levels = [...new Set(cells.map((c) => c.threads))].sort((a, b) => a - b);
  const observations = cells.reduce((a, c) => a + c.n, 0);
  // Each cell mean stands for n runs: weight its row by sqrt(n) (weighted least squares on the means).
  const w = cells.map((c) => Math.sqrt(c.n));
  const y = cells.map((c, i) => c.mean * w[i]!);
  const dbColumns = databases.slice(1).map((d) => cells.map((c) => (c.database === d ? 1 : 0)));
  const ntColumns =
    threadsAs === "numeric"
      ? [cells.map((c) => c.threads)]
      : levels.slice(1).map((t) => cells.map((c) => (c.threads === t ? 1 : 0)));
  const interaction = dbColumns.flatMap((d) => ntColumns.map((t) => d.map((v, i) => v * t[i]!)));
  const weighted = (cols: number[][]) => cols.map((col) => col.map((v, i) => v * w[i]!));

  const basis: number[][] = [];
  const addTerm = (cols: number[][]) => {
    let df = 0;
    let ss = 0;
    for (const col of cols) {
      const q = orthogonalise(col, basis);
      if (!q) continue;
      basis.push(q);
      df++;
      ss += dot(q, y) ** 2;
    }
    return { df, ss };
  };
  addTerm(weighted([cells.map(() => 1)]));
  const db = addTerm(weighted(dbColumns));
  const nt = addTerm(weighted(ntColumns));
  const dbnt = addTerm(weighted(interaction));
  const explained = basis.reduce((a, q) => a + dot(q, y) ** 2, 0);
  const lackOfFit = Math.max(0, dot(y, y) - explained);
  const withinKnown = cells.every((c) => c.withinSumSq !== null);
  const residualSumSq = lackOfFit + cells.reduce((a, c) => a + (c.withinSumSq ?? 0), 0);
  const residualDf = observations - basis.length;
  const residualMeanSq = residualDf > 0 ? residualSumSq / residualDf : NaN;
  // A residual that is only rounding noise (a saturated fit on means) leaves nothing to test against.
  const testable = residualDf > 0 && residualSumSq > 1e-9 * Math.max(1, dot(y, y));
  const row = (term: AnovaTerm, t: { df: number; ss: number }): AnovaRow => {
    const F = testable && t.df > 0 ? t.ss / t.df / residualMeanSq : null;
    const p = F === null ? null : fDistributionSurvival(F, t.df, residualDf);
    return { term, df: t.df, sumSq: t.ss, meanSq: t.df > 0 ? t.ss / t.df : 0, F, p, significance: significanceCode(p) };
  };
  return {
    threadsAs,
    rows: [
      row("DB", db),
      row("NT", nt),
      row("DB:NT", dbnt),
      {
        term: "Residuals",
        df: residualDf,
        sumSq: residualSumSq,
        meanSq: residualDf > 0 ? residualMeanSq : null,
        F: null,
        p: null,
        significance: "",
      },
    ],
    observations,
    withinKnown,
    ...(testable
      ? {}
      : {
          note:
            residualDf <= 0
              ? "no residual degrees of freedom: more repeats are needed"
              : "no residual variance: the cells' means alone fit exactly (the repeats' spread is needed)",
        }),
  };
}

function dot(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** The unit part of `col` orthogonal to the basis (modified Gram-Schmidt, twice); undefined when aliased. */
function orthogonalise(col: readonly number[], basis: readonly number[][]): number[] | undefined {
  const v = [...col];
  const norm0 = Math.sqrt(dot(v, v));
  if (norm0 === 0) return undefined;
  for (let pass = 0; pass < 2; pass++) {
    for (const q of basis) {
      const c = dot(q, v);
      for (let i = 0; i < v.length; i++) v[i]! -= c * q[i]!;
    }
  }
  const norm = Math.sqrt(dot(v, v));
  if (norm <= 1e-10 * norm0) return undefined;
  return v.map((x) => x / norm);
}

/** P(F(d1, d2) > f): the regularised incomplete beta I_{d2/(d2+d1 f)}(d2/2, d1/2). */
export function fDistributionSurvival(f: number, d1: number, d2: number): number {
  if (!(f >= 0)) return 1;
  return regularisedIncompleteBeta(d2 / (d2 + d1 * f), d2 / 2, d1 / 2);
}

/** I_x(a, b) by its continued fraction (Numerical Recipes 6.4, modified Lentz), accurate to about 1e-15. */
export function regularisedIncompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2)
    ? (front * betaContinuedFraction(x, a, b)) / a
    : 1 - (front * betaContinuedFraction(1 - x, b, a)) / b;
}

function betaContinuedFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 500; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a - 1 + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + 1 + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return h;
}

/** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9; relative error about 1e-15). */
export function logGamma(x: number): number {
  const g = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let s = g[0]!;
  for (let i = 1; i < 9; i++) s += g[i]! / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(s);
}
