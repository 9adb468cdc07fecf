/** Scaling: throughput against nodes per engine, the ideal-linear line and seed 002's scalability score. */
import type { ChartConfiguration, ChartDataset } from "chart.js";
import { type BaselinePeak, baselineFor, changeFrom } from "../../../model/history.js";
import { PRESETS } from "../../../model/presets.js";
import { allInOrder, fetchBaselines, fetchRecentScenarios, fetchScaling, type ScalingSeries } from "../api.js";
import { toCsv } from "../csv.js";
import { ALL, chosen, citationYear, defaultScenario, defaultWorkload } from "../defaults.js";
import { IDEAL_COLOUR } from "../palette.js";
import { axisType, scaleChoice, scaleControl } from "../scales.js";
import { el, filterSelect, formatNumber, message } from "../ui.js";
import { hollowPoints, verdictNote } from "../verdicts.js";
import type { View } from "../view.js";
import {
  axisTitle,
  baselineMarks,
  changeText,
  DENSE,
  fittedLegend,
  looksFor,
  percentText,
  plural,
  seriesLabel,
} from "./common.js";

/** Phases the means left out, said under the chart (valid-only by default: invalid phases are counted, not hidden). */
function leftOutNote(series: readonly ScalingSeries[]): string {
  const invalid = series.reduce((a, s) => a + s.leftOut.invalid, 0);
  const incomplete = series.reduce((a, s) => a + s.leftOut.incomplete, 0);
  return invalid || incomplete ? ` Left out: ${invalid} invalid and ${incomplete} incomplete phase(s).` : "";
}

/** Each point's change against its configuration's baseline, "nodes: change" (data-baseline: "nodes:fraction"). */
function baselineChanges(
  s: ScalingSeries,
  baselineAt: (s: ScalingSeries, nodes: number) => BaselinePeak | undefined,
): HTMLTableCellElement {
  const changes = s.points.flatMap((q) => {
    const b = baselineAt(s, q.nodes);
    return b ? [{ nodes: q.nodes, runId: b.runId, change: changeFrom(b.throughputOpsSec, q.throughputOpsSec) }] : [];
  });
  if (changes.length === 0)
    return el(
      "td",
      { class: "num", "data-baseline": "none", title: "no baseline pinned for these configurations" },
      "–",
    );
  return el(
    "td",
    {
      class: "num",
      "data-baseline": changes.map((c) => `${c.nodes}:${c.change ?? ""}`).join(" "),
      title: changes.map((c) => `${c.nodes} nodes against ${c.runId}`).join("; "),
    },
    changes.map((c) => `${c.nodes}n: ${changeText(c.change)}`).join(", "),
  );
}

/**
 * A series' name: engine and source, its preset, and its scenario where the chart shows several (balanced and
 * durable Cassandra were both "cassandra (measured) · a", in one colour).
 */
export function scalingLabel(s: ScalingSeries, manyScenarios: boolean, manyWorkloads: boolean): string {
  return `${seriesLabel(s.engine, s.source)} · ${s.preset}${manyScenarios ? ` · ${s.scenario}` : ""}${manyWorkloads ? ` · workload ${s.workload}` : ""}`;
}

/** 1→k efficiency in words: above 100 % is no free lunch, it says so. */
function efficiencyText(steps: ScalingSeries["steps"]): string {
  if (steps.length === 0) return "–";
  const text = steps.map((st) => `${st.fromNodes}→${st.toNodes}: ${percentText(st.efficiency)}`).join(", ");
  return steps.some((st) => st.efficiency > 1.005)
    ? `${text} (above linear: more memory per node, or noise; see the CIs)`
    : text;
}

/** The view's filters: the URL's, else a question the data can answer (the newest measured scenario or study, workload A). */
async function filters(p: Record<string, string>, all: readonly ScalingSeries[]) {
  const recent = await fetchRecentScenarios();
  const yearOf = (scenario: string) =>
    Math.max(0, ...all.filter((s) => s.scenario === scenario).map((s) => citationYear(s.source.citation) ?? 0)) || null;
  const scenario = chosen(p.scenario, defaultScenario([...new Set(all.map((s) => s.scenario))], recent, yearOf));
  const ofScenario = all.filter((s) => scenario === undefined || s.scenario === scenario);
  const workload = chosen(p.workload, defaultWorkload(ofScenario.map((s) => s.workload)));
  return { scenario, workload };
}

