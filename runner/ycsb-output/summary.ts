import type { ClientOutput, OperationStats } from "../../model/result-document.js";
import { YcsbOutputError } from "./errors.js";
import { percentileKey, toCount, toNumber } from "./numbers.js";

/** Where a summary entry came from, for warnings and errors. */
export interface Origin {
  stream: "stdout" | "stderr";
  line: number;
}

/** Groups whose Return= counts YCSB prints (DBWrapper.reportStatus is called for these operations only). */
const RETURNING_GROUPS = new Set(["READ", "UPDATE", "INSERT", "SCAN", "DELETE"]);
const RAW_LABEL = "Below is a summary of latency in microseconds:";

interface GroupState {
  name: string;
  first: Origin;
  last: Origin;
  count?: number;
  avgUs?: number;
  minUs?: number;
  maxUs?: number;
  percentilesUs: Record<string, number>;
  returns: Record<string, number>;
  hasReturns: boolean;
  histogramBuckets?: { bucket: string; count: number }[];
  timeSeries?: { tMs: number; avgUs: number }[];
  extra?: Record<string, number | string>;
  /** LatencyVariance(us) is printed by measurementtype=histogram only (OneMeasurementHistogram). */
  hasVariance: boolean;
  isRaw: boolean;
  hasHdrPercentiles: boolean;
}

type GcEntry = ClientOutput["gc"][string];

/**
 * Collects the `[GROUP], Name, value` entries of a YCSB summary (text or JSON exporter) and checks,
 * at the end, that nothing is missing: a missing value is a warning, a cut summary an error.
 */
export class SummaryBuilder {
  private runtimeMs: number | undefined;
  private throughputOpsSec: number | undefined;
  private overallAt: Origin | undefined;
  private readonly groups = new Map<string, GroupState>();
  private readonly gc: Record<string, GcEntry> = {};
  private lastGroup: GroupState | undefined;

  constructor(private readonly warnings: string[]) {}

  private warn(at: Origin, message: string): void {
    this.warnings.push(`${at.stream} line ${at.line}: ${message}`);
  }

  /** One summary entry. `value` is the text as printed (JSON values are passed as their string form). */
  add(group: string, name: string, value: string, at: Origin): void {
    if (group === "OVERALL") {
      this.addOverall(name, value, at);
      return;
    }
    if (group.startsWith("TOTAL_GC") && this.addGc(group, name, value, at)) return;
    let state = this.groups.get(group);
    if (!state) {
      state = {
        name: group,
        first: at,
        last: at,
        percentilesUs: {},
        returns: {},
        hasReturns: false,
        hasVariance: false,
        isRaw: false,
        hasHdrPercentiles: false,
      };
      this.groups.set(group, state);
    }
    state.last = at;
    this.lastGroup = state;
    this.addToGroup(state, name, value, at);
  }

  private addOverall(name: string, value: string, at: Origin): void {
    this.overallAt ??= at;
    const n = toNumber(value);
    if (name === "RunTime(ms)") {
      if (n === undefined || n < 0) this.warn(at, `[OVERALL] RunTime(ms) "${value}" is not a number`);
      else this.runtimeMs = n;
    } else if (name === "Throughput(ops/sec)") {
      if (n === undefined || n < 0) this.warn(at, `[OVERALL] Throughput(ops/sec) "${value}" is not a number`);
      else this.throughputOpsSec = n;
    } else {
      this.warn(at, `[OVERALL] has an unknown entry "${name}" (kept out of the result)`);
    }
  }

  /** TOTAL_GCS_<name>/Count, TOTAL_GC_TIME_<name>/Time(ms), TOTAL_GC_TIME_%_<name>/Time(%), and the "" totals. */
  private addGc(group: string, name: string, value: string, at: Origin): boolean {
    let collector: string;
    let field: keyof GcEntry;
    if (group === "TOTAL_GCs") [collector, field] = ["", "count"];
    else if (group === "TOTAL_GC_TIME") [collector, field] = ["", "timeMs"];
    else if (group === "TOTAL_GC_TIME_%") [collector, field] = ["", "timePct"];
    else if (group.startsWith("TOTAL_GC_TIME_%_")) [collector, field] = [group.slice(16), "timePct"];
    else if (group.startsWith("TOTAL_GC_TIME_")) [collector, field] = [group.slice(14), "timeMs"];
    else if (group.startsWith("TOTAL_GCS_")) [collector, field] = [group.slice(10), "count"];
    else return false;
    const expected = field === "count" ? "Count" : field === "timeMs" ? "Time(ms)" : "Time(%)";
    if (name !== expected) {
      this.warn(at, `[${group}] has "${name}" where YCSB prints "${expected}" (kept out of the result)`);
      return true;
    }
    const n = field === "count" ? toCount(value) : toNumber(value);
    if (n === undefined || n < 0) {
      this.warn(at, `[${group}] ${name} "${value}" is not a valid number`);
      return true;
    }
    (this.gc[collector] ??= {})[field] = n;
    return true;
  }

