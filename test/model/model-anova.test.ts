import { describe, expect, it } from "vitest";
import { readSeedFile } from "../../api/store/reference-data.js";
import { type CellSummary, cellOf, fDistributionSurvival, twoWayAnova } from "../../model/anova.js";

/** Seed 003's Tables 1-8 as cells: each mean of 3 repeats (section 3, lines 253-254 and 305-308), spread unknown. */
async function seed003() {
  const f = await readSeedFile("003");
  const table9 = f.tables.find((t) => t.id === "003-anova")!;
  const runtime = f.tables.filter((t) => t.derive?.metric === "runtime");
  return runtime.map((t) => {
    const d = t.derive as { workload: string; operations: number };
    const cells: CellSummary[] = t.rows.flatMap((r) => [
      { database: "cassandra", threads: r[0] as number, n: 3, mean: r[1] as number, withinSumSq: null },
      { database: "mongodb", threads: r[0] as number, n: 3, mean: r[2] as number, withinSumSq: null },
    ]);
    const printed = table9.rows.find((r) => r[0] === d.workload.toUpperCase() && r[1] === d.operations)!;
    const num = (v: unknown) => (typeof v === "number" ? v : String(v).startsWith("<") ? null : Number(v));
    return {
      table: t.tableRef,
      cells,
      printed: {
        F: [printed[2], printed[5], printed[8]].map(num) as number[],
        p: [printed[3], printed[6], printed[9]].map(num),
        sgf: [printed[4], printed[7], printed[10]].map(String),
      },
    };
  });
}

describe("seed 003's two-way ANOVA (Table 9) from Tables 1-8", () => {
  it("NT fitted as the paper did (numeric): Table 9's degrees of freedom, significance codes, and F within the repeats' unknown spread", async () => {
    for (const { table, cells, printed } of await seed003()) {
      const a = twoWayAnova(cells, "numeric");
      expect(
        a.rows.map((r) => r.df),
        table,
      ).toEqual([1, 1, 1, 56]);
      expect(a.observations).toBe(60);
      expect(a.withinKnown).toBe(false);
      a.rows.slice(0, 3).forEach((r, i) => {
        // Tables 1-8 print means only: the spread of the 3 repeats in each cell is missing from the residual, so
        // each F here is an upper bound of the printed one, within 1.5% of it.
        expect(r.F!, `${table} ${r.term}`).toBeGreaterThanOrEqual(printed.F[i]!);
        expect(r.F! / printed.F[i]! - 1, `${table} ${r.term}`).toBeLessThan(0.015);
        expect(r.significance, `${table} ${r.term}`).toBe(printed.sgf[i]);
      });
      // The spread shifts every F of a table by one factor: the ratios between them are Table 9's, to its digits.
      // (Table 9 prints F to 5 significant digits: the ratios agree to within that rounding.)
      expect(Math.abs(a.rows[0]!.F! / a.rows[1]!.F! / (printed.F[0]! / printed.F[1]!) - 1), table).toBeLessThan(5e-5);
      expect(Math.abs(a.rows[1]!.F! / a.rows[2]!.F! / (printed.F[1]! / printed.F[2]!) - 1), table).toBeLessThan(5e-5);
    }
  });

  it("with the residual mean square the printed DB F implies, the other Fs and every p come out as Table 9 prints them", async () => {
    for (const { table, cells, printed } of await seed003()) {
      const a = twoWayAnova(cells, "numeric");
      const residualMeanSq = a.rows[0]!.sumSq / printed.F[0]!;
      for (const i of [0, 1, 2]) {
        const F = a.rows[i]!.sumSq / residualMeanSq;
        // F printed to 4 decimals; p to 4-5 significant digits ("<2e-16" where R stops printing).
        expect(F, `${table} ${a.rows[i]!.term} F`).toBeCloseTo(printed.F[i]!, 3);
        const p = fDistributionSurvival(F, 1, 56);
        if (printed.p[i] === null) expect(p).toBeLessThan(2e-16);
        else
          expect(Math.abs(p / printed.p[i]! - 1), `${table} ${a.rows[i]!.term} p ${p} vs ${printed.p[i]}`).toBeLessThan(
            2e-3,
          );
      }
    }
  });

  it("NT as ten levels: 1, 9 and 9 degrees of freedom; means alone fit exactly, so F needs the repeats", async () => {
    const [first] = await seed003();
    const a = twoWayAnova(first!.cells, "levels");
    expect(a.rows.map((r) => r.df)).toEqual([1, 9, 9, 40]);
    expect(a.rows[0]!.F).toBeNull();
    expect(a.note).toMatch(/no residual variance/);
  });
});

