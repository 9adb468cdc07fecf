/**
 * Durability: presets compared within one study or scenario (seed 004), each preset at its own peak and, beside it,
 * all presets at one equal load (the same client threads and target): a preset's peak p99 is mostly its load
 * otherwise (MongoDB 8.6 ms at 8 threads against 40.5 ms at 32). Published p99 tables beside the measured bars.
 * What is shown is shaped in durability-shaping.ts; this module draws it.
 */
import type { ChartConfiguration } from "chart.js";
import type { PinnedBaseline } from "../../../model/history.js";
import { PRESETS } from "../../../model/presets.js";
import {
  allInOrder,
  type DurabilityCell,
  fetchBaselines,
  fetchDurability,
  fetchFacets,
  fetchPublishedLatency,
  fetchRecentScenarios,
  fetchSweeps,
  type SweepSeries,
} from "../api.js";
import type { ErrorBar } from "../charts.js";
import { toCsv } from "../csv.js";
import { axisType, scaleChoice, scaleControl } from "../scales.js";
import { el, filterSelect, formatNumber, message } from "../ui.js";
import { hatchedBars, type PointVerdict, verdictNote } from "../verdicts.js";
import type { View, ViewContext } from "../view.js";
import { axisTitle, baselineCell, changeText, fittedLegend, looksFor } from "./common.js";
import {
  type Chosen,
  cellP99Ms,
  cellSeries,
  choose,
  defaultScenario,
  equalLoadLevels,
  equalLoadNote,
  equalLoadSeries,
  filterOptions,
  levelP99Ms,
  loadLabel,
  type PresetSeries,
  peakNote,
  peakRows,
  presetDifferences,
  publishedSeries,
  scenarioPresets,
} from "./durability-shaping.js";

export { commonLoads, defaultScenario, loadKey, loadLabel } from "./durability-shaping.js";

type Bars = {
  label: string;
  data: (number | null)[];
  printed?: (string | null)[];
  errorBars?: ErrorBar[];
  verdicts?: (PointVerdict | null)[];
  backgroundColor: string | (string | CanvasPattern)[];
  borderColor: string;
  borderWidth: number;
  borderDash?: number[];
};

/** Bars on a linear axis; where the values need a log axis (beyond a decade), points instead: a bar's length on a log axis means nothing. */
function barChart(
  ctx: ViewContext,
  id: string,
  title: string,
  yTitle: string,
  yType: "linear" | "logarithmic",
  datasets: Bars[],
  note: string,
): void {
  const presets = [...PRESETS];
  const asPoints = yType === "logarithmic";
  const config = {
    type: "bar",
    data: {
      labels: presets,
      datasets: datasets.map(({ printed: _printed, ...d }) =>
        asPoints
          ? {
              ...d,
              type: "line",
              showLine: false,
              pointRadius: 6,
              pointStyle: "rectRot",
              pointBackgroundColor: d.backgroundColor,
            }
          : d,
      ),
    },
    options: {
      animation: false,
      maintainAspectRatio: false,
      scales: {
        x: { title: axisTitle("durability preset") },
        y: {
          type: yType,
          beginAtZero: !asPoints,
          title: axisTitle(`${yTitle}${asPoints ? ", log scale (points: bars need a linear axis)" : ""}`),
        },
      },
      plugins: { legend: fittedLegend() },
    },
  };
  ctx.chart({
    id,
    title,
    config: config as unknown as ChartConfiguration,
    // Published cells keep their printed text ("<1ms"), measured ones their value.
    csv: () =>
      toCsv(
        ["series", "preset", yTitle, "verdict"],
        datasets.flatMap((d) =>
          presets.map((preset, j) => [
            d.label,
            preset,
            d.printed?.[j] ?? d.data[j] ?? null,
            d.verdicts?.[j]?.verdict ?? "",
          ]),
        ),
      ),
    note: note + verdictNote(datasets.flatMap((d) => d.verdicts ?? [])),
  });
}

