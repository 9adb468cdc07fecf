import type { StatusGroupColumns, StatusSeries } from "./result-document.js";

type Column = (number | null)[];

/** One group's columns while a series is being built, by their number in the builder. */
export interface StatusGroupSlot {
  readonly name: string;
  readonly count: number;
  readonly avgUs: number;
  readonly minUs: number;
  readonly maxUs: number;
  /** Percentile keys as printed and their columns, in first-seen order. */
  readonly keys: string[];
  readonly percentiles: number[];
  /** Where the next percentile of the current line is expected in `keys` (lines repeat the same order). */
  cursor: number;
  /** The last line the group was printed on. */
  lastLine: number;
}

/** What a value of a group is, for columnsOf: these, or (>= 0) the index of a percentile key. */
export const StatusField = { count: -1, maxUs: -2, minUs: -3, avgUs: -4 } as const;

/**
 * Appends status lines to a series column by column (the parser's hot path: no object per line). Each column
 * is allocated once at a capacity (the caller's estimate of the lines to come, doubled if exceeded), filled
 * with null, written in place, and cut to the series' length by finish(): on a long run, touching fresh memory
 * more than once costs more than reading the numbers.
 *
 * Call `line()` once per status line, then for each group it printed `group()` and either `values()` +
 * `percentile()`, or `write()` with the column numbers `columnsOf()` gave for a layout seen before. Values not
 * printed are passed as NaN and stored as null (a number that may be null would be boxed on every line).
 */
export class StatusSeriesBuilder {
  private readonly at: (string | null)[] = [];
  /** Every numeric column: 0-3 the line's own, then four per group and one per percentile key. */
  private readonly columns: Column[] = [];
  private readonly groups: StatusGroupSlot[] = [];
  /** Columns are allocated at the first line (a stream may have none), then doubled when full. */
  private capacity = 0;
  private readonly firstCapacity: number;
  private index = -1;
  private groupCursor = 0;

  /** `expectedLines`: how many status lines may come (an upper bound is best); the columns grow past it if needed. */
  constructor(expectedLines = 1024) {
    this.firstCapacity = Math.max(16, Math.min(expectedLines, MAX_INITIAL_CAPACITY));
    for (let c = 0; c < LINE_COLUMNS; c++) this.columns.push([]);
  }

  get length(): number {
    return this.index + 1;
  }

  /** A status line's own fields; NaN for a rate or estimate not printed. */
  line(at: string | null, elapsedSec: number, operations: number, opsPerSec: number, estCompletionSec: number): void {
    const i = ++this.index;
    if (i === this.capacity) this.grow();
    const c = this.columns;
    this.at.push(at);
    c[ELAPSED]![i] = elapsedSec;
    c[OPERATIONS]![i] = operations;
    if (opsPerSec === opsPerSec) c[OPS_PER_SEC]![i] = opsPerSec;
    if (estCompletionSec === estCompletionSec) c[EST_COMPLETION]![i] = estCompletionSec;
    this.groupCursor = 0;
  }

