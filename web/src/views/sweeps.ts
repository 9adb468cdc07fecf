/** Sweeps: runtime and throughput against threads (seed 003), p99 against achieved throughput with the knee. */
import type { ChartConfiguration, ChartDataset } from "chart.js";
import { type BaselinePeak, baselineFor } from "../../../model/history.js";
import { findKnee } from "../analysis.js";
import { allInOrder, fetchBaselines, fetchRecentScenarios, fetchSweeps, type SweepSeries } from "../api.js";
import { toCsv } from "../csv.js";
import { ALL, chosen, citationYear, defaultScenario, defaultWorkload } from "../defaults.js";
import { KNEE_COLOUR, type SeriesLook } from "../palette.js";
import { el, filterSelect, formatNumber, message } from "../ui.js";
import { hollowPoints, type PointVerdict, verdictNote } from "../verdicts.js";
import type { View } from "../view.js";
import {
  axisTitle,
  baselineCell,
  baselineMarks,
  DENSE,
  fittedLegend,
  looksFor,
  seriesLabel,
  threadAxis,
} from "./common.js";

type Pt = { x: number; y: number };
type Marked = ChartDataset<"line", Pt[]> & { verdicts?: PointVerdict[] };

function line(s: SweepSeries, look: SeriesLook, data: (Pt & { verdict?: PointVerdict })[]): Marked {
  return {
    label: `${seriesLabel(s.engine, s.source)} · ${s.label}`,
    data: data.map(({ x, y }) => ({ x, y })),
    ...look,
    ...hollowPoints(
      look.backgroundColor,
      data.map((q) => q.verdict),
    ),
    borderWidth: 2,
  } as Marked;
}

function lineChart(
  datasets: Marked[],
  x: ReturnType<typeof threadAxis> | { type: "linear"; title: ReturnType<typeof axisTitle> },
  yTitle: string,
  yLog: boolean,
): ChartConfiguration {
  const config = {
    type: "line",
    data: { datasets },
    options: {
      ...DENSE,
      maintainAspectRatio: false,
      scales: {
        x,
        y: { type: yLog ? "logarithmic" : "linear", title: axisTitle(`${yTitle}${yLog ? ", log scale" : ""}`) },
      },
      plugins: { legend: fittedLegend() },
    },
  };
  return config as unknown as ChartConfiguration;
}

const csvOf = (x: string, y: string, datasets: Marked[]) => () =>
  toCsv(
    ["series", x, y, "verdict"],
    datasets.flatMap((d) => d.data.map((q, i) => [String(d.label), q.x, q.y, d.verdicts?.[i]?.verdict ?? ""])),
  );

/** Each series' peak (its best load level) and the change against its configuration's baseline. */
function peakTable(
  series: readonly SweepSeries[],
  baselineOf: (s: SweepSeries) => BaselinePeak | undefined,
): HTMLElement {
  const rows = series.map((s) => {
    const peak = s.points.reduce<SweepSeries["points"][number] | undefined>(
      (best, q) =>
        q.throughputOpsSec !== null && (best === undefined || q.throughputOpsSec > best.throughputOpsSec!) ? q : best,
      undefined,
    );
    return el(
      "tr",
      { "data-series": `${seriesLabel(s.engine, s.source)} · ${s.label}` },
      el("td", {}, `${seriesLabel(s.engine, s.source)} · ${s.label}`),
      el("td", { class: "num" }, formatNumber(peak?.throughputOpsSec)),
      el("td", { class: "num" }, peak ? String(peak.threads) : "–"),
      baselineCell(baselineOf(s), peak?.throughputOpsSec),
    );
  });
  return el(
    "table",
    { class: "sweep-peaks" },
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        ...["series", "peak throughput (ops/s)", "at threads", "peak vs baseline"].map((h) => el("th", {}, h)),
      ),
    ),
    el("tbody", {}, ...rows),
  );
}

/**
 * Scenario, workload and operation count: the URL's, else the newest measured scenario with a sweep (else the newest
 * study), workload A, and one operation count (the measured runs', else the largest): seed 003's 16 series were one chart.
 */
async function filters(p: Record<string, string>, all: readonly SweepSeries[]) {
  const recent = await fetchRecentScenarios();
  const yearOf = (scenario: string) =>
    Math.max(0, ...all.filter((s) => s.scenario === scenario).map((s) => citationYear(s.source.citation) ?? 0)) || null;
  const scenario = chosen(p.scenario, defaultScenario([...new Set(all.map((s) => s.scenario))], recent, yearOf));
  const inScenario = all.filter((s) => scenario === undefined || s.scenario === scenario);
  const workload = chosen(p.workload, defaultWorkload(inScenario.map((s) => s.workload)));
  const ofWorkload = inScenario.filter((s) => workload === undefined || s.workload === workload);
  const counts = [...new Set(ofWorkload.map((s) => s.operationCount).filter((n): n is number => n !== null))].sort(
    (a, b) => a - b,
  );
  const measured = ofWorkload.find((s) => s.source.kind === "measured" && s.operationCount !== null)?.operationCount;
  const fallback =
    counts.length > 1 && ofWorkload.length > 8 ? String(measured ?? counts[counts.length - 1]) : undefined;
  return { scenario, workload, ops: chosen(p.ops, fallback), counts };
}