export const durabilityView: View = {
  title: "Durability",
  async render(ctx) {
    const p = ctx.state.params;
    const [facets, publishedAll, { baselines }, recent] = await allInOrder([
      fetchFacets(),
      fetchPublishedLatency(),
      fetchBaselines(),
      fetchRecentScenarios(),
    ]);
    // Presets compared within one study or scenario: the control, defaulting to the newest or the one with the most presets.
    const presetsOf = scenarioPresets(facets, publishedAll);
    const scenario =
      p.scenario ?? defaultScenario(presetsOf, new Map(facets.scenarios.map((s) => [s.value, s.runs])), recent);
    const [{ cells: all, operations: measuredOps, leftOut }, sweeps] = await allInOrder([
      fetchDurability({ scenario, workload: p.workload }),
      fetchSweeps({ scenario, workload: p.workload, source: "measured" }),
    ]);
    const published = publishedAll.filter((x) => x.scenario === scenario);
    const c = choose(p, scenario, { all, measuredOps, levels: sweeps.levels, published }, leftOut.invalid);
    ctx.controls.append(controls(ctx, presetsOf, c, all));
    if (c.cells.length === 0 && c.published.length === 0) {
      ctx.controls.append(message(`No durability results for ${scenario ?? "any scenario"} with these filters.`));
      return;
    }
    drawPeaks(ctx, c, p.scale);
    const equal = drawEqualLoad(ctx, c, p.scale);
    ctx.details.append(peakTable(c, equal, baselines), differences(c, equal));
  },
};

function controls(
  ctx: ViewContext,
  presetsOf: Map<string, Set<string>>,
  c: Chosen,
  all: DurabilityCell[],
): HTMLElement {
  const { workloads, nodeCounts, operations } = filterOptions(all, c);
  return el(
    "form",
    { class: "filters" },
    filterSelect(
      "scenario",
      "study / scenario",
      [...presetsOf.keys()].sort().map((s) => ({ value: s, label: `${s} (${presetsOf.get(s)!.size} presets)` })),
      c.scenario,
      (v) => ctx.setParams({ scenario: v, workload: undefined, nodes: undefined, load: undefined }),
      null,
    ),
    filterSelect("workload", "workload", workloads, c.workload, (v) => ctx.setParams({ workload: v }), null),
    filterSelect(
      "nodes",
      "data nodes",
      nodeCounts.map(String),
      c.nodes === undefined ? undefined : String(c.nodes),
      (v) => ctx.setParams({ nodes: v }),
      null,
    ),
    filterSelect("op", "p99 of", operations, c.op, (v) => ctx.setParams({ op: v }), null),
    filterSelect(
      "load",
      "equal load",
      c.loads.map((k) => ({ value: k, label: loadLabel(k) })),
      c.load,
      (v) => ctx.setParams({ load: v }),
      c.loads.length ? null : "none in common",
    ),
    scaleControl(ctx.state.params.scale, (v) => ctx.setParams({ scale: v })),
  );
}

/**
 * Series drawn as bars in their looks (published dashed, measured solid), hatched where a value stands on phases not
 * judged valid; a published series is outlined thicker. The equal-load charts draw every series solid.
 */
function toBars(series: readonly PresetSeries[], dashed = true): Bars[] {
  const looks = looksFor(series);
  return series.map((s, i) => {
    const look = looks[i]!;
    const published = s.source.kind === "published";
    return {
      label: s.label,
      data: s.values,
      ...(s.printed ? { printed: s.printed } : {}),
      ...(s.errorBars ? { errorBars: s.errorBars } : {}),
      ...(s.verdicts
        ? hatchedBars(look.backgroundColor, look.borderColor, s.verdicts)
        : { backgroundColor: look.backgroundColor }),
      borderColor: look.borderColor,
      borderWidth: published ? 2 : 1,
      ...(dashed && look.borderDash ? { borderDash: look.borderDash } : {}),
    };
  });
}

const yType = (scaleParam: string | undefined, bars: readonly Bars[]) =>
  axisType(
    scaleChoice(scaleParam),
    bars.flatMap((b) => b.data),
  );

function drawPeaks(ctx: ViewContext, c: Chosen, scaleParam: string | undefined): void {
  const note = peakNote(c);
  if (c.cells.length) {
    const bars = toBars(
      cellSeries(
        c.cells,
        (x) => x.throughputOpsSec,
        (x) => x.ci,
      ),
    );
    const title = "Throughput per preset, each at its peak";
    barChart(ctx, "durability-throughput", title, "throughput (ops/s)", yType(scaleParam, bars), bars, note);
  }
  if (!c.op) return;
  const op = c.op;
  // Measured and published looks apart: looks are given per group, as each group's own series.
  const bars = [...toBars(cellSeries(c.cells, (x) => cellP99Ms(x, op))), ...toBars(publishedSeries(c.published, op))];
  const bound = c.published.some((x) => x.below)
    ? ' Seed 004 prints some p99s as "<1ms": drawn at 1 ms, an upper bound.'
    : "";
  const title = `p99 ${op} latency per preset, each at its peak`;
  barChart(ctx, "durability-p99", title, `p99 ${op} (ms)`, yType(scaleParam, bars), bars, note + bound);
}

