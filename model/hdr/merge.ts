import type { JsHistogram } from "hdr-histogram-js";
import { HdrLogError } from "./errors.js";
import { createHistogram, decodeHistogram, sameLayout } from "./histogram.js";
import { parseHdrLogText } from "./log-text.js";
import { addPayloadCounts, HdrPayloadError, inflatePayload } from "./payload.js";

/** One interval log: one client's one operation (YCSB writes `<OPERATION>.hdr` per client). */
export interface HdrLogInput {
  client: string;
  /** The operation group, e.g. READ, UPDATE, READ-FAILED, Intended-READ (the file name without `.hdr`). */
  operation: string;
  text: string;
  /** Names the log in error messages (a file path); defaults to `<client>/<operation>.hdr`. */
  source?: string;
}

export interface HdrMergeOptions {
  /** Window start, seconds after each log's first interval start (inclusive). */
  fromSec?: number;
  /** Window end, seconds after each log's first interval start (exclusive). */
  toSec?: number;
  /** Percentiles to report, e.g. [50, 95, 99, 99.9]. */
  percentiles?: number[];
}

export const DEFAULT_PERCENTILES: readonly number[] = [50, 95, 99, 99.9];

/** Latency of one operation group, merged over clients and intervals (microseconds, as YCSB records). */
export interface OperationLatency {
  count: number;
  /** Statistics are null when no recording falls in the window. */
  avgUs: number | null;
  minUs: number | null;
  maxUs: number | null;
  /** Keyed by the percentile as written, e.g. "99.9". */
  percentilesUs: Record<string, number | null>;
  /** Logs (clients) that contributed, and intervals merged. */
  logs: number;
  intervals: number;
}

export interface HdrLogSummary {
  client: string;
  operation: string;
  source: string;
  /** Data lines in the log. */
  intervalLines: number;
  /** Intervals inside the window (all of them without a window). */
  intervalsMerged: number;
  count: number;
}

export interface HdrMergeResult {
  operations: Record<string, OperationLatency>;
  clients: number;
  intervals: number;
  logs: HdrLogSummary[];
}

/**
 * Reports a percentile from the merged histogram, never an average of per-client percentiles.
 * Key is the percentile as the user wrote it ("99.9").
 */
export const percentileKey = (p: number): string => String(p);

function checkOptions(opts: HdrMergeOptions): void {
  const { fromSec, toSec } = opts;
  if (fromSec !== undefined && !(Number.isFinite(fromSec) && fromSec >= 0)) {
    throw new RangeError(`window start ${fromSec} must be a number >= 0`);
  }
  if (toSec !== undefined && !Number.isFinite(toSec)) throw new RangeError(`window end ${toSec} must be a number`);
  if (fromSec !== undefined && toSec !== undefined && !(toSec > fromSec)) {
    throw new RangeError(`window end ${toSec} must be after window start ${fromSec}`);
  }
  for (const p of opts.percentiles ?? []) {
    if (!(Number.isFinite(p) && p > 0 && p <= 100)) throw new RangeError(`percentile ${p} must be in (0, 100]`);
  }
}

/**
 * Merges interval logs log by log (so a caller can stream files): every interval of every log counts,
 * there is no base-time filter. Counts are decoded straight into one accumulator per operation when the
 * layout matches (the common case), else decoded and added with hdr-histogram-js's add().
 */
export class HdrMerger {
  private readonly accumulators = new Map<string, { histogram: JsHistogram; logs: number; intervals: number }>();
  private readonly clients = new Set<string>();
  private readonly summaries: HdrLogSummary[] = [];
  private readonly from: number;
  private readonly to: number;

  constructor(private readonly opts: HdrMergeOptions = {}) {
    checkOptions(opts);
    this.from = opts.fromSec ?? 0;
    this.to = opts.toSec ?? Number.POSITIVE_INFINITY;
  }

