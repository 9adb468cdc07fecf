import { asBytes, DecimalReader, Literal, literalAt, NameTable, textOf, viewOf } from "./bytes.js";
import { HdrBlockReader } from "./hdr-block.js";
import { toCount, toNumber } from "./numbers.js";
import type { StatusSeriesBuilder } from "./status-series-builder.js";

type Warn = (message: string) => void;

const SEC = Literal.ascii(" sec: ");
const OPERATIONS = Literal.ascii(" operations");
const CURRENT = Literal.ascii(" current ops/sec");
const EST = Literal.ascii("est completion in ");
const AVERAGE = Literal.ascii(" AverageLatency(us)");
const NAN_CLOSE = Literal.ascii("NaN]");
const UNITS = {
  second: Literal.ascii("second"),
  minute: Literal.ascii("minute"),
  hour: Literal.ascii("hour"),
  day: Literal.ascii("day"),
};
/** "yyyy-MM-dd HH:mm:ss:SSS " (site.ycsb.StatusThread): where the elapsed seconds start on a line of YCSB >= 0.2. */
const STAMPED = 24;
const RAW_COUNT = " count: ";
const RAW_AVG = ", average latency(us): ";
/** How far into a line " sec: " may start: a date, a time and the elapsed seconds come before it. */
const SEC_WITHIN = 64;

/**
 * One `-s` status line (site.ycsb.StatusThread) appended to `series`; see StatusLineReader. True when it was
 * a status line. For a few lines; a stream of them is read with one StatusLineReader.
 */
export function appendStatusLine(line: string | Uint8Array, series: StatusSeriesBuilder, warn: Warn): boolean {
  const b = asBytes(line);
  let end = b.length;
  while (end > 0 && (b[end - 1] === 10 || b[end - 1] === 13)) end--;
  return new StatusLineReader(series, warn).read(b, 0, end);
}

/**
 * Reads the `-s` status lines of one stream, in any of the forms YCSB prints:
 *   `2024-05-01 10:00:00:123 10 sec: 12345 operations; 1234.5 current ops/sec; est completion in 1 minute
 *      [READ: Count=.., Max=.., Min=.., Avg=.., 90=.., 99=.., 99.9=.., 99.99=..] [UPDATE: ...]`  (hdrhistogram)
 *   `... [READ AverageLatency(us)=123.45]`                 (histogram, timeseries, and YCSB before 0.2 with no date)
 *   `... READ count: 10, average latency(us): 1039.70 ...`  (raw)
 * This is the hot path of a long run's stderr: bytes read in place, no regular expression, no string made but
 * the timestamp, values written straight into the series' columns. Parts that do not parse are reported through
 * `warn` and left null, never replaced by 0.
 */
export class StatusLineReader {
  private readonly decimal = new DecimalReader();
  private readonly groupNames = new NameTable();
  private readonly hdrBlocks: HdrBlockReader;
  private buffer: Buffer | undefined;
  private view = viewOf(Buffer.alloc(0));
  /** The estimate readEstimate found (NaN when none), beside its return value: no object per call. */
  private estimateSec = NaN;

  constructor(
    private readonly series: StatusSeriesBuilder,
    private readonly warn: Warn,
  ) {
    this.hdrBlocks = new HdrBlockReader(series, warn);
  }

