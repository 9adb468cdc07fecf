/** Scaling: throughput against nodes per engine, the ideal-linear line and seed 002's scalability score. */
import type { ChartConfiguration, ChartDataset } from "chart.js";
import { allInOrder, fetchBaselines, fetchScaling, type ScalingSeries } from "../api.js";
import { seriesToCsv } from "../csv.js";
import { IDEAL_COLOUR } from "../palette.js";
import { el, filterSelect, formatNumber, message } from "../ui.js";
import type { View } from "../view.js";
import { PRESETS } from "../../../model/presets.js";
import { axisType, scaleChoice, scaleControl } from "../scales.js";
import { axisTitle, baselineMarks, changeText, lookFor, seriesLabel } from "./common.js";
import { baselineFor, changeFrom, type BaselinePeak } from "../../../model/history.js";

/** Phases the means left out, said under the chart (valid-only by default: invalid phases are counted, not hidden). */
function leftOutNote(series: readonly ScalingSeries[]): string {
  const invalid = series.reduce((a, s) => a + s.leftOut.invalid, 0);
  const incomplete = series.reduce((a, s) => a + s.leftOut.incomplete, 0);
  return invalid || incomplete ? ` Left out: ${invalid} invalid and ${incomplete} incomplete phase(s).` : "";
}

/** Each point's change against its configuration's baseline, "nodes: change" (data-baseline: "nodes:fraction"). */
function baselineChanges(s: ScalingSeries, baselineAt: (s: ScalingSeries, nodes: number) => BaselinePeak | undefined): HTMLTableCellElement {
  const changes = s.points.flatMap((q) => {
    const b = baselineAt(s, q.nodes);
    return b ? [{ nodes: q.nodes, runId: b.runId, change: changeFrom(b.throughputOpsSec, q.throughputOpsSec) }] : [];
  });
  if (changes.length === 0) return el("td", { class: "num", "data-baseline": "none", title: "no baseline pinned for these configurations" }, "–");
  return el(
    "td",
    { class: "num", "data-baseline": changes.map((c) => `${c.nodes}:${c.change ?? ""}`).join(" "), title: changes.map((c) => `${c.nodes} nodes against ${c.runId}`).join("; ") },
    changes.map((c) => `${c.nodes}n: ${changeText(c.change)}`).join(", "),
  );
}

