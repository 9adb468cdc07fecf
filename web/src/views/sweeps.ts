/** Sweeps: runtime and throughput against threads (seed 003), p99 against achieved throughput with the knee. */
import type { ChartConfiguration, ChartDataset } from "chart.js";
import { findKnee } from "../analysis.js";
import { allInOrder, fetchBaselines, fetchSweeps, type SweepSeries } from "../api.js";
import { seriesToCsv } from "../csv.js";
import { KNEE_COLOUR } from "../palette.js";
import { el, filterSelect, formatNumber, message } from "../ui.js";
import type { View } from "../view.js";
import { axisTitle, baselineCell, baselineMarks, lookFor, seriesLabel } from "./common.js";
import { baselineFor, type BaselinePeak } from "../../../model/history.js";

type Pt = { x: number; y: number };

function line(s: SweepSeries, i: number, data: Pt[]): ChartDataset<"line", Pt[]> {
  return { label: `${seriesLabel(s.engine, s.source)} · ${s.label}`, data, ...lookFor(s.engine, s.source, i), borderWidth: 2 };
}

function lineChart(datasets: ChartDataset<"line", Pt[]>[], xTitle: string, yTitle: string, xLog: boolean, yLog: boolean): ChartConfiguration {
  const config: ChartConfiguration<"line", Pt[]> = {
    type: "line",
    data: { datasets },
    options: {
      animation: false,
      parsing: false,
      normalized: true,
      maintainAspectRatio: false,
      scales: {
        x: { type: xLog ? "logarithmic" : "linear", title: axisTitle(xTitle) },
        y: { type: yLog ? "logarithmic" : "linear", title: axisTitle(yTitle) },
      },
      plugins: { legend: { position: "bottom" } },
    },
  };
  return config as unknown as ChartConfiguration;
}

const csvOf = (x: string, y: string, datasets: ChartDataset<"line", Pt[]>[]) => () =>
  seriesToCsv(x, y, datasets.map((d) => ({ label: String(d.label), points: d.data })));

/** Each series' peak (its best load level) and the change against its configuration's baseline. */
function peakTable(series: readonly SweepSeries[], baselineOf: (s: SweepSeries) => BaselinePeak | undefined): HTMLElement {
  const rows = series.map((s) => {
    const peak = s.points.reduce<SweepSeries["points"][number] | undefined>((best, q) => (q.throughputOpsSec !== null && (best === undefined || q.throughputOpsSec > best.throughputOpsSec!) ? q : best), undefined);
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
    el("thead", {}, el("tr", {}, ...["series", "peak throughput (ops/s)", "at threads", "peak vs baseline"].map((h) => el("th", {}, h)))),
    el("tbody", {}, ...rows),
  );
}

export const sweepsView: View = {
  title: "Thread sweeps",
  async render(ctx) {
    const p = ctx.state.params;
    const [{ series, engines, workloads, scenarios }, { baselines }] = await allInOrder([fetchSweeps({ engine: p.engine, workload: p.workload, scenario: p.scenario }), fetchBaselines()]);
    const baselineOf = (s: SweepSeries): BaselinePeak | undefined => (s.source.kind === "published" ? undefined : baselineFor(baselines, s, s.workload));
    ctx.controls.append(
      el(
        "form",
        { class: "filters" },
        filterSelect("engine", "engine", engines, p.engine, (v) => ctx.setParams({ engine: v })),
        filterSelect("workload", "workload", workloads, p.workload, (v) => ctx.setParams({ workload: v })),
        filterSelect("scenario", "scenario", scenarios, p.scenario, (v) => ctx.setParams({ scenario: v })),
      ),
    );
    if (series.length === 0) {
      ctx.controls.append(message("No thread sweeps for these filters."));
      return;
    }
    const byThreads = (pick: (q: SweepSeries["points"][number]) => number | null) =>
      series
        .map((s, i) => line(s, i, s.points.flatMap((q) => (pick(q) === null ? [] : [{ x: q.threads, y: pick(q)! }])).sort((a, b) => a.x - b.x)))
        .filter((d) => d.data.length > 0);
    const runtime = byThreads((q) => (q.runtimeMs === null ? null : q.runtimeMs / 1000));
    if (runtime.length)
      ctx.chart({
        id: "sweeps-runtime",
        title: "Runtime against threads",
        config: lineChart(runtime, "client threads", "runtime (s)", true, true),
        csv: csvOf("threads", "runtime_s", runtime),
        note: "Seed 003 reports total runtime (lower is better) for 1 to 512 threads; its figures are the dashed series.",
      });
    const throughput = byThreads((q) => q.throughputOpsSec);
    // The baseline of each measured series' configuration: a dashed black level across the threads the series ran.
    const levels = new Map<string, { x: number; y: number }[]>();
    for (const s of series) {
      const b = baselineOf(s);
      const threads = s.points.map((q) => q.threads);
      if (b && threads.length) levels.set(`baseline ${b.runId}`, [{ x: Math.min(...threads), y: b.throughputOpsSec }, { x: Math.max(...threads), y: b.throughputOpsSec }]);
    }
    for (const [label, data] of levels) throughput.push(baselineMarks(label, data, true) as ChartDataset<"line", Pt[]>);
    if (throughput.length)
      ctx.chart({
        id: "sweeps-throughput",
        title: "Throughput against threads",
        config: lineChart(throughput, "client threads", "throughput (ops/s)", true, false),
        csv: csvOf("threads", "throughput_ops_sec", throughput),
        ...(levels.size ? { note: "Dashed black: the peak of the run pinned as the configuration's baseline." } : {}),
      });
    const knees: ChartDataset<"line", Pt[]>[] = [];
    const curves: ChartDataset<"line", Pt[]>[] = [];
    series.forEach((s, i) => {
      // Sweep order (threads rising) is the order Kneedle walks.
      const pts = [...s.points]
        .sort((a, b) => a.threads - b.threads)
        .flatMap((q) => (q.throughputOpsSec === null || q.p99Us === null ? [] : [{ x: q.throughputOpsSec, y: q.p99Us / 1000, threads: q.threads }]));
      if (pts.length === 0) return;
      curves.push(line(s, i, pts.map(({ x, y }) => ({ x, y }))));
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
        config: lineChart([...knees, ...curves], "achieved throughput (ops/s)", "p99 latency (ms, worst operation)", false, true),
        csv: csvOf("throughput_ops_sec", "p99_ms", [...curves, ...knees]),
        note: "Stars mark the knee (Kneedle, Satopää et al. 2011): past it, more threads buy latency rather than throughput.",
      });
    ctx.details.append(peakTable(series, baselineOf));
  },
};