  /** The line in bytes [start, end) of `b` (no line end): appended and true, or false (nothing appended) when it is not a status line. */
  read(b: Buffer, start: number, end: number): boolean {
    if (b !== this.buffer) {
      this.buffer = b;
      this.view = viewOf(b);
    }
    const view = this.view;
    const decimal = this.decimal;
    // "<date> <time> <elapsed> sec: <operations> operations; ...": where StatusThread puts the elapsed seconds
    // first, else wherever " sec: " is (no date before YCSB 0.2).
    let sec = -1;
    let space = start + STAMPED - 1;
    if (b[space] === 32 && b[start + 4] === 45 /* - */ && b[start + 10] === 32) {
      decimal.read(b, space + 1, end);
      if (literalAt(b, view, decimal.end, end, SEC)) sec = decimal.end;
    }
    if (sec < 0) {
      for (let i = start + 1, last = Math.min(end, start + SEC_WITHIN) - SEC.length; i <= last; i++) {
        if (
          b[i] === 115 /* s */ &&
          b[i - 1] === 32 &&
          b[i + 1] === 101 &&
          b[i + 2] === 99 &&
          b[i + 3] === 58 &&
          b[i + 4] === 32
        ) {
          sec = i - 1;
          break;
        }
      }
      if (sec <= start) return false;
      space = sec - 1;
      while (space >= start && b[space] !== 32) space--;
    }
    const elapsedSec = decimal.read(b, space + 1, sec);
    if (!(elapsedSec >= 0) || decimal.end !== sec) return false;
    const operations = decimal.read(b, sec + SEC.length, end);
    if (!(operations >= 0) || !Number.isInteger(operations) || !literalAt(b, view, decimal.end, end, OPERATIONS))
      return false;
    let pos = decimal.end + OPERATIONS.length;

    let atFrom = start;
    while (atFrom < space && b[atFrom] === 32) atFrom++;
    const atTo = Math.max(atFrom, space);

    // "12345 operations; 1234.5 current ops/sec; ": printed only once there are operations; "∞" -> null.
    let opsPerSec = NaN;
    pos = skipSeparator(b, pos, end);
    const rate = decimal.read(b, pos, end);
    if (rate >= 0 && literalAt(b, view, decimal.end, end, CURRENT)) {
      opsPerSec = rate;
      pos = skipSeparator(b, decimal.end + CURRENT.length, end);
    } else {
      let token = pos;
      while (token < end && b[token] !== 32) token++;
      if (literalAt(b, view, token, end, CURRENT)) {
        const text = textOf(b, pos, token);
        if (text !== "∞" && text !== "Infinity" && text !== "NaN" && text !== "\uFFFD")
          this.warn(`status line: current ops/sec "${text}" is not a number`);
        pos = skipSeparator(b, token + CURRENT.length, end);
      }
    }

    let estCompletionSec = NaN;
    if (literalAt(b, view, pos, end, EST)) {
      pos = this.readEstimate(b, pos + EST.length, end);
      estCompletionSec = this.estimateSec;
    }
    this.series.line(b, atFrom, atTo, elapsedSec, operations, opsPerSec, estCompletionSec);

    while (pos < end && b[pos] === 32) pos++;
    if (pos >= end) return true;
    if (b[pos] === 91 /* [ */) this.readBlocks(b, view, pos, end);
    else this.readRawBlocks(textOf(b, pos, end));
    return true;
  }

  /** "1 hour 5 minutes", "30 seconds", "0 second" (site.ycsb.RemainingFormatter): pairs of number and unit. Returns where they end. */
  private readEstimate(b: Buffer, from: number, end: number): number {
    let pos = from;
    let total = 0;
    let seen = false;
    for (;;) {
      while (pos < end && b[pos] === 32) pos++;
      const n = this.decimal.read(b, pos, end);
      const numEnd = this.decimal.end;
      if (!(n >= 0) || numEnd >= end || b[numEnd] !== 32) break;
      const u = b[numEnd + 1];
      const word =
        u === 115
          ? UNITS.second
          : u === 109
            ? UNITS.minute
            : u === 104
              ? UNITS.hour
              : u === 100
                ? UNITS.day
                : undefined;
      if (!word || !literalAt(b, this.view, numEnd + 1, end, word)) break;
      let unitEnd = numEnd + 1 + word.length;
      if (unitEnd < end && b[unitEnd] === 115 /* s */) unitEnd++;
      if (unitEnd !== end && b[unitEnd] !== 32) break;
      total += n * (u === 115 ? 1 : u === 109 ? 60 : u === 104 ? 3600 : 86400);
      seen = true;
      pos = unitEnd;
    }
    this.estimateSec = seen ? total : NaN;
    return pos;
  }