  addLog(input: HdrLogInput): HdrLogSummary {
    const source = input.source ?? `${input.client}/${input.operation}.hdr`;
    const log = parseHdrLogText(input.text, source);
    const first = log.intervals[0];
    if (!first) {
      const lines = input.text.split("\n").length;
      throw new HdrLogError(source, lines, "empty log: no interval lines");
    }
    // Tagged intervals are distinct series (HdrHistogram log format 1.3); YCSB writes none.
    let merged = 0;
    let count = 0;
    const touched = new Set<string>();
    for (const interval of log.intervals) {
      const rel = interval.startSec - first.startSec;
      if (rel < this.from || rel >= this.to) continue;
      const key = interval.tag === undefined ? input.operation : `${input.operation}[${interval.tag}]`;
      try {
        count += this.addInterval(key, interval.payload);
      } catch (err) {
        if (err instanceof HdrPayloadError) throw new HdrLogError(source, interval.line, err.message);
        throw err;
      }
      merged++;
      touched.add(key);
    }
    this.clients.add(input.client);
    for (const key of touched) this.accumulators.get(key)!.logs++;
    const summary: HdrLogSummary = {
      client: input.client,
      operation: input.operation,
      source,
      intervalLines: log.intervals.length,
      intervalsMerged: merged,
      count,
    };
    this.summaries.push(summary);
    return summary;
  }

  private addInterval(key: string, base64: string): number {
    const payload = inflatePayload(base64);
    let acc = this.accumulators.get(key);
    if (!acc) {
      acc = { histogram: createHistogram(payload, payload.highestTrackableValue), logs: 0, intervals: 0 };
      this.accumulators.set(key, acc);
    }
    acc.intervals++;
    const h = acc.histogram;
    if (sameLayout(payload, h)) {
      if (payload.highestTrackableValue > h.highestTrackableValue) h.resize(payload.highestTrackableValue);
      return addPayloadCounts(payload, h);
    }
    const other = decodeHistogram(base64);
    h.add(other);
    return other.totalCount;
  }

  /** The merged histogram of one operation (call after result()), for statistics beyond percentiles. */
  histogram(operation: string): JsHistogram | undefined {
    return this.accumulators.get(operation)?.histogram;
  }

  result(): HdrMergeResult {
    const percentiles = this.opts.percentiles ?? DEFAULT_PERCENTILES;
    const operations: Record<string, OperationLatency> = {};
    let intervals = 0;
    for (const [key, acc] of [...this.accumulators].sort(([a], [b]) => a.localeCompare(b))) {
      const h = acc.histogram;
      h.establishInternalTackingValues();
      intervals += acc.intervals;
      operations[key] = { ...latencyOf(h, percentiles), logs: acc.logs, intervals: acc.intervals };
    }
    return { operations, clients: this.clients.size, intervals, logs: this.summaries };
  }
}

/** count/avg/min/max/percentiles the way HdrHistogram (Java) reports them: getMinValue, getMaxValue, getMean. */
export function latencyOf(
  h: JsHistogram,
  percentiles: readonly number[],
): Omit<OperationLatency, "logs" | "intervals"> {
  const count = h.totalCount;
  const percentilesUs: Record<string, number | null> = {};
  for (const p of percentiles) percentilesUs[percentileKey(p)] = count > 0 ? h.getValueAtPercentile(p) : null;
  if (count === 0) return { count, avgUs: null, minUs: null, maxUs: null, percentilesUs };
  const minUs = h.getCountAtIndex(0) > 0 ? 0 : h.lowestEquivalentValue(h.minNonZeroValue);
  return { count, avgUs: h.mean, minUs, maxUs: h.maxValue, percentilesUs };
}

/** Merges many logs at once; see HdrMerger. */
export function mergeHdrLogs(logs: Iterable<HdrLogInput>, opts: HdrMergeOptions = {}): HdrMergeResult {
  const merger = new HdrMerger(opts);
  for (const log of logs) merger.addLog(log);
  return merger.result();
}
