/** Sweeps: runtime and throughput against threads (seed 003), p99 against achieved throughput with the knee. */
import type { ChartConfiguration, ChartDataset } from "chart.js";
import { findKnee } from "../analysis.js";
import { fetchSweeps, type SweepSeries } from "../api.js";
import { seriesToCsv } from "../csv.js";
import { KNEE_COLOUR } from "../palette.js";
import { el, filterSelect, message } from "../ui.js";
import type { View } from "../view.js";
import { axisTitle, lookFor, seriesLabel } from "./common.js";

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

export const sweepsView: View = {
  title: "Thread sweeps",
  async render(ctx) {
    const p = ctx.state.params;
    const { series, engines, workloads, scenarios } = await fetchSweeps({ engine: p.engine, workload: p.workload, scenario: p.scenario });
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
    if (throughput.length)
      ctx.chart({
        id: "sweeps-throughput",
        title: "Throughput against threads",
        config: lineChart(throughput, "client threads", "throughput (ops/s)", true, false),
        csv: csvOf("threads", "throughput_ops_sec", throughput),
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
  },
};