export const scalingView: View = {
  title: "Scaling",
  async render(ctx) {
    const p = ctx.state.params;
    const [{ series: all, single: allSingle, workloads, scenarios }, { baselines }] = await allInOrder([
      fetchScaling({ preset: p.preset }),
      fetchBaselines(),
    ]);
    const { scenario, workload } = await filters(p, all);
    const keep = (s: ScalingSeries) =>
      (scenario === undefined || s.scenario === scenario) && (workload === undefined || s.workload === workload);
    const series = all.filter(keep);
    const single = allSingle.filter(keep);
    const every = (v: string | undefined) => (v === undefined ? ALL : v);
    ctx.controls.append(
      el(
        "form",
        { class: "filters" },
        filterSelect(
          "scenario",
          "scenario",
          [{ value: ALL, label: "every scenario" }, ...scenarios.map((s) => ({ value: s }))],
          every(scenario),
          (v) => ctx.setParams({ scenario: v, workload: undefined }),
          null,
        ),
        filterSelect(
          "workload",
          "workload",
          [{ value: ALL, label: "every workload" }, ...workloads.map((w) => ({ value: w }))],
          every(workload),
          (v) => ctx.setParams({ workload: v }),
          null,
        ),
        filterSelect("preset", "preset", [...PRESETS], p.preset, (v) => ctx.setParams({ preset: v })),
        scaleControl(p.scale, (v) => ctx.setParams({ scale: v })),
      ),
    );
    // A series at one node count is no curve: named, so it is not silently missing (a local run is one).
    if (single.length)
      ctx.controls.append(
        message(
          `${plural(single.length, "series")} ran at one cluster size only and cannot draw a scaling curve: ${single.map((s) => `${seriesLabel(s.engine, s.source)} ${s.preset} (${s.scenario}, ${s.points[0]!.nodes} node${s.points[0]!.nodes === 1 ? "" : "s"})`).join("; ")}. Compare them in Durability or on their study page.`,
        ),
      );
    if (series.length === 0) {
      ctx.controls.append(message("No runs at more than one node count for these filters."));
      return;
    }
    drawScaling(ctx, series, baselines, p.scale);
  },
};

