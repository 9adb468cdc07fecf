import type { StatusSeriesBuilder } from "../../model/status-series.js";
import { numberAt } from "./numbers.js";

type Warn = (message: string) => void;

const SEC = " sec: ";
const OPERATIONS = " operations";
const CURRENT = " current ops/sec";
const EST = "est completion in ";
const AVG_FORM = " AverageLatency(us)=";
const RAW_COUNT = " count: ";
const RAW_AVG = ", average latency(us): ";


/**
 * One `-s` status line (site.ycsb.StatusThread), in any of the forms YCSB prints:
 *   `2024-05-01 10:00:00:123 10 sec: 12345 operations; 1234.5 current ops/sec; est completion in 1 minute
 *      [READ: Count=.., Max=.., Min=.., Avg=.., 90=.., 99=.., 99.9=.., 99.99=..] [UPDATE: ...]`  (hdrhistogram)
 *   `... [READ AverageLatency(us)=123.45]`                 (histogram, timeseries, and YCSB before 0.2 with no date)
 *   `... READ count: 10, average latency(us): 1039.70 ...`  (raw)
 * Appends the line to `series` and returns true, or returns false (and appends nothing) when it is not a status
 * line. Parts that do not parse are reported through `warn` and left null, never replaced by 0. This is the hot
 * path of a long run's stderr: no regular expressions, numbers read in place, repeated names reused rather than
 * sliced per line, and values appended to columns rather than to an object per line.
 */
export function appendStatusLine(line: string, series: StatusSeriesBuilder, warn: Warn): boolean {
  const sec = line.indexOf(SEC);
  if (sec <= 0) return false;
  const opsEnd = line.indexOf(OPERATIONS, sec + 6);
  if (opsEnd < 0) return false;
  const space = line.lastIndexOf(" ", sec - 1);
  const elapsedSec = numberAt(line, space + 1, sec);
  const operations = numberAt(line, sec + 6, opsEnd);
  if (elapsedSec === undefined || elapsedSec < 0 || operations === undefined || operations < 0 || !Number.isInteger(operations)) return false;

  let at: string | null = null;
  if (space > 0) {
    let start = 0;
    while (line.charCodeAt(start) === 32) start++;
    if (start < space) at = line.slice(start, space);
  }
  // "12345 operations; 1234.5 current ops/sec; " ; "∞ current ops/sec" on the first line -> null.
  let opsPerSec: number | null = null;
  let pos = opsEnd + OPERATIONS.length;
  if (line.charCodeAt(pos) === 59 /* ; */) pos++;
  const current = line.indexOf(CURRENT, pos);
  if (current >= 0) {
    while (line.charCodeAt(pos) === 32) pos++;
    const rate = numberAt(line, pos, current);
    if (rate !== undefined && rate >= 0) opsPerSec = rate;
    else {
      const text = line.slice(pos, current);
      if (text !== "∞" && text !== "Infinity" && text !== "NaN") warn(`status line: current ops/sec "${text}" is not a number`);
    }
    pos = current + CURRENT.length;
    if (line.charCodeAt(pos) === 59) pos++;
  }
  let estCompletionSec: number | null = null;
  const est = line.indexOf(EST, pos);
  if (est >= 0) {
    pos = parseEstimate(line, est + EST.length);
    estCompletionSec = estimateSec;
  }
  series.line(at, elapsedSec, operations, opsPerSec, estCompletionSec);

  const open = line.indexOf("[", pos);
  if (open >= 0) parseBracketBlocks(line, open, series, warn);
  else if (line.indexOf(RAW_COUNT, pos) >= 0) parseRawBlocks(line, pos, series, warn);
  return true;
}

/** The estimate parseEstimate read (null when none), beside its return value: no object per call. */
let estimateSec: number | null = null;