  /** The slot of group `name` on the current line. A group printed twice on one line: the later print wins. */
  group(name: string): StatusGroupSlot {
    const i = this.index;
    if (i < 0) throw new Error("StatusSeriesBuilder.group() before the first line()");
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
        g = { name, count: this.newColumn(), avgUs: this.newColumn(), minUs: this.newColumn(), maxUs: this.newColumn(), keys: [], percentiles: [], cursor: 0, lastLine: -1 };
        this.groupCursor = groups.length;
        groups.push(g);
      }
    }
    this.groupCursor++;
    if (g.lastLine === i) {
      const c = this.columns;
      c[g.count]![i] = c[g.avgUs]![i] = c[g.minUs]![i] = c[g.maxUs]![i] = null;
      for (const p of g.percentiles) c[p]![i] = null;
    }
    g.lastLine = i;
    g.cursor = 0;
    return g;
  }

  /** The group's count, average, min and max on the current line (NaN where not printed). */
  values(g: StatusGroupSlot, count: number, avgUs: number, minUs: number, maxUs: number): void {
    const i = this.index;
    const c = this.columns;
    if (count === count) c[g.count]![i] = count;
    if (avgUs === avgUs) c[g.avgUs]![i] = avgUs;
    if (minUs === minUs) c[g.minUs]![i] = minUs;
    if (maxUs === maxUs) c[g.maxUs]![i] = maxUs;
  }

  /** One printed percentile of the group on the current line; `key` as printed ("99.9"). The later print wins. */
  percentile(g: StatusGroupSlot, key: string, valueUs: number): void {
    let k = g.cursor;
    if (g.keys[k] !== key) {
      k = g.keys.indexOf(key);
      if (k < 0) {
        k = g.keys.length;
        g.keys.push(key);
        g.percentiles.push(this.newColumn());
      }
    }
    g.cursor = k + 1;
    this.columns[g.percentiles[k]!]![this.index] = valueUs;
  }

  /**
   * The column numbers of a group's values in the order a layout prints them (`fields`: StatusField values, or
   * the index in `keys` of a percentile), for write(). The group and its percentile columns must exist (the
   * layout was first read with values() and percentile()).
   */
  columnsOf(g: StatusGroupSlot, fields: ArrayLike<number>, keys: readonly string[]): Int32Array {
    return Int32Array.from(fields, (f) => {
      if (f === StatusField.count) return g.count;
      if (f === StatusField.avgUs) return g.avgUs;
      if (f === StatusField.minUs) return g.minUs;
      if (f === StatusField.maxUs) return g.maxUs;
      const k = g.keys.indexOf(keys[f]!);
      if (k < 0) throw new Error(`StatusSeriesBuilder.columnsOf(): group ${g.name} has no percentile ${keys[f]}`);
      return g.percentiles[k]!;
    });
  }

  /** Values [0, n) of a line's group into their columns (from columnsOf), NaN for none. */
  write(columns: Int32Array, values: Float64Array, n: number): void {
    const c = this.columns;
    const i = this.index;
    for (let j = 0; j < n; j++) {
      const v = values[j]!;
      if (v === v) c[columns[j]!]![i] = v;
    }
  }

  /** The series: every column one entry per status line, null where nothing was printed. Call once. */
  finish(): StatusSeries {
    const n = this.length;
    const c = this.columns;
    // Every column is cut in place to the series' length: the capacity beyond was never part of it.
    for (const column of c) column.length = n;
    const perOperation: StatusSeries["perOperation"] = {};
    for (const g of this.groups) {
      const percentilesUs: StatusGroupColumns["percentilesUs"] = {};
      g.keys.forEach((key, k) => (percentilesUs[key] = c[g.percentiles[k]!]!));
      perOperation[g.name] = { count: c[g.count]!, avgUs: c[g.avgUs]!, minUs: c[g.minUs]!, maxUs: c[g.maxUs]!, percentilesUs };
    }
    return {
      at: this.at,
      elapsedSec: c[ELAPSED] as number[],
      operations: c[OPERATIONS] as number[],
      opsPerSec: c[OPS_PER_SEC]!,
      estCompletionSec: c[EST_COMPLETION]!,
      perOperation,
    };
  }

  private newColumn(): number {
    this.columns.push(nullColumn(this.capacity));
    return this.columns.length - 1;
  }

  private grow(): void {
    const capacity = (this.capacity = this.capacity === 0 ? this.firstCapacity : this.capacity * 2);
    const c = this.columns;
    for (let k = 0; k < c.length; k++) c[k] = c[k]!.concat(nullColumn(capacity - c[k]!.length));
  }
}

const ELAPSED = 0;
const OPERATIONS = 1;
const OPS_PER_SEC = 2;
const EST_COMPLETION = 3;
const LINE_COLUMNS = 4;

/** Columns start at no more than this many lines (three days of one-second status lines) and grow past it. */
const MAX_INITIAL_CAPACITY = 1 << 18;

function nullColumn(capacity: number): Column {
  return new Array<number | null>(capacity).fill(null);
}