  /** " [READ: ...] [UPDATE: ...]" or " [READ AverageLatency(us)=...]", from the first "[". */
  private readBlocks(b: Buffer, view: DataView, open: number, end: number): void {
    const hdr = this.hdrBlocks;
    hdr.startLine();
    while (open < end) {
      let close = hdr.readKnown(b, view, open, end);
      if (close < 0) {
        // The name runs to ": " (hdrhistogram) or to "=" (" AverageLatency(us)=", histogram and timeseries).
        let n = open + 1;
        let c = b[n];
        while (n < end && c !== 58 && c !== 61 && c !== 93) c = b[++n];
        if (c === 58 && b[n + 1] === 32) {
          close = hdr.read(b, open, this.groupNames.get(b, open + 1, n), n + 2, end);
        } else if (c === 61 && n - AVERAGE.length > open + 1 && literalAt(b, view, n - AVERAGE.length, n, AVERAGE)) {
          close = this.readAverageBlock(b, this.groupNames.get(b, open + 1, n - AVERAGE.length), n + 1, end);
        } else {
          close = n;
          while (close < end && b[close] !== 93) close++;
          this.warn(
            close < end
              ? `status line: unknown block "${textOf(b, open, close + 1)}"`
              : `status line: unterminated block "${textOf(b, open, Math.min(end, open + 40))}"`,
          );
        }
      }
      if (close >= end) return;
      open = close + 1;
      while (open < end && b[open] !== 91) open++;
    }
  }

  /** "=1234.5]" of "[READ AverageLatency(us)=1234.5]"; returns where "]" is (or end). */
  private readAverageBlock(b: Buffer, name: string, from: number, end: number): number {
    let close = from;
    while (close < end && b[close] !== 93) close++;
    if (close >= end) {
      this.warn(`status line: unterminated block "[${name} ..."`);
      return end;
    }
    const avg = this.decimal.read(b, from, close);
    const ok = avg >= 0 && this.decimal.end === close;
    // A window without operations prints NaN: no average, not a zero.
    if (!ok && !literalAt(b, this.view, from, close + 1, NAN_CLOSE))
      this.warn(`status line: [${name}] average "${textOf(b, from, close)}" is not a number`);
    this.series.values(this.series.group(name), NaN, ok ? avg : NaN, NaN, NaN);
    return close;
  }

  /** measurementtype=raw: "READ count: 10, average latency(us): 1039.70 UPDATE count: 12, average latency(us): 1176.75" */
  private readRawBlocks(text: string): void {
    let pos = 0;
    for (;;) {
      const countAt = text.indexOf(RAW_COUNT, pos);
      if (countAt < 0) break;
      const name = text.slice(pos, countAt).trim();
      const avgAt = text.indexOf(RAW_AVG, countAt);
      if (avgAt < 0) {
        this.warn(`status line: [${name}] has a count but no average latency`);
        break;
      }
      let stop = text.indexOf(" ", avgAt + RAW_AVG.length);
      if (stop < 0) stop = text.length;
      const countText = text.slice(countAt + RAW_COUNT.length, avgAt);
      const count = toCount(countText);
      const avg = toNumber(text.slice(avgAt + RAW_AVG.length, stop));
      if (count === undefined) this.warn(`status line: [${name}] count "${countText}" is not a number`);
      else
        this.series.values(
          this.series.group(name),
          count,
          avg !== undefined && avg >= 0 && count > 0 ? avg : NaN,
          NaN,
          NaN,
        );
      pos = stop;
    }
    if (pos === 0 && text.trim().length > 0)
      this.warn(
        `status line: unknown text after the estimate "${text.length > 60 ? `${text.slice(0, 57)}...` : text}"`,
      );
  }
}

/** Past "; " (or just spaces). */
function skipSeparator(b: Buffer, pos: number, end: number): number {
  if (pos < end && b[pos] === 59 /* ; */) pos++;
  while (pos < end && b[pos] === 32) pos++;
  return pos;
}