describe("two-way ANOVA on repeats", () => {
  // Raw runtimes: 2 databases x 4 thread counts x 3 repeats, with spread.
  const raw: { db: string; nt: number; y: number }[] = [];
  const noise = [-7, 3, 4, 5, -9, 4, 1, -2, 1, 6, 0, -6];
  for (const [d, db] of ["x", "y"].entries()) {
    for (const [t, nt] of [1, 2, 4, 8].entries()) {
      for (const k of [0, 1, 2])
        raw.push({ db, nt, y: 1000 / nt + 300 * d + 40 * d * Math.log2(nt) + noise[(t * 3 + k + d) % 12]! * 10 });
    }
  }
  const cells = ["x", "y"].flatMap((db) =>
    [1, 2, 4, 8].map((nt) =>
      cellOf(
        db,
        nt,
        raw.filter((r) => r.db === db && r.nt === nt).map((r) => r.y),
      ),
    ),
  );

  it("equals a regression on every run (numeric NT), sums of squares adding up to the total", () => {
    const a = twoWayAnova(cells, "numeric");
    // Sequential sums of squares by brute force: residual sums of squares of nested least-squares fits on the runs.
    const rss = (cols: ((r: (typeof raw)[number]) => number)[]) => {
      const X = raw.map((r) => cols.map((c) => c(r)));
      const p = cols.length;
      const A = Array.from({ length: p }, (_, i) =>
        Array.from({ length: p + 1 }, (_, j) => raw.reduce((s, r, k) => s + X[k]![i]! * (j < p ? X[k]![j]! : r.y), 0)),
      );
      for (let c = 0; c < p; c++)
        for (let r = 0; r < p; r++)
          if (r !== c) {
            const f = A[r]![c]! / A[c]![c]!;
            for (let k = c; k <= p; k++) A[r]![k]! -= f * A[c]![k]!;
          }
      const b = A.map((row, i) => row[p]! / row[i]!);
      return raw.reduce((s, r, k) => s + (r.y - X[k]!.reduce((t, x, j) => t + x * b[j]!, 0)) ** 2, 0);
    };
    const one = () => 1;
    const dbx = (r: (typeof raw)[number]) => (r.db === "y" ? 1 : 0);
    const nt = (r: (typeof raw)[number]) => r.nt;
    const s = [rss([one]), rss([one, dbx]), rss([one, dbx, nt]), rss([one, dbx, nt, (r) => dbx(r) * nt(r)])];
    expect(a.rows[0]!.sumSq).toBeCloseTo(s[0]! - s[1]!, 6);
    expect(a.rows[1]!.sumSq).toBeCloseTo(s[1]! - s[2]!, 6);
    expect(a.rows[2]!.sumSq).toBeCloseTo(s[2]! - s[3]!, 6);
    expect(a.rows[3]).toMatchObject({ df: 24 - 4 });
    expect(a.rows[3]!.sumSq).toBeCloseTo(s[3]!, 6);
    expect(a.withinKnown).toBe(true);
  });

  it("ten levels: 1, 3 and 3 degrees of freedom and the within-cell residual", () => {
    const a = twoWayAnova(cells, "levels");
    expect(a.rows.map((r) => r.df)).toEqual([1, 3, 3, 16]);
    expect(a.rows[3]!.sumSq).toBeCloseTo(
      cells.reduce((s, c) => s + c.withinSumSq!, 0),
      6,
    );
    expect(a.rows[0]!.p!).toBeLessThan(0.001);
    expect(a.rows[0]!.significance).toBe("***");
  });

  it("F distribution tail: known values", () => {
    // Table 9 prints F = 3.8486 on (1, 56) with p = 0.05476; with 2 numerator degrees of freedom the tail has a
    // closed form, (1 + d1 F / d2)^(-d2 / 2).
    expect(fDistributionSurvival(3.8486, 1, 56)).toBeCloseTo(0.05476, 4);
    expect(fDistributionSurvival(4, 2, 10)).toBeCloseTo((1 + (2 * 4) / 10) ** -5, 12);
    expect(fDistributionSurvival(0, 3, 7)).toBe(1);
  });
});
