/** Compare: chosen runs side by side, throughput and avg/p95/p99/p99.9 per operation. */
import type { ChartConfiguration } from "chart.js";
import { fetchCompare, type PhaseView, type RunDetail } from "../api.js";
import { toCsv } from "../csv.js";
import { engineColour, seriesLook } from "../palette.js";
import { el, filterSelect, formatNumber, message } from "../ui.js";
import { listParam } from "../url-state.js";
import type { View } from "../view.js";
import { axisTitle } from "./common.js";

/** The statistics the issue asks for, as keys of OperationAggregate ("avg" is avgUs, the rest percentiles). */
export const COMPARE_STATS = ["avg", "95", "99", "99.9"] as const;

function runLabel(d: RunDetail): string {
  const r = d.run;
  const src = r.source.kind === "published" ? ` [${r.source.citation ?? "published"}]` : "";
  return `${r.engine} ${r.preset} ${r.nodes}n r${r.repeat} (${r.id})${src}`;
}

/** The phase to compare: the named workload, else the run's first workload phase. */
export function pickPhase(d: RunDetail, workload: string | undefined): PhaseView | undefined {
  const work = d.phases.filter((p) => p.kind === "workload");
  return (workload ? work.find((p) => p.workload === workload || p.name === workload) : undefined) ?? (workload ? undefined : work[0]);
}

function statValue(phase: PhaseView | undefined, op: string, stat: (typeof COMPARE_STATS)[number]): number | null {
  const o = phase?.operations[op];
  if (!o) return null;
  const us = stat === "avg" ? o.avgUs : o.percentilesUs[stat];
  return us === null || us === undefined ? null : us / 1000;
}

export const compareView: View = {
  title: "Compare",
  async render(ctx) {
    const ids = listParam(ctx.state.params.runs);
    if (ids.length === 0) {
      ctx.controls.append(message("Pick runs in the Runs view and press “Compare selected”, or put ?runs=id1,id2 in the URL."));
      return;
    }
    const { runs: details, missing } = await fetchCompare(ids);
    if (missing.length) ctx.controls.append(message(`Unknown run(s): ${missing.join(", ")}`, "error"));
    if (details.length === 0) return;
    const workloads = [...new Set(details.flatMap((d) => d.phases.filter((p) => p.kind === "workload").map((p) => p.workload ?? p.name)))];
    const workload = ctx.state.params.workload;
    ctx.controls.append(el("form", { class: "filters" }, filterSelect("workload", "workload", workloads, workload, (v) => ctx.setParams({ workload: v }), "first of each run")));
    const phases = details.map((d) => pickPhase(d, workload));
    const labels = details.map(runLabel);
    const ops = [...new Set(phases.flatMap((p) => Object.keys(p?.operations ?? {})))].filter((op) => !op.startsWith("CLEANUP")).sort();

    const throughput: ChartConfiguration<"bar"> = {
      type: "bar",
      data: {
        labels,
        datasets: [
          {
            label: "throughput (ops/s)",
            data: phases.map((p) => p?.throughputOpsSec ?? null) as number[],
            backgroundColor: details.map((d) => seriesLook(engineColour(d.run.engine), d.run.source.kind === "published").backgroundColor),
            borderColor: details.map((d) => engineColour(d.run.engine)),
            borderWidth: 1,
          },
        ],
      },
      options: { animation: false, maintainAspectRatio: false, indexAxis: "y", scales: { x: { title: axisTitle("throughput (ops/s, summed over clients)") } }, plugins: { legend: { display: false } } },
    };
    ctx.chart({
      id: "compare-throughput",
      title: "Throughput",
      config: throughput as ChartConfiguration,
      csv: () => toCsv(["run", "phase", "throughput_ops_sec"], details.map((d, i) => [d.run.id, phases[i]?.name ?? "", phases[i]?.throughputOpsSec ?? null])),
    });

    const statLabels = ops.flatMap((op) => COMPARE_STATS.map((s) => `${op} ${s === "avg" ? "avg" : `p${s}`}`));
    const latency: ChartConfiguration<"bar"> = {
      type: "bar",
      data: {
        labels: statLabels,
        datasets: details.map((d, i) => {
          const look = seriesLook(engineColour(d.run.engine, i), d.run.source.kind === "published");
          return {
            label: labels[i]!,
            data: ops.flatMap((op) => COMPARE_STATS.map((s) => statValue(phases[i], op, s))) as number[],
            backgroundColor: look.backgroundColor,
            borderColor: look.borderColor,
            borderWidth: 1,
            borderDash: look.borderDash,
          };
        }),
      },
      options: { animation: false, maintainAspectRatio: false, scales: { y: { type: "logarithmic", title: axisTitle("latency (ms)") } }, plugins: { legend: { position: "bottom" } } },
    };
    ctx.chart({
      id: "compare-latency",
      title: "Latency per operation",
      config: latency as ChartConfiguration,
      csv: () =>
        toCsv(
          ["run", "phase", "operation", "statistic", "latency_ms"],
          details.flatMap((d, i) => ops.flatMap((op) => COMPARE_STATS.map((s) => [d.run.id, phases[i]?.name ?? "", op, s, statValue(phases[i], op, s)]))),
        ),
      note: `Percentiles: ${[...new Set(phases.flatMap((p) => Object.values(p?.operations ?? {}).map((o) => o.percentileMethod)))].join(", ")} (merged-hdr: from the clients' merged HDR histograms; max-of-clients: an upper bound). Never averaged.`,
    });

    const head = el("tr", {}, el("th", {}, "run"), el("th", {}, "phase"), el("th", {}, "throughput"), ...statLabels.map((l) => el("th", {}, `${l} (ms)`)));
    const body = details.map((d, i) =>
      el(
        "tr",
        { "data-run-id": d.run.id },
        el("td", {}, labels[i]!),
        el("td", {}, phases[i]?.name ?? "–"),
        el("td", { class: "num" }, formatNumber(phases[i]?.throughputOpsSec)),
        ...ops.flatMap((op) => COMPARE_STATS.map((s) => el("td", { class: "num" }, formatNumber(statValue(phases[i], op, s), 2)))),
      ),
    );
    ctx.details.append(el("table", { class: "compare" }, el("thead", {}, head), el("tbody", {}, ...body)));
  },
};