/** "1 hour 5 minutes", "30 seconds", "0 second": pairs of number and unit. Returns where they end. */
function parseEstimate(line: string, from: number): number {
  let pos = from;
  let total = 0;
  let seen = false;
  for (;;) {
    while (line.charCodeAt(pos) === 32) pos++;
    const numEnd = line.indexOf(" ", pos);
    if (numEnd < 0) break;
    const n = numberAt(line, pos, numEnd);
    if (n === undefined) break;
    // site.ycsb.RemainingFormatter: "day(s)", "hour(s)", "minute(s)", "second(s)".
    const u = line.charCodeAt(numEnd + 1);
    const word = u === 115 ? "second" : u === 109 ? "minute" : u === 104 ? "hour" : u === 100 ? "day" : undefined;
    if (!word || !line.startsWith(word, numEnd + 1)) break;
    let end = numEnd + 1 + word.length;
    if (line.charCodeAt(end) === 115 /* s */) end++;
    if (end !== line.length && line.charCodeAt(end) !== 32) break;
    total += n * (u === 115 ? 1 : u === 109 ? 60 : u === 104 ? 3600 : 86400);
    seen = true;
    pos = end;
  }
  estimateSec = seen ? total : null;
  return pos;
}

function parseBracketBlocks(line: string, open: number, series: StatusSeriesBuilder, warn: Warn): void {
  while (open >= 0) {
    const close = line.indexOf("]", open);
    if (close < 0) {
      warn(`status line: unterminated block "${line.slice(open, open + 40)}"`);
      return;
    }
    const colon = line.indexOf(": ", open);
    if (colon > 0 && colon < close) {
      parseHdrBlock(line, intern(line, open + 1, colon), colon + 2, close, series, warn);
    } else {
      const avg = line.indexOf(AVG_FORM, open);
      if (avg > 0 && avg < close) {
        const name = intern(line, open + 1, avg);
        const n = numberAt(line, avg + AVG_FORM.length, close);
        // A window without operations prints NaN: no average, not a zero.
        if (n === undefined && !line.startsWith("NaN]", avg + AVG_FORM.length)) {
          warn(`status line: [${name}] average "${line.slice(avg + AVG_FORM.length, close)}" is not a number`);
        }
        series.values(series.group(name), null, n === undefined || n < 0 ? null : n, null, null);
      } else {
        warn(`status line: unknown block "${line.slice(open, close + 1)}"`);
      }
    }
    open = line.indexOf("[", close);
  }
}

// Scratch space for one block's percentiles, reused across lines.
const scratchKeys: string[] = [];
const scratchValues: number[] = [];