function drawScaling(
  ctx: Parameters<View["render"]>[0],
  series: readonly ScalingSeries[],
  baselines: Awaited<ReturnType<typeof fetchBaselines>>["baselines"],
  scaleParam: string | undefined,
): void {
  const manyScenarios = new Set(series.map((s) => s.scenario)).size > 1;
  const manyWorkloads = new Set(series.map((s) => s.workload)).size > 1;
  const labelOf = (s: ScalingSeries) => scalingLabel(s, manyScenarios, manyWorkloads);
  const looks = looksFor(series);
  const datasets: ChartDataset<"line", { x: number; y: number }[]>[] = [];
  series.forEach((s, i) => {
    const look = looks[i]!;
    const marks = hollowPoints(
      look.backgroundColor,
      s.points.map((q) => q.verdict),
    );
    datasets.push({
      label: labelOf(s),
      data: s.points.map((q) => ({ x: q.nodes, y: q.throughputOpsSec })),
      ...look,
      ...marks,
      borderWidth: 2,
      errorBars: s.points.map((q) => q.ci),
    } as ChartDataset<"line", { x: number; y: number }[]>);
  });
  // Ideal-linear lines: grey, out of the legend (the note says what they are), one per series that has one.
  series.forEach((s) => {
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
    s.source.kind === "published"
      ? undefined
      : baselineFor(baselines, { scenario: s.scenario, engine: s.engine, preset: s.preset, nodes }, s.workload);
  const crosses = new Map<string, { x: number; y: number }[]>();
  for (const s of series)
    for (const q of s.points) {
      const b = baselineAt(s, q.nodes);
      if (b) crosses.set(`baseline ${b.runId}`, [{ x: q.nodes, y: b.throughputOpsSec }]);
    }
  for (const [label, data] of crosses)
    datasets.push(baselineMarks(label, data) as ChartDataset<"line", { x: number; y: number }[]>);
  // Measured 540 ops/s beside Couchbase's published 1.25 M: a linear axis would draw the measured series at zero.
  const yType = axisType(
    scaleChoice(scaleParam),
    series.flatMap((s) => s.points.map((q) => q.throughputOpsSec)),
  );
  const nodes = [...new Set(series.flatMap((s) => s.points.map((q) => q.nodes)))].sort((a, b) => a - b);
  const config: ChartConfiguration<"line", { x: number; y: number }[]> = {
    type: "line",
    data: { datasets },
    options: {
      ...DENSE,
      maintainAspectRatio: false,
      scales: {
        // A tick at each cluster size that ran, nothing between.
        x: {
          type: "linear",
          title: axisTitle("data nodes"),
          afterBuildTicks: (axis) => void (axis.ticks = nodes.map((value) => ({ value }))),
          ticks: { autoSkip: false },
        },
        y: {
          type: yType,
          title: axisTitle(`throughput (ops/s, summed over clients${yType === "logarithmic" ? ", log scale" : ""})`),
        },
      },
      plugins: { legend: fittedLegend((text) => !text.startsWith("ideal linear")) },
    },
  };
  ctx.chart({
    id: "scaling",
    title: "Throughput against nodes",
    config: config as unknown as ChartConfiguration,
    csv: () =>
      toCsv(
        ["series", "nodes", "throughput_ops_sec", "n", "ci95_low", "ci95_high", "verdict"],
        series.flatMap((s) =>
          s.points.map((q) => [labelOf(s), q.nodes, q.throughputOpsSec, q.n, q.ci?.low, q.ci?.high, q.verdict.verdict]),
        ),
      ),
    note:
      "Each point: mean over repeats of each repeat's peak, whiskers its 95% CI. Grey dotted: ideal-linear scaling from the smallest cluster of each series (seeds 001, 002). Dashed triangles: published figures." +
      leftOutNote(series) +
      verdictNote(series.flatMap((s) => s.points.map((q) => q.verdict))),
  });
  ctx.details.append(scoreTable(series, labelOf, baselineAt));
}

function scoreTable(
  series: readonly ScalingSeries[],
  labelOf: (s: ScalingSeries) => string,
  baselineAt: (s: ScalingSeries, nodes: number) => BaselinePeak | undefined,
): HTMLElement {
  const rows = series.map((s) =>
    el(
      "tr",
      { "data-series": labelOf(s) },
      el("td", {}, labelOf(s)),
      el("td", {}, s.points.map((q) => q.nodes).join(", ")),
      el(
        "td",
        { class: "num" },
        s.points
          .map((q) => `${q.nodes}n: n=${q.n}${q.ci ? ` ±${formatNumber((q.ci.high - q.ci.low) / 2)}` : ""}`)
          .join(", "),
      ),
      el(
        "td",
        {
          class: "num",
          "data-efficiency": s.steps.map((st) => `${st.fromNodes}-${st.toNodes}:${st.efficiency}`).join(" "),
        },
        efficiencyText(s.steps),
      ),
      el(
        "td",
        { class: "num", "data-score": String(s.scalabilityScore ?? "") },
        s.scalabilityScore === null ? "–" : `${formatNumber(s.scalabilityScore, 2)} %`,
      ),
      el(
        "td",
        { class: "verdict", title: s.points.flatMap((q) => q.verdict.reasons).join("\n") },
        [...new Set(s.points.map((q) => q.verdict.verdict))].join(", "),
      ),
      baselineChanges(s, baselineAt),
    ),
  );
  return el(
    "div",
    {},
    el(
      "table",
      { class: "scores" },
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          ...[
            "series",
            "node counts",
            "repeats (n) and 95% CI",
            "scaling efficiency (1→k)",
            "seed 002 score (4→6, 4→8)",
            "verdicts",
            "vs baseline",
          ].map((h) => el("th", {}, h)),
        ),
      ),
      el("tbody", {}, ...rows),
    ),
    el(
      "p",
      { class: "note" },
      "Scaling efficiency: the throughput gain from the smallest cluster to each larger one, divided by the linear gain (100 % is linear; above it, more memory per node or noise). " +
        "Seed 002's scalability score is the mean of its 4→6 and 4→8 node efficiencies: shown only for series measured at 4, 6 and 8 nodes. " +
        "Vs baseline: each point against the peak of the run pinned as its configuration's baseline (black crosses on the chart).",
    ),
  );
}
