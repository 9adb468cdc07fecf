import type { StatusGroupColumns, StatusSeries } from "../../model/result-document.js";
import { Timestamps } from "./timestamps.js";

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
 * Appends status lines to a series (the parser's hot path: no object per line). A line's values go first into
 * a block of rows (a Float64Array, NaN where nothing was printed), and every ROWS lines the block is copied
 * column by column into the series' columns: writing each line straight into a few dozen columns of a long
 * series misses the cache on nearly every value, several times the cost of reading it (bench/parse). Columns
 * are allocated once at a capacity (the caller's estimate of the lines to come, doubled if exceeded), filled
 * with null, and cut to the series' length by finish().
 *
 * Call `line()` once per status line, then for each group it printed `group()` and either `values()` +
 * `percentile()`, or `write()` with the column numbers `columnsOf()` gave for a layout seen before. Values not
 * printed are passed as NaN and stored as null (a number that may be null would be boxed on every line).
 */
export class StatusSeriesBuilder {
  private readonly at = new Timestamps();
  /** Every numeric column: 0-3 the line's own, then four per group and one per percentile key. */
  private readonly columns: Column[] = [];
  private readonly groups: StatusGroupSlot[] = [];
  /** Columns are allocated at the first line (a stream may have none), then doubled when full. */
  private capacity = 0;
  private readonly firstCapacity: number;
  private index = -1;
  private groupCursor = 0;
  /** Lines [blockStart, index] not yet in the columns, one row of `width` values each. */
  private block = new Float64Array(0);
  private width = 0;
  private blockStart = 0;
  /** Where the current line's row starts in `block`. */
  private row = 0;

  /** `expectedLines`: how many status lines may come (an upper bound is best); the columns grow past it if needed. */
  constructor(expectedLines = 1024) {
    this.firstCapacity = Math.max(16, Math.min(expectedLines, MAX_INITIAL_CAPACITY));
    for (let c = 0; c < LINE_COLUMNS; c++) this.columns.push([]);
    this.newBlock();
  }

  get length(): number {
    return this.index + 1;
  }

  /** A status line's own fields: its timestamp is bytes [atFrom, atTo) of b (none if empty); NaN for a rate or estimate not printed. */
  line(
    b: Uint8Array,
    atFrom: number,
    atTo: number,
    elapsedSec: number,
    operations: number,
    opsPerSec: number,
    estCompletionSec: number,
  ): void {
    if (this.index + 1 - this.blockStart === ROWS) this.flush();
    const i = ++this.index;
    if (i === this.capacity) this.grow();
    this.at.add(b, atFrom, atTo);
    const row = (this.row = (i - this.blockStart) * this.width);
    const block = this.block;
    block[row + ELAPSED] = elapsedSec;
    block[row + OPERATIONS] = operations;
    block[row + OPS_PER_SEC] = opsPerSec;
    block[row + EST_COMPLETION] = estCompletionSec;
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
        g = {
          name,
          count: this.newColumn(),
          avgUs: this.newColumn(),
          minUs: this.newColumn(),
          maxUs: this.newColumn(),
          keys: [],
          percentiles: [],
          cursor: 0,
          lastLine: -1,
        };
        this.groupCursor = groups.length;
        groups.push(g);
      }
    }
    this.groupCursor++;
    if (g.lastLine === i)
      for (const c of [g.count, g.avgUs, g.minUs, g.maxUs, ...g.percentiles]) this.block[this.row + c] = NaN;
    g.lastLine = i;
    g.cursor = 0;
    return g;
  }

  /** The group's count, average, min and max on the current line (NaN where not printed). */
  values(g: StatusGroupSlot, count: number, avgUs: number, minUs: number, maxUs: number): void {
    const block = this.block;
    const row = this.row;
    block[row + g.count] = count;
    block[row + g.avgUs] = avgUs;
    block[row + g.minUs] = minUs;
    block[row + g.maxUs] = maxUs;
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
    this.block[this.row + g.percentiles[k]!] = valueUs;
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
    const block = this.block;
    const row = this.row;
    for (let j = 0; j < n; j++) block[row + columns[j]!] = values[j]!;
  }

  /** The series: every column one entry per status line, null where nothing was printed. Call once. */
  finish(): StatusSeries {
    this.flush();
    const n = this.length;
    const c = this.columns;
    // Every column is cut in place to the series' length: the capacity beyond was never part of it.
    for (const column of c) column.length = n;
    const perOperation: StatusSeries["perOperation"] = {};
    for (const g of this.groups) {
      const percentilesUs: StatusGroupColumns["percentilesUs"] = {};
      g.keys.forEach((key, k) => {
        percentilesUs[key] = c[g.percentiles[k]!]!;
      });
      perOperation[g.name] = {
        count: c[g.count]!,
        avgUs: c[g.avgUs]!,
        minUs: c[g.minUs]!,
        maxUs: c[g.maxUs]!,
        percentilesUs,
      };
    }
    return {
      at: this.at.finish(),
      elapsedSec: c[ELAPSED] as number[],
      operations: c[OPERATIONS] as number[],
      opsPerSec: c[OPS_PER_SEC]!,
      estCompletionSec: c[EST_COMPLETION]!,
      perOperation,
    };
  }

  /** Copies every row of the block (lines blockStart to index) into the columns; the next line starts a new block. */
  private flush(): void {
    const rows = this.index - this.blockStart + 1;
    this.copyRows(rows);
    this.blockStart += rows;
    this.newBlock();
  }

  /** Copies the first `rows` rows of the block into the columns, column by column (the cache-friendly order). */
  private copyRows(rows: number): void {
    const { block, width, columns, blockStart } = this;
    for (let c = 0; c < width; c++) {
      const column = columns[c]!;
      for (let r = 0, at = c; r < rows; r++, at += width) {
        const v = block[at]!;
        if (!Number.isNaN(v)) column[blockStart + r] = v;
      }
    }
  }

  /** An empty block as wide as the columns are many, starting at the current line (its values kept). */
  private newBlock(): void {
    const width = this.columns.length;
    if (width === this.width && this.blockStart > this.index) {
      // As wide as before and no line in it yet: the same memory, emptied (fresh memory costs more here).
      this.block.fill(NaN);
    } else {
      const next = new Float64Array(ROWS * width).fill(NaN);
      if (this.blockStart <= this.index) next.set(this.block.subarray(this.row, this.row + this.width));
      this.block = next;
      this.width = width;
    }
    this.row = 0;
  }

  private newColumn(): number {
    // The current line may already hold values: keep them in the new, wider block.
    const i = this.index;
    this.flushBefore(i);
    this.columns.push(nullColumn(this.capacity));
    this.newBlock();
    return this.columns.length - 1;
  }

  /** Copies the rows of the lines before `line` into the columns; the current line's row stays to be copied. */
  private flushBefore(line: number): void {
    const rows = line - this.blockStart;
    if (rows <= 0) return;
    this.copyRows(rows);
    // The current line's row moves to the top of the block.
    const width = this.width;
    this.block.copyWithin(0, rows * width, rows * width + width);
    this.row = 0;
    this.blockStart = line;
  }

  private grow(): void {
    const capacity = (this.capacity = this.capacity === 0 ? this.firstCapacity : this.capacity * 2);
    const c = this.columns;
    for (let k = 0; k < c.length; k++) c[k] = c[k]!.concat(nullColumn(capacity - c[k]!.length));
  }
}

/** Lines per block: a block of a few dozen columns stays in the cache while it is copied out. */
const ROWS = 512;

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
