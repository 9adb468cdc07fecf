import { DecimalReader, Literal, literalAt, NameTable, textOf, viewOf } from "./bytes.js";
import { StatusField, type StatusGroupSlot, type StatusSeriesBuilder } from "./status-series-builder.js";

type Warn = (message: string) => void;

const AVG_NAN = Literal.ascii("Avg=NaN");
const { count: COUNT, maxUs: MAX, minUs: MIN, avgUs: AVG } = StatusField;
/** More entries than this in one block is not YCSB's layout: read it, but do not learn it. */
const MAX_ENTRIES = 64;

/**
 * One group's block as it was last printed: the bytes before each value ("Count=", ", Max=", ", 99.9=") and
 * what each value is. StatusThread prints the same layout on every line, so after the first line a block is
 * read by checking those bytes and reading the digits between them, nothing else.
 */
interface BlockLayout {
  readonly name: string;
  /** "[READ: " */
  readonly opening: Literal;
  /** What comes before each value: "Count=", ", Max=", ... */
  readonly separators: Literal[];
  /**
   * The separators of 4 to 8 bytes (all of YCSB's) as their first and last four bytes (little-endian), which
   * cover them whole: two comparisons each, in line. 0 in `separatorLength` for any other (compared in full).
   */
  readonly separatorLength: Int32Array;
  readonly separatorHead: Uint32Array;
  readonly separatorTail: Uint32Array;
  /** What each value is: a StatusField, or the index of its percentile key in `keys`. */
  readonly fields: Int32Array;
  readonly keys: string[];
  /** Where the count is among the values. */
  readonly countAt: number;
  /** The series' column of each value. */
  readonly columns: Int32Array;
}

/**
 * The hdrhistogram blocks of status lines (measurementtype=hdrhistogram, YCSB's default):
 * "[READ: Count=1376, Max=58399, Min=0, Avg=1449.56, 90=2083, 99=11991, 99.9=34495, 99.99=58399]".
 * A block in a layout seen before is read on the fast path; anything else (a first line, a new percentile,
 * NaN, a broken value) is read entry by entry, with warnings, and its layout learned when it was clean.
 */
export class HdrBlockReader {
  private readonly decimal = new DecimalReader();
  private readonly keys = new NameTable();
  private readonly layouts: BlockLayout[] = [];
  /** The layout expected next on this line: groups are printed in the same order line after line. */
  private next = 0;
  private readonly values = new Float64Array(MAX_ENTRIES);
  // Where the entries of the block being read are, for learning its layout.
  private readonly separatorFrom = new Int32Array(MAX_ENTRIES);
  private readonly separatorTo = new Int32Array(MAX_ENTRIES);
  private readonly fields = new Int32Array(MAX_ENTRIES);

  constructor(
    private readonly series: StatusSeriesBuilder,
    private readonly warn: Warn,
  ) {}

  /** A new status line starts: its first block is expected to be the first of the last line. */
  startLine(): void {
    this.next = 0;
  }

  /**
   * The block opening at `open` ("[") if it is in a known layout; returns where its "]" is, or -1 when it is
   * not (nothing recorded then: read it with `read`).
   */
  readKnown(b: Buffer, view: DataView, open: number, end: number): number {
    const layouts = this.layouts;
    const count = layouts.length;
    for (let tried = 0, k = this.next; tried < count; tried++, k++) {
      if (k === count) k = 0;
      const layout = layouts[k]!;
      if (!literalAt(b, view, open, end, layout.opening)) continue;
      const close = this.readLayout(b, view, open + layout.opening.length, end, layout);
      if (close >= 0) this.next = k + 1;
      return close;
    }
    return -1;
  }

  /** The values between the layout's separators: each a plain decimal of up to 15 digits, else -1 (read it the slow way, which knows what to say about it). */
  private readLayout(b: Buffer, view: DataView, from: number, end: number, layout: BlockLayout): number {
    const { separators, separatorLength, separatorHead, separatorTail } = layout;
    const values = this.values;
    let pos = from;
    for (let j = 0; j < separators.length; j++) {
      const n = separatorLength[j]!;
      if (n === 0) {
        const separator = separators[j]!;
        if (!literalAt(b, view, pos, end, separator)) return -1;
        pos += separator.length;
      } else {
        if (
          pos + n > end ||
          view.getUint32(pos, true) !== separatorHead[j] ||
          view.getUint32(pos + n - 4, true) !== separatorTail[j]
        )
          return -1;
        pos += n;
      }
      const valueFrom = pos;
      let value = 0;
      let d = b[pos]! - 48;
      while (d >= 0 && d <= 9) {
        value = value * 10 + d;
        d = b[++pos]! - 48;
      }
      if (d === -2 /* . */ && pos > valueFrom) {
        let scale = 1;
        d = b[++pos]! - 48;
        while (d >= 0 && d <= 9) {
          value = value * 10 + d;
          scale *= 10;
          d = b[++pos]! - 48;
        }
        // One division of two exact integers (<= 15 digits) is correctly rounded: the same double as Number().
        value /= scale;
      }
      if (pos === valueFrom || pos - valueFrom > 15 || pos >= end || (d !== -4 /* , */ && d !== 45) /* ] */) return -1;
      values[j] = value;
    }
    if (b[pos] !== 93 /* ] */) return -1;
    const count = values[layout.countAt]!;
    if (!(Number.isInteger(count) && count >= 0)) return -1;
    const series = this.series;
    const g = series.group(layout.name);
    // An empty window prints Min=Long.MAX_VALUE, Max=0, Avg=NaN and zero percentiles: none is a measurement.
    if (count === 0) series.values(g, 0, NaN, NaN, NaN);
    else series.write(layout.columns, values, separators.length);
    return pos;
  }