/** Every preset of an engine at the same load (threads and target), from the levels the runs ran: the presets' own difference. */
function drawEqualLoad(ctx: ViewContext, c: Chosen, scaleParam: string | undefined): SweepSeries[] {
  const equal = equalLoadLevels(c);
  if (equal.length === 0) {
    if (c.cells.length)
      ctx.details.append(
        message(
          "No load (thread count and target) that every preset of an engine ran here: no equal-load comparison; each preset's peak is at its own load.",
        ),
      );
    return [];
  }
  const load = c.load!;
  const note = equalLoadNote(c);
  const t = toBars(
    equalLoadSeries(
      equal,
      load,
      (q) => q.throughputOpsSec,
      (q) => q.throughputCi,
    ),
    false,
  );
  const title = `Throughput per preset at equal load (${loadLabel(load)})`;
  barChart(ctx, "durability-equal-throughput", title, "throughput (ops/s)", yType(scaleParam, t), t, note);
  if (c.op) {
    const op = c.op;
    const l = toBars(
      equalLoadSeries(equal, load, (q) => levelP99Ms(q, op)),
      false,
    );
    const p99Title = `p99 ${op} latency per preset at equal load (${loadLabel(load)})`;
    barChart(ctx, "durability-equal-p99", p99Title, `p99 ${op} (ms)`, yType(scaleParam, l), l, note);
  }
  return equal;
}

/** Every cell's numbers: peak throughput with CI and n, the threads of its peak, p99, the same at equal load, its verdict. */
function peakTable(c: Chosen, equal: readonly SweepSeries[], baselines: readonly PinnedBaseline[]): HTMLElement {
  const at = c.load === undefined ? "–" : loadLabel(c.load);
  const head = [
    "series",
    "preset",
    "peak throughput (ops/s)",
    "95% CI",
    "n",
    "peak at (threads)",
    "peak vs baseline",
    `p99 ${c.op ?? ""} (ms)`,
    `at ${at} (ops/s)`,
    `p99 at ${at} (ms)`,
    "verdict",
  ];
  const rows = peakRows(c, equal, baselines).map((r) => {
    const x = r.cell;
    const v = x.verdict;
    return el(
      "tr",
      { "data-cell": `${x.engine}|${x.preset}` },
      el("td", {}, r.series),
      el("td", {}, x.preset),
      el("td", { class: "num" }, formatNumber(x.throughputOpsSec)),
      el("td", { class: "num" }, x.ci ? `${formatNumber(x.ci.low)} – ${formatNumber(x.ci.high)}` : "–"),
      el("td", { class: "num" }, String(x.n)),
      el("td", { class: "num", "data-peak-threads": x.peakThreads.join(",") }, x.peakThreads.join(", ")),
      baselineCell(r.baseline, x.throughputOpsSec),
      el("td", { class: "num" }, formatNumber(r.p99Ms, 2)),
      el("td", { class: "num" }, formatNumber(r.equalThroughput, 0)),
      el("td", { class: "num" }, formatNumber(r.equalP99Ms, 2)),
      el(
        "td",
        { class: `verdict ${v.verdict}`, "data-verdict": v.verdict, title: v.reasons.join("\n") },
        `${v.verdict}${v.reasons.length ? `: ${v.reasons.join("; ")}` : ""}${r.leftOut}`,
      ),
    );
  });
  return el(
    "table",
    { class: "durability" },
    el("thead", {}, el("tr", {}, ...head.map((h) => el("th", {}, h)))),
    el("tbody", {}, ...rows),
  );
}

/** Each preset against the first one of its engine (durability-shaping.ts presetDifferences), against the noise. */
function differences(c: Chosen, equal: readonly SweepSeries[]): HTMLElement {
  const rows = presetDifferences(c, equal).map((d) =>
    el(
      "tr",
      { "data-difference": d.key, "data-verdict": d.verdict },
      el("td", {}, d.what),
      el("td", { class: "num" }, changeText(d.change)),
      el("td", {}, d.words),
    ),
  );
  return el(
    "div",
    {},
    el("h3", {}, "Differences between presets, throughput"),
    el(
      "table",
      { class: "differences" },
      el("thead", {}, el("tr", {}, ...["presets", "change", "against the noise"].map((h) => el("th", {}, h)))),
      el("tbody", {}, ...rows),
    ),
  );
}