  private addToGroup(g: GroupState, name: string, value: string, at: Origin): void {
    const bad = (what: string) => this.warn(at, `[${g.name}] ${what} "${value}" is not a valid number`);
    const first = name.charCodeAt(0);
    if (name === "Operations" || name === "Total Operations") {
      if (name === "Total Operations") g.isRaw = true;
      const n = toCount(value);
      if (n === undefined) bad(name);
      else {
        if (g.count !== undefined) this.warn(at, `[${g.name}] ${name} printed twice; the later value ${n} is kept`);
        g.count = n;
      }
    } else if (name === "AverageLatency(us)" || name === "Average") {
      const n = toNumber(value);
      if (n === undefined || n < 0) bad(name);
      else g.avgUs = n;
    } else if (name === "MinLatency(us)" || name === "Min") {
      const n = toNumber(value);
      if (n === undefined || n < 0) bad(name);
      else g.minUs = n;
    } else if (name === "MaxLatency(us)" || name === "Max") {
      const n = toNumber(value);
      if (n === undefined || n < 0) bad(name);
      else g.maxUs = n;
    } else if (name.startsWith("Return=")) {
      g.hasReturns = true;
      const n = toCount(value);
      if (n === undefined) bad(name);
      else g.returns[name.slice(7)] = n;
    } else if (first >= 48 && first <= 57 && toNumber(name) !== undefined) {
      // "[READ], 3, 120": a histogram bucket (ms) when the group printed LatencyVariance, else a timeseries point.
      const key = Number(name);
      const n = toNumber(value);
      if (g.hasVariance) {
        const c = toCount(value);
        if (c === undefined) bad(`bucket ${name}`);
        else (g.histogramBuckets ??= []).push({ bucket: name, count: c });
      } else {
        if (n === undefined || n < 0) bad(`time ${name} ms`);
        else (g.timeSeries ??= []).push({ tMs: key, avgUs: n });
      }
    } else if (first === 62 /* ">" */ && toCount(name.slice(1)) !== undefined) {
      const c = toCount(value);
      if (c === undefined) bad(`bucket ${name}`);
      else (g.histogramBuckets ??= []).push({ bucket: name, count: c });
    } else if (name === "LatencyVariance(us)") {
      g.hasVariance = true;
      this.addExtra(g, name, value);
    } else if (name === RAW_LABEL) {
      g.isRaw = true; // a label line YCSB prints with the value -1 (OneMeasurementRaw); no data.
    } else {
      const key = percentileKey(name) ?? (first === 112 /* "p" */ && g.isRaw ? rawPercentileKey(name) : undefined);
      const n = key === undefined ? undefined : toNumber(value);
      if (key === undefined) this.addExtra(g, name, value);
      else if (n === undefined || n < 0) bad(name);
      else {
        if (!g.isRaw) g.hasHdrPercentiles = true;
        g.percentilesUs[key] = n;
      }
    }
  }

  private addExtra(g: GroupState, name: string, value: string): void {
    const n = toNumber(value);
    (g.extra ??= {})[name] = n ?? value;
  }

  get hasOverall(): boolean {
    return this.overallAt !== undefined;
  }