  /** Reads the block of group `name` from `from` (after "READ: ") entry by entry; returns where "]" is (or end). */
  read(b: Buffer, open: number, name: string, from: number, end: number): number {
    const { values, fields, separatorFrom, separatorTo } = this;
    let clean = true;
    let entries = 0;
    let keys = 0;
    const keyOf: string[] = [];
    let pos = from;
    let separator = from;
    let close = -1;
    while (pos < end) {
      let eq = pos;
      let c = b[eq];
      while (eq < end && c !== 61 && c !== 44 && c !== 93) c = b[++eq];
      if (c !== 61 || eq >= end) {
        if (eq > pos) this.warn(`status line: [${name}] entry "${textOf(b, pos, eq)}" has no "="`);
        clean = false;
        if (c === 93 && eq < end) close = eq;
        if (c !== 44 || eq >= end) break;
        pos = separator = eq + 2;
        continue;
      }
      let value = this.decimal.read(b, eq + 1, end);
      let valueEnd = this.decimal.end;
      c = valueEnd < end ? b[valueEnd] : -1;
      if (c !== 44 && c !== 93) {
        // Not a number up to the next "," or "]" (NaN, a stray character): the whole value is not a number.
        while (valueEnd < end && b[valueEnd] !== 44 && b[valueEnd] !== 93) valueEnd++;
        c = valueEnd < end ? b[valueEnd] : -1;
        value = NaN;
      }
      const k = b[pos];
      const width = eq - pos;
      if (Number.isNaN(value) || valueEnd - eq - 1 > 15) clean = false;
      if (Number.isNaN(value)) {
        if (!(width === 3 && literalAt(b, viewOf(b), pos, valueEnd, AVG_NAN)))
          this.warn(`status line: [${name}] ${textOf(b, pos, valueEnd)} is not a number`);
      } else if (entries < MAX_ENTRIES) {
        let field: number;
        if (k === 67 /* C */ && width === 5) field = COUNT;
        else if (k === 65 /* A */ && width === 3) field = AVG;
        else if (k === 77 /* M */ && width === 3) field = b[pos + 1] === 105 /* i */ ? MIN : MAX;
        else {
          field = keys++;
          keyOf.push(this.keys.get(b, pos, eq));
        }
        separatorFrom[entries] = separator;
        separatorTo[entries] = eq + 1;
        fields[entries] = field;
        values[entries++] = value;
      } else clean = false;
      if (c === 93) {
        close = valueEnd;
        break;
      }
      if (c !== 44) break;
      separator = valueEnd;
      pos = valueEnd + 1;
      if (pos < end && b[pos] === 32) pos++;
    }
    if (close < 0) {
      this.warn(`status line: unterminated block "[${name}: ..."`);
      return end;
    }
    const g = this.record(name, fields, keyOf, entries);
    if (!g) {
      this.warn(`status line: [${name}] has no valid Count`);
      return close;
    }
    if (clean) this.learn(b, open, from, g, entries, keyOf);
    return close;
  }

  /** Stores the block's values read into `values`; undefined (nothing stored) when it has no valid Count. */
  private record(name: string, fields: Int32Array, keys: string[], entries: number): StatusGroupSlot | undefined {
    const values = this.values;
    let count = -1;
    let avgUs = NaN;
    let minUs = NaN;
    let maxUs = NaN;
    for (let j = 0; j < entries; j++) {
      const f = fields[j]!;
      const v = values[j]!;
      if (f === COUNT) count = Number.isInteger(v) && v >= 0 ? v : -1;
      else if (f === AVG) avgUs = v;
      else if (f === MIN) minUs = v;
      else if (f === MAX) maxUs = v;
    }
    if (count < 0) return undefined;
    const series = this.series;
    const g = series.group(name);
    // An empty window prints Min=Long.MAX_VALUE, Max=0, Avg=NaN and zero percentiles: none is a measurement.
    if (count === 0) {
      series.values(g, 0, NaN, NaN, NaN);
      return g;
    }
    series.values(g, count, avgUs, minUs, maxUs);
    for (let j = 0; j < entries; j++) {
      const f = fields[j]!;
      if (f >= 0) series.percentile(g, keys[f]!, values[j]!);
    }
    return g;
  }

  /** Keeps the layout of a block just read and recorded (a count > 0 made every column it names). */
  private learn(b: Buffer, open: number, from: number, g: StatusGroupSlot, entries: number, keys: string[]): void {
    const fields = this.fields.slice(0, entries);
    const countAt = fields.indexOf(COUNT);
    if (countAt < 0 || this.values[countAt] === 0 || fields.indexOf(COUNT, countAt + 1) >= 0) return;
    const bytes = (at: number, to: number) => new Literal(Uint8Array.from(b.subarray(at, to)));
    const separators = Array.from({ length: entries }, (_, j) => bytes(this.separatorFrom[j]!, this.separatorTo[j]!));
    const inLine = (s: Literal) => s.length >= 4 && s.length <= 8;
    const layout: BlockLayout = {
      name: g.name,
      opening: bytes(open, from),
      separators,
      separatorLength: Int32Array.from(separators, (s) => (inLine(s) ? s.length : 0)),
      separatorHead: Uint32Array.from(separators, (s) => (inLine(s) ? s.words[0]! : 0)),
      separatorTail: Uint32Array.from(separators, (s) => (inLine(s) ? s.words[s.words.length - 1]! : 0)),
      fields,
      keys,
      countAt,
      columns: this.series.columnsOf(g, fields, keys),
    };
    const known = this.layouts.findIndex((l) => l.name === g.name);
    if (known >= 0) this.layouts[known] = layout;
    else if (this.layouts.length < MAX_ENTRIES) this.layouts.push(layout);
  }
}
