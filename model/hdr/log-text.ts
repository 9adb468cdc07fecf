import { HdrLogError } from "./errors.js";

/** One data line of an HdrHistogram interval log (`hdrhistogram.fileoutput` in YCSB). */
export interface HdrIntervalLine {
  /** 1-based line number in the log text, for error messages. */
  line: number;
  /** `Tag=...` prefix, absent in YCSB logs. */
  tag?: string;
  /** Interval start, seconds, as written (YCSB: relative to the client's start). */
  startSec: number;
  lengthSec: number;
  /** The `Interval_Max` column: max / maxValueUnitRatio (1e6 by default), rounded to 3 decimals. */
  maxColumn: number;
  /** The compressed histogram, base64 (cookie 0x1c849302 = V1, 0x1c849304 = V2). */
  payload: string;
}

export interface HdrLogText {
  source: string;
  /** `#[StartTime: ...]`, seconds since epoch, if present. */
  startTimeSec?: number;
  /** `#[BaseTime: ...]`, if present (YCSB never writes one). */
  baseTimeSec?: number;
  /** `#[Histogram log format version ...]`, if present. */
  formatVersion?: string;
  /** Every data line, in file order: none is dropped for starting before a base time. */
  intervals: HdrIntervalLine[];
}

const LEGEND = /^"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"$/;
const NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

function headerNumber(line: string, key: string): number | undefined {
  const at = line.indexOf(key);
  if (at < 0) return undefined;
  const value = Number.parseFloat(line.slice(at + key.length).trim());
  return Number.isFinite(value) ? value : undefined;
}

/**
 * Splits an interval log into its data lines (HdrHistogram's HistogramLogWriter format, 1.1-1.3).
 * Our own reader because hdr-histogram-js's HistogramLogReader drops intervals that start before the
 * log's base time, and YCSB's logs have no base-time line.
 */
export function parseHdrLogText(text: string, source = "<log>"): HdrLogText {
  const log: HdrLogText = { source, intervals: [] };
  let lineNo = 0;
  let pos = 0;
  const n = text.length;
  while (pos < n) {
    let end = text.indexOf("\n", pos);
    if (end < 0) end = n;
    let raw = text.slice(pos, end);
    pos = end + 1;
    lineNo++;
    if (raw.endsWith("\r")) raw = raw.slice(0, -1);
    if (raw.length === 0) continue;
    const first = raw.charCodeAt(0);
    if (first === 35 /* # */) {
      if (raw.startsWith("#[StartTime:")) log.startTimeSec = headerNumber(raw, "#[StartTime:");
      else if (raw.startsWith("#[BaseTime:")) log.baseTimeSec = headerNumber(raw, "#[BaseTime:");
      else if (raw.startsWith("#[Histogram log format version")) {
        log.formatVersion = raw.slice("#[Histogram log format version".length).replace("]", "").trim();
      }
      continue;
    }
    if (first === 34 /* " */) {
      if (!LEGEND.test(raw)) throw new HdrLogError(source, lineNo, `unexpected header line: ${raw.slice(0, 80)}`);
      continue;
    }
    log.intervals.push(parseDataLine(raw, source, lineNo));
  }
  return log;
}

function parseDataLine(raw: string, source: string, line: number): HdrIntervalLine {
  let rest = raw;
  let tag: string | undefined;
  if (rest.startsWith("Tag=")) {
    const comma = rest.indexOf(",");
    if (comma < 0) throw new HdrLogError(source, line, "Tag= prefix without the interval fields after it");
    tag = rest.slice(4, comma);
    rest = rest.slice(comma + 1);
  }
  const fields = rest.split(",");
  if (fields.length !== 4) {
    throw new HdrLogError(source, line, `expected 4 fields (start,length,max,histogram), found ${fields.length}`);
  }
  const [start, length, max, payload] = fields as [string, string, string, string];
  const names = ["StartTimestamp", "Interval_Length", "Interval_Max"];
  [start, length, max].forEach((f, i) => {
    if (!NUMBER.test(f)) throw new HdrLogError(source, line, `${names[i]} is not a number: "${f.slice(0, 40)}"`);
  });
  if (payload.length === 0) throw new HdrLogError(source, line, "empty histogram field");
  if (payload.length % 4 !== 0) {
    throw new HdrLogError(source, line, `base64 truncated (${payload.length} characters, not a multiple of 4)`);
  }
  const interval: HdrIntervalLine = {
    line,
    startSec: Number(start),
    lengthSec: Number(length),
    maxColumn: Number(max),
    payload,
  };
  if (tag !== undefined) interval.tag = tag;
  return interval;
}
