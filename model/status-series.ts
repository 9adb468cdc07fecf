import type { StatusGroupColumns, StatusPoint, StatusSeries } from "./result-document.js";

/** A series with no status line. */
export function emptyStatusSeries(): StatusSeries {
  return { at: [], elapsedSec: [], operations: [], opsPerSec: [], estCompletionSec: [], perOperation: {} };
}

/** The number of status lines. */
export function statusSeriesLength(series: StatusSeries): number {
  return series.elapsedSec.length;
}

/**
 * Status line i in the row shape: optional fields left out where null, and only the groups with at least one
 * value on that line (a group padded with null before it was first printed does not appear).
 */
export function statusPoint(series: StatusSeries, i: number): StatusPoint {
  const n = statusSeriesLength(series);
  if (!Number.isInteger(i) || i < 0 || i >= n) throw new RangeError(`status line ${i} is out of range: the series has ${n} lines`);
  const point: StatusPoint = { elapsedSec: series.elapsedSec[i]!, operations: series.operations[i]!, opsPerSec: series.opsPerSec[i] ?? null, perOperation: {} };
  const at = series.at[i];
  if (at != null) point.at = at;
  const est = series.estCompletionSec[i];
  if (est != null) point.estCompletionSec = est;
  for (const name in series.perOperation) {
    const g = series.perOperation[name]!;
    const count = g.count[i] ?? null;
    const avgUs = g.avgUs[i] ?? null;
    const minUs = g.minUs[i];
    const maxUs = g.maxUs[i];
    let percentilesUs: Record<string, number> | undefined;
    for (const key in g.percentilesUs) {
      const v = g.percentilesUs[key]![i];
      if (v != null) (percentilesUs ??= {})[key] = v;
    }
    if (count === null && avgUs === null && minUs == null && maxUs == null && !percentilesUs) continue;
    const entry: StatusPoint["perOperation"][string] = { count, avgUs };
    if (minUs != null) entry.minUs = minUs;
    if (maxUs != null) entry.maxUs = maxUs;
    if (percentilesUs) entry.percentilesUs = percentilesUs;
    point.perOperation[name] = entry;
  }
  return point;
}

/** Every status line in the row shape (for small series and tests; hot paths read the columns). */
export function statusPoints(series: StatusSeries): StatusPoint[] {
  const out: StatusPoint[] = [];
  for (let i = 0; i < statusSeriesLength(series); i++) out.push(statusPoint(series, i));
  return out;
}

/** What the schema cannot say: every column holds one entry per status line. Empty when consistent. */
export function statusSeriesProblems(series: StatusSeries, path = "/statusSeries"): { path: string; message: string }[] {
  const n = statusSeriesLength(series);
  const problems: { path: string; message: string }[] = [];
  const check = (column: unknown[], at: string) => {
    if (column.length !== n) problems.push({ path: `${path}/${at}`, message: `has ${column.length} entries, the series has ${n} status lines (elapsedSec)` });
  };
  check(series.at, "at");
  check(series.operations, "operations");
  check(series.opsPerSec, "opsPerSec");
  check(series.estCompletionSec, "estCompletionSec");
  for (const [name, g] of Object.entries(series.perOperation)) {
    const base = `perOperation/${name}`;
    check(g.count, `${base}/count`);
    check(g.avgUs, `${base}/avgUs`);
    check(g.minUs, `${base}/minUs`);
    check(g.maxUs, `${base}/maxUs`);
    for (const [key, column] of Object.entries(g.percentilesUs)) check(column, `${base}/percentilesUs/${key}`);
  }
  return problems;
}

/** One group's columns while a series is being built. */
export interface StatusGroupSlot {
  readonly name: string;
  readonly columns: StatusGroupColumns;
  /** Percentile keys and their columns, in first-seen order. */
  readonly keys: string[];
  readonly percentiles: (number | null)[][];
  /** Where the next percentile of the current line is expected in `keys` (lines repeat the same order). */
  cursor: number;
}