export const scalingView: View = {
  title: "Scaling",
  async render(ctx) {
    const p = ctx.state.params;
    const [{ series, workloads, scenarios }, { baselines }] = await allInOrder([fetchScaling({ workload: p.workload, scenario: p.scenario, preset: p.preset }), fetchBaselines()]);
    ctx.controls.append(
      el(
        "form",
        { class: "filters" },
        filterSelect("workload", "workload", workloads, p.workload, (v) => ctx.setParams({ workload: v })),
        filterSelect("scenario", "scenario", scenarios, p.scenario, (v) => ctx.setParams({ scenario: v })),
        filterSelect("preset", "preset", [...PRESETS], p.preset, (v) => ctx.setParams({ preset: v })),
        scaleControl(p.scale, (v) => ctx.setParams({ scale: v })),
      ),
    );
    if (series.length === 0) {
      ctx.controls.append(message("No runs at more than one node count for these filters."));
      return;
    }
    const labelOf = (s: ScalingSeries) => `${seriesLabel(s.engine, s.source)} · ${s.workload}`;
    const datasets: ChartDataset<"line", { x: number; y: number }[]>[] = [];
    series.forEach((s, i) => {
      const look = lookFor(s.engine, s.source, i);
      datasets.push({ label: labelOf(s), data: s.points.map((q) => ({ x: q.nodes, y: q.throughputOpsSec })), ...look, borderWidth: 2, errorBars: s.points.map((q) => q.ci) } as ChartDataset<"line", { x: number; y: number }[]>);
      if (s.ideal.length > 1)
        datasets.push({
          label: `ideal linear: ${labelOf(s)}`,
          data: s.ideal.map((q) => ({ x: q.nodes, y: q.throughputOpsSec })),
          borderColor: IDEAL_COLOUR,
          backgroundColor: IDEAL_COLOUR,
          borderDash: [2, 3],
          borderWidth: 1,
          pointRadius: 0,
        });
    });
    // The pinned baseline of each measured point's configuration (scenario, engine, preset, nodes), as a cross.
    const baselineAt = (s: ScalingSeries, nodes: number): BaselinePeak | undefined =>
      s.source.kind === "published" ? undefined : baselineFor(baselines, { scenario: s.scenario, engine: s.engine, preset: s.preset, nodes }, s.workload);
    const marks = new Map<string, { x: number; y: number }[]>();
    for (const s of series)
      for (const q of s.points) {
        const b = baselineAt(s, q.nodes);
        if (b) marks.set(`baseline ${b.runId}`, [{ x: q.nodes, y: b.throughputOpsSec }]);
      }
    for (const [label, data] of marks) datasets.push(baselineMarks(label, data) as ChartDataset<"line", { x: number; y: number }[]>);
    // Measured 540 ops/s beside Couchbase's published 1.25 M: a linear axis would draw the measured series at zero.
    const yType = axisType(scaleChoice(p.scale), series.flatMap((s) => s.points.map((q) => q.throughputOpsSec)));
    const config: ChartConfiguration<"line", { x: number; y: number }[]> = {
      type: "line",
      data: { datasets },
      options: {
        animation: false,
        parsing: false,
        normalized: true,
        maintainAspectRatio: false,
        scales: {
          x: { type: "linear", title: axisTitle("data nodes") },
          y: { type: yType, title: axisTitle(`throughput (ops/s, summed over clients${yType === "logarithmic" ? ", log scale" : ""})`) },
        },
        plugins: { legend: { position: "bottom", labels: { filter: (item) => !item.text.startsWith("ideal linear") || datasets.length < 12 } } },
      },
    };
    ctx.chart({
      id: "scaling",
      title: "Throughput against nodes",
      config: config as unknown as ChartConfiguration,
      csv: () => seriesToCsv("nodes", "throughput_ops_sec", datasets.map((d) => ({ label: String(d.label), points: d.data }))),
      note:
        "Each point: mean over repeats of each repeat's peak, whiskers its 95% CI. Grey dotted: ideal-linear scaling from the smallest cluster of each series (seeds 001, 002). Dashed triangles: published figures." +
        leftOutNote(series),
    });
    const rows = series.map((s) =>
      el(
        "tr",
        { "data-series": labelOf(s) },
        el("td", {}, labelOf(s)),
        el("td", {}, s.points.map((q) => q.nodes).join(", ")),
        el("td", { class: "num", "data-efficiency": s.steps.map((st) => `${st.fromNodes}-${st.toNodes}:${st.efficiency}`).join(" ") }, s.steps.map((st) => `${st.fromNodes}→${st.toNodes}: ${formatNumber(st.efficiency * 100)} %`).join(", ") || "–"),
        el("td", { class: "num", "data-score": String(s.scalabilityScore ?? "") }, s.scalabilityScore === null ? "–" : `${formatNumber(s.scalabilityScore, 2)} %`),
        baselineChanges(s, baselineAt),
      ),
    );
    ctx.details.append(
      el(
        "table",
        { class: "scores" },
        el("thead", {}, el("tr", {}, el("th", {}, "series"), el("th", {}, "node counts"), el("th", {}, "scaling efficiency (1→k)"), el("th", {}, "seed 002 score (4→6, 4→8)"), el("th", {}, "vs baseline"))),
        el("tbody", {}, ...rows),
      ),
      el(
        "p",
        { class: "note" },
        "Scaling efficiency: the throughput gain from the smallest cluster to each larger one, divided by the linear gain (100 % is linear). " +
          "Seed 002's scalability score is the mean of its 4→6 and 4→8 node efficiencies: shown only for series measured at 4, 6 and 8 nodes. " +
          "Vs baseline: each point against the peak of the run pinned as its configuration's baseline (black crosses on the chart).",
      ),
    );
  },
};
