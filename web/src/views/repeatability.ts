/** Repeatability: the same configuration run again, throughput of every repeat and its spread. */
import type { ChartConfiguration } from "chart.js";
import { fetchRepeatability } from "../api.js";
import { toCsv } from "../csv.js";
import { el, filterSelect, formatNumber, message } from "../ui.js";
import type { View } from "../view.js";
import { axisTitle, lookFor, seriesLabel } from "./common.js";

export const repeatabilityView: View = {
  title: "Repeatability",
  async render(ctx) {
    const p = ctx.state.params;
    const { groups, scenarios, workloads } = await fetchRepeatability({ scenario: p.scenario, workload: p.workload, engine: p.engine });
    ctx.controls.append(
      el(
        "form",
        { class: "filters" },
        filterSelect("scenario", "scenario", scenarios, p.scenario, (v) => ctx.setParams({ scenario: v })),
        filterSelect("workload", "workload", workloads, p.workload, (v) => ctx.setParams({ workload: v })),
      ),
    );
    if (groups.length === 0) {
      ctx.controls.append(message("No configuration with more than one repeat for these filters."));
      return;
    }
    const labels = groups.map((g) => g.label);
    const config = {
      type: "scatter",
      data: {
        labels,
        datasets: [
          ...groups.map((g, i) => ({
            label: seriesLabel(g.label, g.source),
            data: g.repeats.map((r) => ({ x: labels[i]!, y: r.throughputOpsSec })),
            ...lookFor(g.engine, g.source, i),
            pointRadius: 5,
          })),
          {
            label: "mean",
            data: groups.map((g, i) => ({ x: labels[i]!, y: g.mean })),
            borderColor: "#000",
            backgroundColor: "#000",
            pointStyle: "line" as const,
            pointRadius: 14,
            borderWidth: 2,
          },
        ],
      },
      options: {
        animation: false,
        maintainAspectRatio: false,
        scales: {
          // One tick per configuration, every one labelled (a linear axis with a tick callback drew none).
          x: { type: "category", labels, offset: true, ticks: { autoSkip: false, maxRotation: 60, minRotation: 30 }, title: axisTitle("configuration") },
          y: { title: axisTitle("throughput (ops/s)") },
        },
        plugins: { legend: { display: groups.length <= 12, position: "bottom" } },
      },
    };
    ctx.chart({
      id: "repeatability",
      title: "Throughput of each repeat",
      config: config as unknown as ChartConfiguration,
      csv: () => toCsv(["configuration", "repeat", "run", "phase", "throughput_ops_sec"], groups.flatMap((g) => g.repeats.map((r) => [g.label, r.repeat, r.runId, r.phase, r.throughputOpsSec]))),
      note: "Seed 002 reports a largest throughput difference between repeats of 4.5 %; seed 000 averaged 3 repeats.",
    });
    const head = el("tr", {}, ...["configuration", "repeats", "mean (ops/s)", "std dev", "CV", "max difference"].map((h) => el("th", {}, h)));
    const rows = groups.map((g) =>
      el(
        "tr",
        { "data-group": g.label },
        el("td", {}, seriesLabel(g.label, g.source)),
        el("td", { class: "num" }, String(g.repeats.length)),
        el("td", { class: "num" }, formatNumber(g.mean)),
        el("td", { class: "num" }, formatNumber(g.stdDev)),
        el("td", { class: "num" }, `${formatNumber(g.cvPct, 2)} %`),
        el("td", { class: "num" }, `${formatNumber(g.maxDiffPct, 2)} %`),
      ),
    );
    ctx.details.append(el("table", { class: "repeats" }, el("thead", {}, head), el("tbody", {}, ...rows)));
  },
};