export const sweepsView: View = {
  title: "Thread sweeps",
  async render(ctx) {
    const p = ctx.state.params;
    const [{ series: all, engines, workloads, scenarios }, { baselines }] = await allInOrder([
      fetchSweeps({ engine: p.engine }),
      fetchBaselines(),
    ]);
    const f = await filters(p, all);
    const series = all.filter(
      (s) =>
        (f.scenario === undefined || s.scenario === f.scenario) &&
        (f.workload === undefined || s.workload === f.workload) &&
        (f.ops === undefined || String(s.operationCount) === f.ops),
    );
    const baselineOf = (s: SweepSeries): BaselinePeak | undefined =>
      s.source.kind === "published" ? undefined : baselineFor(baselines, s, s.workload);
    const every = (v: string | undefined) => (v === undefined ? ALL : v);
    ctx.controls.append(
      el(
        "form",
        { class: "filters" },
        filterSelect("engine", "engine", engines, p.engine, (v) => ctx.setParams({ engine: v })),
        filterSelect(
          "scenario",
          "scenario",
          [{ value: ALL, label: "every scenario" }, ...scenarios.map((x) => ({ value: x }))],
          every(f.scenario),
          (v) => ctx.setParams({ scenario: v, workload: undefined, ops: undefined }),
          null,
        ),
        filterSelect(
          "workload",
          "workload",
          [{ value: ALL, label: "every workload" }, ...workloads.map((x) => ({ value: x }))],
          every(f.workload),
          (v) => ctx.setParams({ workload: v, ops: undefined }),
          null,
        ),
        filterSelect(
          "ops",
          "operations",
          [
            { value: ALL, label: "every count" },
            ...f.counts.map((n) => ({ value: String(n), label: n.toLocaleString("en-US") })),
          ],
          every(f.ops),
          (v) => ctx.setParams({ ops: v }),
          null,
        ),
      ),
    );
    if (series.length === 0) {
      ctx.controls.append(message("No thread sweeps for these filters."));
      return;
    }
    drawSweeps(ctx, series, baselineOf);
    ctx.details.append(peakTable(series, baselineOf));
  },
};

function drawSweeps(
  ctx: Parameters<View["render"]>[0],
  series: readonly SweepSeries[],
  baselineOf: (s: SweepSeries) => BaselinePeak | undefined,
): void {
  const looks = looksFor(series);
  const threads = series.flatMap((s) => s.points.map((q) => q.threads));
  const verdicts = series.flatMap((s) => s.points.map((q) => q.verdict));
  const byThreads = (pick: (q: SweepSeries["points"][number]) => number | null) =>
    series
      .map((s, i) =>
        line(
          s,
          looks[i]!,
          s.points
            .flatMap((q) => (pick(q) === null ? [] : [{ x: q.threads, y: pick(q)!, verdict: q.verdict }]))
            .sort((a, b) => a.x - b.x),
        ),
      )
      .filter((d) => d.data.length > 0);
  const runtime = byThreads((q) => (q.runtimeMs === null ? null : q.runtimeMs / 1000));
  if (runtime.length)
    ctx.chart({
      id: "sweeps-runtime",
      title: "Runtime against threads",
      config: lineChart(runtime, threadAxis("client threads (log 2)", threads), "runtime (s)", true),
      csv: csvOf("threads", "runtime_s", runtime),
      note:
        "Seed 003 reports total runtime (lower is better) for 1 to 512 threads; its figures are the dashed series." +
        verdictNote(verdicts),
    });
  const throughput: Marked[] = byThreads((q) => q.throughputOpsSec);
  // The baseline of each measured series' configuration: a dashed black level across the threads the series ran.
  const levels = new Map<string, { x: number; y: number }[]>();
  for (const s of series) {
    const b = baselineOf(s);
    const ts = s.points.map((q) => q.threads);
    if (b && ts.length)
      levels.set(`baseline ${b.runId}`, [
        { x: Math.min(...ts), y: b.throughputOpsSec },
        { x: Math.max(...ts), y: b.throughputOpsSec },
      ]);
  }
  for (const [label, data] of levels) throughput.push(baselineMarks(label, data, true) as Marked);
  if (throughput.length)
    ctx.chart({
      id: "sweeps-throughput",
      title: "Throughput against threads",
      config: lineChart(throughput, threadAxis("client threads (log 2)", threads), "throughput (ops/s)", false),
      csv: csvOf("threads", "throughput_ops_sec", throughput),
      note:
        (levels.size ? "Dashed black: the peak of the run pinned as the configuration's baseline." : "") +
        verdictNote(verdicts),
    });
  const knees: Marked[] = [];
  const curves: Marked[] = [];
  series.forEach((s, i) => {
    // Sweep order (threads rising) is the order Kneedle walks.
    const pts = [...s.points]
      .sort((a, b) => a.threads - b.threads)
      .flatMap((q) =>
        q.throughputOpsSec === null || q.p99Us === null
          ? []
          : [{ x: q.throughputOpsSec, y: q.p99Us / 1000, threads: q.threads, verdict: q.verdict }],
      );
    if (pts.length === 0) return;
    curves.push(line(s, looks[i]!, pts));
    const k = findKnee(pts);
    if (k >= 0)
      knees.push({
        label: `knee: ${seriesLabel(s.engine, s.source)} · ${s.label} (${pts[k]!.threads} threads)`,
        data: [{ x: pts[k]!.x, y: pts[k]!.y }],
        borderColor: KNEE_COLOUR,
        backgroundColor: KNEE_COLOUR,
        pointStyle: "star",
        pointRadius: 10,
        borderWidth: 2,
        showLine: false,
      });
  });
  if (curves.length)
    ctx.chart({
      id: "sweeps-knee",
      title: "p99 latency against achieved throughput",
      config: lineChart(
        [...knees, ...curves],
        { type: "linear", title: axisTitle("achieved throughput (ops/s)") },
        "p99 latency (ms, worst operation)",
        true,
      ),
      csv: csvOf("throughput_ops_sec", "p99_ms", [...curves, ...knees]),
      note:
        "Stars mark the knee (Kneedle, Satopää et al. 2011): past it, more threads buy latency rather than throughput." +
        verdictNote(verdicts),
    });
}
