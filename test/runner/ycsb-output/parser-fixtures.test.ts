import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { type ClientOutput, ClientOutputSchema } from "../../../model/result-document.js";
import { checkAgainst } from "../../../model/result-validation.js";
import { statusPoints, statusSeriesLength } from "../../../model/status-series.js";
import { parseYcsbOutput } from "../../../runner/ycsb-output/index.js";

// Every committed fixture form (scripts/make-ycsb-fixtures.sh), parsed and checked against facts the same output
// states independently: the command line YCSB echoes, the status lines, the JSON text, the raw points.
const FIXTURES = fileURLToPath(new URL("../../fixtures/ycsb/", import.meta.url));

interface Fixture {
  stdout: string;
  stderr: string;
  result: ClientOutput;
  /** -p properties from the "Command line:" YCSB printed on stderr. */
  props: Record<string, string>;
  statusLines: number;
}

function load(dir: string): Fixture {
  const stdout = readFileSync(`${FIXTURES}${dir}/stdout.txt`, "utf8");
  const stderr = readFileSync(`${FIXTURES}${dir}/stderr.txt`, "utf8");
  const result = parseYcsbOutput(stdout, stderr);
  const commandLine = stderr.split("\n").find((l) => l.startsWith("Command line:")) ?? "";
  const props = Object.fromEntries([...commandLine.matchAll(/-p (\S+?)=(\S+)/g)].map((m) => [m[1], m[2]]));
  const statusLines = stderr.split("\n").filter((l) => /\d+ sec: \d+ operations;/.test(l)).length;
  return { stdout, stderr, result, props, statusLines };
}

/** The operations YCSB counted towards throughput: every Return= count, minus RMWs counted as READ+UPDATE too. */
function operationsDone(r: ClientOutput): number {
  let n = 0;
  for (const stats of Object.values(r.operations)) for (const c of Object.values(stats.returns)) n += c;
  return n - (r.operations["READ-MODIFY-WRITE"]?.count ?? 0);
}

function commonChecks(f: Fixture): void {
  const r = f.result;
  expect(checkAgainst(ClientOutputSchema, r)).toEqual([]);
  expect(r.warnings).toEqual([]);
  expect(r.unknownLines).toEqual([]);
  expect(statusSeriesLength(r.statusSeries)).toBe(f.statusLines);
  const last = statusPoints(r.statusSeries).at(-1)!;
  expect(last.operations).toBe(Number(f.props.operationcount));
  expect(operationsDone(r)).toBe(last.operations);
  // Client.java: throughput = 1000 * opsDone / runtime.
  expect(r.overall.throughputOpsSec).toBeCloseTo((1000 * last.operations) / r.overall.runtimeMs, 6);
  for (const [name, s] of Object.entries(r.operations)) {
    if (s.count === 0) continue;
    expect(s.minUs!, name).toBeLessThanOrEqual(s.avgUs!);
    expect(s.avgUs!, name).toBeLessThanOrEqual(s.maxUs!);
    const ps = Object.entries(s.percentilesUs)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([, v]) => v);
    expect(ps, name).toEqual([...ps].sort((a, b) => a - b));
  }
  // The per-collector GC lines add up to the [TOTAL_GCs]/[TOTAL_GC_TIME] lines.
  const collectors = Object.entries(r.gc).filter(([k]) => k !== "");
  expect(collectors.length).toBeGreaterThan(0);
  expect(collectors.reduce((n, [, g]) => n + g.count!, 0)).toBe(r.gc[""]!.count);
  expect(collectors.reduce((n, [, g]) => n + g.timeMs!, 0)).toBe(r.gc[""]!.timeMs);
}

/** hdrhistogram status lines report per-interval counts: they add up to the summary's Operations. */
function statusCountsAddUp(r: ClientOutput): void {
  const sums: Record<string, number> = {};
  for (const [name, g] of Object.entries(r.statusSeries.perOperation))
    for (const c of g.count) sums[name] = (sums[name] ?? 0) + (c ?? 0);
  for (const [name, s] of Object.entries(r.operations)) expect(sums[name], name).toBe(s.count);
}

