/** Repeatability: the same configuration run again, throughput of every repeat and its spread. */
import type { ChartConfiguration } from "chart.js";
import { allInOrder, fetchFacets, fetchRecentRuns, fetchRepeatability, type RunRow } from "../api.js";
import { toCsv } from "../csv.js";
import { ALL, newestRecurring } from "../defaults.js";
import { el, filterSelect, formatNumber, message } from "../ui.js";
import { hollowPoints, verdictNote } from "../verdicts.js";
import type { View } from "../view.js";
import { axisTitle, fittedLegend, looksFor, seriesLabel } from "./common.js";

export const repeatabilityView: View = {
  title: "Repeatability",
  async render(ctx) {
    const p = ctx.state.params;
    // With no filter named, the newest measured run's scenario, engine and preset: a question one chart answers.
    const named = ["scenario", "workload", "engine", "preset"].some((k) => p[k] !== undefined);
    const key = (r: RunRow) => [r.scenario, r.engine, r.preset].join("|");
    const newest = named ? undefined : newestRecurring(await fetchRecentRuns(), key);
    const pick = (k: "scenario" | "engine" | "preset") => (p[k] === ALL ? undefined : (p[k] ?? newest?.[k]));
    const f = { scenario: pick("scenario"), engine: pick("engine"), preset: pick("preset"), workload: p.workload };
    const [{ groups, scenarios, workloads }, facets] = await allInOrder([fetchRepeatability(f), fetchFacets()]);
    const select = (name: "scenario" | "engine" | "preset" | "workload", options: string[]) =>
      filterSelect(name, name, options, f[name], (v) => ctx.setParams({ [name]: v === "" ? ALL : v }), "any");
    ctx.controls.append(
      el(
        "form",
        { class: "filters" },
        select("scenario", scenarios),
        select(
          "engine",
          facets.engines.map((e) => e.value),
        ),
        select(
          "preset",
          facets.presets.map((e) => e.value),
        ),
        select("workload", workloads),
      ),
    );
    if (groups.length === 0) {
      ctx.controls.append(message("No configuration with more than one repeat for these filters."));
      return;
    }
    const labels = groups.map((g) => g.label);
    const looks = looksFor(groups);
    const config = {
      type: "scatter",
      data: {
        labels,
        datasets: [
          ...groups.map((g, i) => ({
            label: seriesLabel(g.label, g.source),
            data: g.repeats.map((r) => ({ x: labels[i]!, y: r.throughputOpsSec })),
            ...looks[i]!,
            ...hollowPoints(
              looks[i]!.backgroundColor,
              g.repeats.map((r) => ({ verdict: r.verdict, reasons: [] })),
            ),
            pointRadius: 5,
          })),
          {
            label: "mean, whiskers its 95% CI",
            data: groups.map((g, i) => ({ x: labels[i]!, y: g.mean })),
            errorBars: groups.map((g) => (g.ci ? { low: g.ci.low, high: g.ci.high } : null)),
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
          x: {
            type: "category",
            labels,
            offset: true,
            ticks: { autoSkip: false, maxRotation: 60, minRotation: 30 },
            title: axisTitle("configuration"),
          },
          y: { title: axisTitle("throughput (ops/s)") },
        },
        plugins: { legend: { ...fittedLegend(), display: groups.length <= 12 } },
      },
    };
    ctx.chart({
      id: "repeatability",
      title: "Throughput of each repeat",
      config: config as unknown as ChartConfiguration,
      csv: () =>
        toCsv(
          ["configuration", "repeat", "run", "phase", "throughput_ops_sec"],
          groups.flatMap((g) => g.repeats.map((r) => [g.label, r.repeat, r.runId, r.phase, r.throughputOpsSec])),
        ),
      note:
        "Black bars: each configuration's mean with its 95% CI over the repeats. Seed 002 reports a largest throughput difference between repeats of 4.5 %; seed 000 averaged 3 repeats." +
        verdictNote(groups.flatMap((g) => g.repeats.map((r) => ({ verdict: r.verdict, reasons: [] })))) +
        listedNote(groups),
    });
    const head = el(
      "tr",
      {},
      ...["configuration", "repeats", "mean (ops/s)", "95% CI", "std dev", "CV", "max difference", "verdicts"].map(
        (h) => el("th", {}, h),
      ),
    );
    const rows = groups.map((g) =>
      el(
        "tr",
        { "data-group": g.label },
        el("td", {}, seriesLabel(g.label, g.source)),
        el("td", { class: "num" }, String(g.repeatCount)),
        el("td", { class: "num" }, formatNumber(g.mean)),
        el(
          "td",
          { class: "num", "data-ci": g.ci ? `${g.ci.low}:${g.ci.high}` : "" },
          g.ci ? `${formatNumber(g.ci.low)} – ${formatNumber(g.ci.high)}` : "–",
        ),
        el("td", { class: "num" }, formatNumber(g.stdDev)),
        el("td", { class: "num" }, `${formatNumber(g.cvPct, 2)} %`),
        el("td", { class: "num" }, `${formatNumber(g.maxDiffPct, 2)} %`),
        el(
          "td",
          { class: "verdict" },
          Object.entries(g.verdicts)
            .map(([v, n]) => (n === g.repeatCount ? v : `${v} ${n}`))
            .join(", "),
        ),
      ),
    );
    ctx.details.append(el("table", { class: "repeats" }, el("thead", {}, head), el("tbody", {}, ...rows)));
  },
};

/** Says where a configuration has more repeats than its points drawn (the mean and CI count them all). */
function listedNote(groups: readonly { repeats: unknown[]; repeatCount: number }[]): string {
  const cut = groups.filter((g) => g.repeats.length < g.repeatCount);
  if (cut.length === 0) return "";
  const most = Math.max(...cut.map((g) => g.repeatCount));
  return ` ${cut.length} configuration(s) have more repeats (up to ${most.toLocaleString("en-US")}) than the points drawn: the first of each are drawn, the mean, CI and table count every one.`;
}