/**
 * Appends status lines to a series column by column (the parser's hot path: no object per line). Call
 * `line()` once per status line, then `group()` + `values()` + `percentile()` for each group it printed,
 * and `finish()` once to pad every column to the series' length.
 */
export class StatusSeriesBuilder {
  readonly series: StatusSeries = emptyStatusSeries();
  private readonly groups: StatusGroupSlot[] = [];
  private index = -1;
  private groupCursor = 0;

  get length(): number {
    return this.index + 1;
  }

  line(at: string | null, elapsedSec: number, operations: number, opsPerSec: number | null, estCompletionSec: number | null): void {
    const s = this.series;
    s.at.push(at);
    s.elapsedSec.push(elapsedSec);
    s.operations.push(operations);
    s.opsPerSec.push(opsPerSec);
    s.estCompletionSec.push(estCompletionSec);
    this.index++;
    this.groupCursor = 0;
  }

  /** The slot of group `name` on the current line. A group printed twice on one line: the later print wins. */
  group(name: string): StatusGroupSlot {
    if (this.index < 0) throw new Error("StatusSeriesBuilder.group() before the first line()");
    const groups = this.groups;
    let g = groups[this.groupCursor];
    if (g === undefined || g.name !== name) {
      g = undefined;
      for (let k = 0; k < groups.length; k++) {
        if (groups[k]!.name === name) {
          g = groups[k]!;
          this.groupCursor = k;
          break;
        }
      }
      if (g === undefined) {
        g = { name, columns: { count: [], avgUs: [], minUs: [], maxUs: [], percentilesUs: {} }, keys: [], percentiles: [], cursor: 0 };
        this.series.perOperation[name] = g.columns;
        this.groupCursor = groups.length;
        groups.push(g);
      }
    }
    this.groupCursor++;
    const i = this.index;
    const c = g.columns;
    if (c.count.length > i) {
      c.count.length = c.avgUs.length = c.minUs.length = c.maxUs.length = i;
      for (const p of g.percentiles) if (p.length > i) p.length = i;
    } else if (c.count.length < i) {
      padTo(c.count, i);
      padTo(c.avgUs, i);
      padTo(c.minUs, i);
      padTo(c.maxUs, i);
    }
    g.cursor = 0;
    return g;
  }

  /** The group's count, average, min and max on the current line (null where not printed). */
  values(g: StatusGroupSlot, count: number | null, avgUs: number | null, minUs: number | null, maxUs: number | null): void {
    const c = g.columns;
    c.count.push(count);
    c.avgUs.push(avgUs);
    c.minUs.push(minUs);
    c.maxUs.push(maxUs);
  }

  /** One printed percentile of the group on the current line; `key` as printed ("99.9"). */
  percentile(g: StatusGroupSlot, key: string, valueUs: number): void {
    let k = g.cursor;
    if (g.keys[k] !== key) {
      k = g.keys.indexOf(key);
      if (k < 0) {
        k = g.keys.length;
        g.keys.push(key);
        const column: (number | null)[] = [];
        g.percentiles.push(column);
        g.columns.percentilesUs[key] = column;
      }
    }
    g.cursor = k + 1;
    const column = g.percentiles[k]!;
    if (column.length < this.index) padTo(column, this.index);
    if (column.length > this.index) column[this.index] = valueUs; // printed twice in one block: the later wins
    else column.push(valueUs);
  }

  /** The series with every column padded to its length. */
  finish(): StatusSeries {
    const n = this.length;
    for (const g of this.groups) {
      const c = g.columns;
      padTo(c.count, n);
      padTo(c.avgUs, n);
      padTo(c.minUs, n);
      padTo(c.maxUs, n);
      for (const p of g.percentiles) padTo(p, n);
    }
    return this.series;
  }
}

function padTo(column: (number | null)[], n: number): void {
  while (column.length < n) column.push(null);
}