describe("parser on real YCSB 0.17.0 fixtures", () => {
  for (const version of ["hdr-v1", "hdr-v2"]) {
    for (const client of [0, 1]) {
      it(`${version}/client-${client}: hdrhistogram with the configured percentiles and 1 s status lines`, () => {
        const f = load(`${version}/client-${client}`);
        commonChecks(f);
        statusCountsAddUp(f.result);
        expect(f.result.measurementType).toBe("hdrhistogram");
        expect(f.result.exporter).toBe("text");
        const configured = f.props["hdrhistogram.percentiles"]!.split(",");
        for (const name of ["READ", "UPDATE", "CLEANUP"])
          expect(Object.keys(f.result.operations[name]!.percentilesUs).sort()).toEqual([...configured].sort());
        expect(statusSeriesLength(f.result.statusSeries)).toBeGreaterThanOrEqual(10);
        const elapsed = f.result.statusSeries.elapsedSec;
        expect(elapsed).toEqual([...elapsed].sort((a, b) => a - b));
        expect(f.result.statusSeries.opsPerSec[0]).toBeNull(); // "∞ current ops/sec"
        expect(f.result.statusSeries.opsPerSec.slice(1).every((v) => v !== null && v >= 0)).toBe(true);
        expect(f.result.statusSeries.at[1]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d:\d{3}$/);
      });
    }
  }

  it("histogram: bucket counts (with the overflow bucket) add up to Operations", () => {
    const f = load("histogram");
    commonChecks(f);
    expect(f.result.measurementType).toBe("histogram");
    for (const name of ["INSERT", "SCAN", "CLEANUP"]) {
      const s = f.result.operations[name]!;
      expect(s.histogramBuckets).toHaveLength(Number(f.props["histogram.buckets"]) + 1);
      expect(s.histogramBuckets!.at(-1)!.bucket).toBe(`>${f.props["histogram.buckets"]}`);
      expect(s.histogramBuckets!.reduce((n, b) => n + b.count, 0)).toBe(s.count);
      expect(s.extra?.["LatencyVariance(us)"]).toBeGreaterThan(0);
    }
    // Histogram status lines print only averages: counts are null, not 0.
    const groups = Object.values(f.result.statusSeries.perOperation);
    expect(groups.length).toBeGreaterThan(0);
    for (const g of groups) expect(g.count.every((c) => c === null)).toBe(true);
    for (const p of statusPoints(f.result.statusSeries))
      for (const o of Object.values(p.perOperation)) expect(o.count).toBeNull();
  });

  it("timeseries: one point per granularity window, READ-MODIFY-WRITE of workload F", () => {
    const f = load("timeseries");
    commonChecks(f);
    expect(f.result.measurementType).toBe("timeseries");
    const granularity = Number(f.props["timeseries.granularity"]);
    const rmw = f.result.operations["READ-MODIFY-WRITE"]!;
    expect(rmw.count).toBe(f.result.operations.UPDATE!.count);
    for (const [name, s] of Object.entries(f.result.operations)) {
      expect(s.timeSeries!.length, name).toBeGreaterThan(0);
      expect(s.timeSeries!.length, name).toBeLessThanOrEqual(Math.ceil(f.result.overall.runtimeMs / granularity) + 1);
      for (const t of s.timeSeries!) expect(t.tMs % granularity, name).toBe(0);
    }
  });

  it("raw on stdout: the points agree with the raw summary per group", () => {
    const f = load("raw-stdout");
    commonChecks(f);
    expect(f.result.measurementType).toBe("raw");
    const points = f.stdout.split("\n").filter((l) => /^[A-Z-]+,\d+,\d+$/.test(l));
    expect(Object.values(f.result.rawPoints!).reduce((n, p) => n + p.count, 0)).toBe(points.length);
    for (const [name, p] of Object.entries(f.result.rawPoints!)) {
      const s = f.result.operations[name]!;
      expect(p.count, name).toBe(s.count);
      expect(p.minUs, name).toBe(s.minUs);
      expect(p.maxUs, name).toBe(s.maxUs);
      expect(p.avgUs, name).toBeCloseTo(s.avgUs!, 6);
      expect(Object.keys(s.percentilesUs)).toEqual(["1", "5", "50", "90", "95", "99", "99.9", "99.99"]);
    }
  });

  it("raw to a file: names the file, and the file's points match the summary counts", () => {
    const f = load("raw-file");
    commonChecks(f);
    expect(f.result.rawOutputFile).toBe(f.props["measurement.raw.output_file"]);
    expect(f.result.rawPoints).toBeUndefined();
    const csv = readFileSync(`${FIXTURES}raw-file/${f.result.rawOutputFile}`, "utf8");
    const counts: Record<string, number> = {};
    for (const l of csv.split("\n"))
      if (/^[A-Z-]+,\d+,\d+$/.test(l)) counts[l.split(",")[0]!] = (counts[l.split(",")[0]!] ?? 0) + 1;
    for (const [name, s] of Object.entries(f.result.operations)) expect(counts[name], name).toBe(s.count);
  });

  it("JSON array exporter: every entry lands where the text exporter's line would", () => {
    const f = load("json-array");
    commonChecks(f);
    statusCountsAddUp(f.result);
    expect(f.result.exporter).toBe("json-array");
    const entries = JSON.parse(f.stdout) as { metric: string; measurement: string; value: number }[];
    const r = f.result;
    let checked = 0;
    for (const e of entries) {
      const s = r.operations[e.metric];
      if (e.metric === "OVERALL")
        expect(e.value).toBe(e.measurement === "RunTime(ms)" ? r.overall.runtimeMs : r.overall.throughputOpsSec);
      else if (!s) continue;
      else if (e.measurement === "Operations") expect(s.count).toBe(e.value);
      else if (e.measurement === "AverageLatency(us)") expect(s.avgUs).toBe(e.value);
      else if (e.measurement.startsWith("Return=")) expect(s.returns[e.measurement.slice(7)]).toBe(e.value);
      else if (e.measurement.endsWith("PercentileLatency(us)"))
        expect(s.percentilesUs[e.measurement.replace(/(th)?PercentileLatency\(us\)$/, "")]).toBe(e.value);
      else continue;
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
    expect(r.operations["Intended-READ"]!.count).toBe(r.operations.READ!.count);
  });

  it("measurement.interval=both: Intended-* groups match the measured ones in count", () => {
    const f = load("intended");
    commonChecks(f);
    statusCountsAddUp(f.result);
    for (const name of ["READ", "UPDATE", "CLEANUP"]) {
      const intended = f.result.operations[`Intended-${name}`]!;
      expect(intended.count).toBe(f.result.operations[name]!.count);
      expect(intended.returns).toEqual({}); // YCSB prints Return= lines under the measured group only
      // Intended latency starts at the scheduled time, so it is never below the measured one.
      expect(intended.avgUs!).toBeGreaterThanOrEqual(f.result.operations[name]!.avgUs!);
    }
  });

  it("load phase: INSERT only, one per record", () => {
    const f = load("load");
    commonChecks(f);
    statusCountsAddUp(f.result);
    expect(Object.keys(f.result.operations).sort()).toEqual(["CLEANUP", "INSERT"]);
    expect(f.result.operations.INSERT!.returns).toEqual({ OK: Number(f.props.recordcount) });
  });

  it("failed operations: -FAILED and -NOT_FOUND groups hold what Return= counts under the main group", () => {
    const f = load("failed");
    commonChecks(f);
    statusCountsAddUp(f.result);
    const ops = f.result.operations;
    expect(ops["READ-FAILED"]!.count).toBe(ops.READ!.returns.ERROR);
    expect(ops["READ-NOT_FOUND"]!.count).toBe(ops.READ!.returns.NOT_FOUND);
    expect(ops["UPDATE-FAILED"]!.count).toBe(ops.UPDATE!.returns.ERROR);
    expect(ops.READ!.count).toBe(ops.READ!.returns.OK);
    expect(ops["READ-FAILED"]!.returns).toEqual({});
    // A group that had no operation in the last window prints Count=0 and Avg=NaN: no average, no made-up min.
    const empty = statusPoints(f.result.statusSeries)
      .flatMap((p) => Object.values(p.perOperation))
      .filter((o) => o.count === 0);
    for (const o of empty) expect(o).toEqual({ count: 0, avgUs: null });
  });
});