/** "READ: Count=1376, Max=58399, Min=0, Avg=1449.56, 90=2083, 99=11991, 99.9=34495, 99.99=58399" */
function parseHdrBlock(line: string, name: string, from: number, close: number, series: StatusSeriesBuilder, warn: Warn): void {
  let count = -1;
  let avgUs: number | null = null;
  let minUs: number | undefined;
  let maxUs: number | undefined;
  let percentiles = 0;
  let pos = from;
  while (pos < close) {
    // One pass of charCodeAt over "Key=value, ", the value's digits read on the way (numberAt only off the
    // common path): reading every character once is the floor, and this block is most of every line.
    let eq = pos;
    let c = line.charCodeAt(eq);
    while (eq < close && c !== 61 /* = */ && c !== 44 /* , */) c = line.charCodeAt(++eq);
    if (eq >= close || c === 44) {
      warn(`status line: [${name}] entry "${line.slice(pos, eq)}" has no "="`);
      pos = eq + 2;
      continue;
    }
    const from = eq + 1;
    let i = from;
    let n = 0;
    let d = line.charCodeAt(i) - 48;
    while (d >= 0 && d <= 9) {
      n = n * 10 + d;
      d = line.charCodeAt(++i) - 48;
    }
    if (d === -2 /* . */ && i > from) {
      let scale = 1;
      d = line.charCodeAt(++i) - 48;
      while (d >= 0 && d <= 9) {
        n = n * 10 + d;
        scale *= 10;
        d = line.charCodeAt(++i) - 48;
      }
      // One division of two exact integers (<= 15 digits) is correctly rounded: the same double as Number().
      n /= scale;
    }
    let end = i;
    let value: number | undefined = n;
    if (i === from || i - from > 15 || (i < close && d !== -4 /* , */)) {
      // Not a plain short decimal (NaN, a sign, an exponent, 19 digits of Long.MAX_VALUE): the general path.
      while (end < close && line.charCodeAt(end) !== 44) end++;
      value = numberAt(line, from, end);
    }
    const k = line.charCodeAt(pos);
    const width = eq - pos;
    if (value === undefined) {
      if (!(width === 3 && line.startsWith("Avg=NaN", pos))) warn(`status line: [${name}] ${line.slice(pos, end)} is not a number`);
    } else if (k === 67 /* C */ && width === 5) count = Number.isInteger(value) && value >= 0 ? value : -1; // Count
    else if (k === 65 /* A */ && width === 3) avgUs = value; // Avg
    else if (k === 77 /* M */ && width === 3) {
      if (line.charCodeAt(pos + 1) === 105 /* i */) minUs = value; // Min
      else maxUs = value; // Max
    } else {
      scratchKeys[percentiles] = intern(line, pos, eq);
      scratchValues[percentiles++] = value;
    }
    pos = end + 2;
  }
  if (count < 0) {
    warn(`status line: [${name}] has no valid Count`);
    return;
  }
  const g = series.group(name);
  // An empty window prints Min=Long.MAX_VALUE, Max=0, Avg=NaN and zero percentiles: none is a measurement.
  if (count === 0) {
    series.values(g, 0, null, null, null);
    return;
  }
  series.values(g, count, avgUs, minUs ?? null, maxUs ?? null);
  for (let k = 0; k < percentiles; k++) series.percentile(g, scratchKeys[k]!, scratchValues[k]!);
}

/** measurementtype=raw: "READ count: 10, average latency(us): 1039.70 UPDATE count: 12, average latency(us): 1176.75" */
function parseRawBlocks(line: string, from: number, series: StatusSeriesBuilder, warn: Warn): void {
  let pos = from;
  for (;;) {
    const countAt = line.indexOf(RAW_COUNT, pos);
    if (countAt < 0) break;
    const name = line.slice(pos, countAt).trim();
    const avgAt = line.indexOf(RAW_AVG, countAt);
    if (avgAt < 0) {
      warn(`status line: [${name}] has a count but no average latency`);
      break;
    }
    let end = line.indexOf(" ", avgAt + RAW_AVG.length);
    if (end < 0) end = line.length;
    const count = numberAt(line, countAt + RAW_COUNT.length, avgAt);
    const avg = numberAt(line, avgAt + RAW_AVG.length, end);
    if (count === undefined || count < 0 || !Number.isInteger(count)) warn(`status line: [${name}] count "${line.slice(countAt + RAW_COUNT.length, avgAt)}" is not a number`);
    else series.values(series.group(name), count, avg === undefined || avg < 0 || count === 0 ? null : avg, null, null);
    pos = end;
  }
}

/**
 * Group names and percentile keys repeat on every status line: reuse one string each rather than slicing a new
 * one per line (allocation, not parsing, is what limits the speed on a status-heavy output).
 */
const interned: string[] = [];
function intern(line: string, from: number, to: number): string {
  const length = to - from;
  const first = line.charCodeAt(from);
  const last = line.charCodeAt(to - 1);
  for (let i = 0; i < interned.length; i++) {
    const s = interned[i]!;
    if (s.length === length && s.charCodeAt(0) === first && s.charCodeAt(length - 1) === last && line.startsWith(s, from)) return s;
  }
  const s = line.slice(from, to);
  if (interned.length < 256) interned.push(s);
  return s;
}