  /** The checked result. Throws YcsbOutputError when the summary is absent or was cut short. */
  finish(where: {
    stream: "stdout" | "stderr";
    lines: number;
  }): Pick<ClientOutput, "overall" | "operations" | "gc" | "measurementType"> {
    if (!this.overallAt) {
      throw new YcsbOutputError(
        `no [OVERALL] section in ${where.lines} lines: YCSB did not finish or this is not YCSB output`,
        where.stream,
      );
    }
    if (this.runtimeMs === undefined)
      throw new YcsbOutputError("[OVERALL] has no valid RunTime(ms) line", this.overallAt.stream, this.overallAt.line);
    if (this.throughputOpsSec === undefined) {
      throw new YcsbOutputError(
        "[OVERALL] has no valid Throughput(ops/sec) line",
        this.overallAt.stream,
        this.overallAt.line,
      );
    }
    const last = this.lastGroup;
    if (!last) {
      throw new YcsbOutputError(
        "the summary has [OVERALL] but no operation group (YCSB always prints CLEANUP): cut short?",
        where.stream,
        where.lines,
      );
    }
    this.checkLastGroup(last);

    const operations: Record<string, OperationStats> = {};
    let type: string | null = null;
    for (const g of this.groups.values()) {
      if (g.isRaw) type = "raw";
      else if (type !== "raw" && (g.hasVariance || g.histogramBuckets)) type = "histogram";
      else if (type === null && g.hasHdrPercentiles) type = "hdrhistogram";
      else if (type === null && g.timeSeries) type = "timeseries";
      if (g.count === undefined) {
        this.warn(g.first, `[${g.name}] has no valid Operations line; the group is left out of the result`);
        continue;
      }
      for (const [field, label] of [
        ["avgUs", "average"],
        ["minUs", "min"],
        ["maxUs", "max"],
      ] as const) {
        if (g[field] === undefined && g.count > 0) this.warn(g.first, `[${g.name}] has no ${label} latency line`);
      }
      if (RETURNING_GROUPS.has(g.name) && !g.hasReturns) this.warn(g.first, `[${g.name}] has no Return= lines`);
      const stats: OperationStats = {
        count: g.count,
        avgUs: g.avgUs ?? null,
        minUs: g.minUs ?? null,
        maxUs: g.maxUs ?? null,
        percentilesUs: g.percentilesUs,
        returns: g.returns,
      };
      if (g.histogramBuckets) stats.histogramBuckets = g.histogramBuckets;
      if (g.timeSeries) stats.timeSeries = g.timeSeries;
      if (g.extra) stats.extra = g.extra;
      operations[g.name] = stats;
    }
    this.checkOperationsAddUp(operations, this.runtimeMs, this.throughputOpsSec);
    return {
      overall: { runtimeMs: this.runtimeMs, throughputOpsSec: this.throughputOpsSec },
      operations,
      gc: this.gc,
      measurementType: type,
    };
  }

  /**
   * A summary cut cleanly between two groups leaves no broken line; what betrays it is the total. Client.java
   * prints Throughput = 1000 * opsDone / runtime, and every operation has one Return= count (a
   * READ-MODIFY-WRITE has two: its READ and its UPDATE). A warning, not an error: insert retries
   * (core_workload_insertion_retry_limit) also add Return= counts.
   */
  private checkOperationsAddUp(
    operations: Record<string, OperationStats>,
    runtimeMs: number,
    throughput: number,
  ): void {
    let returned = 0;
    for (const name of RETURNING_GROUPS) {
      const g = operations[name];
      if (g) for (const n of Object.values(g.returns)) returned += n;
    }
    if (returned === 0) return; // e.g. no Return= lines at all (warned about above)
    const done = returned - (operations["READ-MODIFY-WRITE"]?.count ?? 0);
    const expected = (throughput * runtimeMs) / 1000;
    if (Math.abs(done - expected) > 0.5 + expected * 1e-9) {
      this.warnings.push(
        `the Return= counts add up to ${done} operations but [OVERALL] Throughput x RunTime gives ${Math.round(expected)}: a group may be missing from the summary`,
      );
    }
  }

  /** The last group printed is where a cut summary shows: it lacks lines every complete group has. */
  private checkLastGroup(last: GroupState): void {
    const cut = (what: string) => {
      throw new YcsbOutputError(
        `the summary looks cut short: the last group [${last.name}] ${what}`,
        last.last.stream,
        last.last.line,
      );
    };
    if (last.count === undefined) cut("has no Operations line");
    if (last.avgUs === undefined || last.minUs === undefined || last.maxUs === undefined)
      cut("is missing its average/min/max latency lines");
    if (RETURNING_GROUPS.has(last.name) && !last.hasReturns) cut("has Operations but no Return= lines");
    if (!last.isRaw && !last.hasVariance && !last.timeSeries) {
      // hdrhistogram prints the same configured percentiles for every group (hdrhistogram.percentiles).
      let most = 0;
      for (const g of this.groups.values())
        if (g !== last && g.hasHdrPercentiles && !g.hasVariance)
          most = Math.max(most, Object.keys(g.percentilesUs).length);
      if (Object.keys(last.percentilesUs).length < most) cut(`has fewer percentile lines than the other groups`);
    }
  }
}

/** Raw measurement percentiles are printed as "p50", "p99.9" (OneMeasurementRaw). */
function rawPercentileKey(name: string): string | undefined {
  const key = name.slice(1);
  return toNumber(key) !== undefined ? key : undefined;
}
