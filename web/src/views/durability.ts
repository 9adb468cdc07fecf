/**
 * Durability: presets compared within one study or scenario (seed 004), each preset at its own peak and, beside it,
 * all presets at one equal load (the same client threads and target): a preset's peak p99 is mostly its load
 * otherwise (MongoDB 8.6 ms at 8 threads against 40.5 ms at 32). Published p99 tables beside the measured bars.
 */
import type { ChartConfiguration } from "chart.js";
import { PRESETS } from "../../../model/presets.js";
import { againstNoise, baselineFor, type PinnedBaseline } from "../../../model/history.js";
import {
  allInOrder,
  fetchBaselines,
  fetchDurability,
  fetchFacets,
  fetchPublishedLatency,
  fetchRecentScenarios,
  fetchSweeps,
  type DurabilityCell,
  type PublishedLatencyCell,
  type SweepSeries,
} from "../api.js";
import type { ErrorBar } from "../charts.js";
import { toCsv } from "../csv.js";
import { axisType, scaleChoice, scaleControl } from "../scales.js";
import { el, filterSelect, formatNumber, message } from "../ui.js";
import { hatchedBars, verdictNote, type PointVerdict } from "../verdicts.js";
import type { View, ViewContext } from "../view.js";
import { axisTitle, baselineCell, changeText, fittedLegend, looksFor, seriesLabel } from "./common.js";

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
type Level = SweepSeries["points"][number];

/**
 * The scenario shown unless the URL names one: the newest measured scenario with two presets or more, else the one
 * whose runs (or published tables) cover the most presets, the one with the most runs among equals; a preset
 * comparison across studies would compare their setups instead.
 */
export function defaultScenario(
  presetsOf: ReadonlyMap<string, ReadonlySet<string>>,
  runsOf: ReadonlyMap<string, number>,
  recent: readonly string[] = [],
): string | undefined {
  const newest = recent.find((s) => (presetsOf.get(s)?.size ?? 0) > 1);
  if (newest) return newest;
  return [...presetsOf.keys()].sort(
    (a, b) =>
      presetsOf.get(b)!.size - presetsOf.get(a)!.size ||
      (runsOf.get(b) ?? 0) - (runsOf.get(a) ?? 0) ||
      a.localeCompare(b),
  )[0];
}

/** A load level: total client threads, and the target when one was set ("8" or "8@300"). */
export const loadKey = (q: { threads: number; target: number | null }): string =>
  q.target === null ? String(q.threads) : `${q.threads}@${q.target}`;
export const loadLabel = (key: string): string => {
  const [threads, target] = key.split("@");
  return `${threads} threads${target ? ` at ${target} ops/s` : ""}`;
};

/**
 * The loads every preset of an engine ran at, from the phases themselves (every configuration's levels, a single
 * one included: a run at one thread count is a load its presets share), in ascending threads.
 */
export function commonLoads(levels: readonly SweepSeries[]): string[] {
  const presets = new Set(levels.map((s) => s.preset));
  if (presets.size < 2) return [];
  const sets = [...presets].map(
    (preset) => new Set(levels.filter((s) => s.preset === preset).flatMap((s) => s.points.map(loadKey))),
  );
  const keys = [...sets[0]!].filter((k) => sets.every((set) => set.has(k)));
  return keys.sort((a, b) => parseFloat(a) - parseFloat(b) || a.localeCompare(b));
}

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

interface Chosen {
  scenario: string | undefined;
  workload: string | undefined;
  nodes: number | undefined;
  op: string | undefined;
  load: string | undefined;
  loads: string[];
  cells: DurabilityCell[];
  levels: SweepSeries[];
  published: PublishedLatencyCell[];
  /** Phases judged invalid and left out, in the scenario's cells of this workload (a cell of invalid phases only has no bar). */
  invalid: number;
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
    const presetsOf = new Map<string, Set<string>>();
    for (const s of facets.scenarioPresets) presetsOf.set(s.scenario, new Set(s.presets));
    for (const c of publishedAll) presetsOf.set(c.scenario, new Set([...(presetsOf.get(c.scenario) ?? []), c.preset]));
    const scenario =
      p.scenario ?? defaultScenario(presetsOf, new Map(facets.scenarios.map((s) => [s.value, s.runs])), recent);
    const [{ cells: all, operations: measuredOps, leftOut }, sweeps] = await allInOrder([
      fetchDurability({ scenario, workload: p.workload }),
      fetchSweeps({ scenario, workload: p.workload, source: "measured" }),
    ]);
    const c = choose(
      p,
      scenario,
      all,
      measuredOps,
      sweeps.levels,
      publishedAll.filter((x) => x.scenario === scenario),
      leftOut.invalid,
    );
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

/** Workload, cluster size, operation and load: the URL's, else workload A, the smallest cluster, UPDATE, the highest common load. */
function choose(
  p: Record<string, string>,
  scenario: string | undefined,
  all: DurabilityCell[],
  measuredOps: string[],
  levels: SweepSeries[],
  published: PublishedLatencyCell[],
  invalid: number,
): Chosen {
  const operations = [...new Set([...measuredOps, ...published.map((x) => x.operation)])];
  const op = p.op ?? (operations.includes("UPDATE") ? "UPDATE" : operations[0]);
  // One workload at a time (a bar mixing workloads A and B would be no configuration): the one asked for, else A.
  const workloads = [...new Set([...all.map((x) => x.workload), ...published.map((x) => x.workload)])]
    .filter((w) => w !== "")
    .sort();
  const workload = p.workload ?? (workloads.includes("a") ? "a" : workloads[0]);
  // Presets are compared at one cluster size: the one asked for, else the smallest (seed 004 ran single servers).
  const nodeCounts = [
    ...new Set([
      ...all.filter((x) => x.workload === workload).map((x) => x.nodes),
      ...published.filter((x) => x.workload === workload).map((x) => x.nodes),
    ]),
  ].sort((a, b) => a - b);
  const nodes = p.nodes !== undefined ? Number(p.nodes) : nodeCounts[0];
  const here = levels.filter((s) => s.workload === workload && s.nodes === nodes);
  const engines = [...new Set(here.map((s) => s.engine))].sort();
  const loads = [...new Set(engines.flatMap((e) => commonLoads(here.filter((s) => s.engine === e))))].sort(
    (a, b) => parseFloat(a) - parseFloat(b),
  );
  return {
    scenario,
    workload,
    nodes,
    op,
    load: p.load ?? loads[loads.length - 1],
    loads,
    cells: all.filter((x) => x.workload === workload && x.nodes === nodes),
    levels: here,
    published: published.filter((x) => x.workload === workload && x.nodes === nodes),
    invalid,
  };
}

function controls(
  ctx: ViewContext,
  presetsOf: Map<string, Set<string>>,
  c: Chosen,
  all: DurabilityCell[],
): HTMLElement {
  const workloads = [...new Set([...all.map((x) => x.workload), ...c.published.map((x) => x.workload)])]
    .filter((w) => w !== "")
    .sort();
  const nodeCounts = [...new Set(all.filter((x) => x.workload === c.workload).map((x) => x.nodes))].sort(
    (a, b) => a - b,
  );
  const operations = [
    ...new Set([...all.flatMap((x) => Object.keys(x.p99Us)), ...c.published.map((x) => x.operation)]),
  ].filter((o) => o !== "CLEANUP");
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

/** Bars per series of cells: one per engine and source, a bar per preset, hatched where the cell's phases were not valid. */
function cellBars(
  cells: readonly DurabilityCell[],
  value: (c: DurabilityCell) => number | null,
  ci?: (c: DurabilityCell) => ErrorBar,
): Bars[] {
  const groups = new Map<string, DurabilityCell[]>();
  for (const x of cells)
    groups.set(seriesLabel(x.engine, x.source), [...(groups.get(seriesLabel(x.engine, x.source)) ?? []), x]);
  const looks = looksFor([...groups.values()].map((l) => l[0]!));
  return [...groups.entries()].map(([label, list], i) => {
    const at = (preset: string) => list.find((x) => x.preset === preset);
    const look = looks[i]!;
    return {
      label,
      data: PRESETS.map((preset) => (at(preset) ? value(at(preset)!) : null)),
      ...(ci ? { errorBars: PRESETS.map((preset) => (at(preset) ? ci(at(preset)!) : null)) } : {}),
      ...hatchedBars(
        look.backgroundColor,
        look.borderColor,
        PRESETS.map((preset) => at(preset)?.verdict ?? null),
      ),
      borderColor: look.borderColor,
      borderWidth: list[0]!.source.kind === "published" ? 2 : 1,
      ...(look.borderDash ? { borderDash: look.borderDash } : {}),
    };
  });
}

const where = (c: Chosen) => `${c.scenario}, workload ${c.workload}, ${c.nodes} data node${c.nodes === 1 ? "" : "s"}.`;

function drawPeaks(ctx: ViewContext, c: Chosen, scaleParam: string | undefined): void {
  const scale = scaleChoice(scaleParam);
  const inCells = c.cells.filter((x) => x.leftOut.invalid).map((x) => `${x.engine} ${x.preset}: ${x.leftOut.invalid}`);
  const peakNote =
    `${where(c)} Each preset at its own peak: the highest throughput over its thread counts (seed 004 raised threads until throughput stopped ` +
    "rising), mean over repeats with its 95% CI; the threads of each peak are in the table below. Outlined bars: published figures." +
    (c.invalid
      ? ` Left out: ${c.invalid} phase(s) judged invalid${inCells.length ? ` (${inCells.join(", ")})` : ""}; a preset with none left has no bar (include=all counts them).`
      : "");
  if (c.cells.length) {
    const bars = cellBars(
      c.cells,
      (x) => x.throughputOpsSec,
      (x) => x.ci,
    );
    barChart(
      ctx,
      "durability-throughput",
      "Throughput per preset, each at its peak",
      "throughput (ops/s)",
      axisType(
        scale,
        bars.flatMap((b) => b.data),
      ),
      bars,
      peakNote,
    );
  }
  if (!c.op) return;
  const op = c.op;
  const byEngine = new Map<string, PublishedLatencyCell[]>();
  for (const x of c.published.filter((x) => x.operation === op))
    byEngine.set(x.engine, [...(byEngine.get(x.engine) ?? []), x]);
  const measured = cellBars(c.cells, (x) => (x.p99Us[op] === undefined ? null : x.p99Us[op]! / 1000));
  // Published looks are dashed, measured solid: distinct from the measured bars whatever their colours.
  const looks = looksFor([...byEngine.values()].map((l) => l[0]!));
  const publishedBars: Bars[] = [...byEngine.values()].map((list, i) => {
    const at = (preset: string) => list.find((x) => x.preset === preset);
    const look = looks[i]!;
    return {
      label: seriesLabel(list[0]!.engine, list[0]!.source),
      data: PRESETS.map((preset) => at(preset)?.ms ?? null),
      printed: PRESETS.map((preset) => at(preset)?.printed ?? null),
      backgroundColor: look.backgroundColor,
      borderColor: look.borderColor,
      borderWidth: 2,
      ...(look.borderDash ? { borderDash: look.borderDash } : {}),
    };
  });
  const bound = c.published.some((x) => x.below)
    ? ' Seed 004 prints some p99s as "<1ms": drawn at 1 ms, an upper bound.'
    : "";
  const bars = [...measured, ...publishedBars];
  barChart(
    ctx,
    "durability-p99",
    `p99 ${op} latency per preset, each at its peak`,
    `p99 ${op} (ms)`,
    axisType(
      scale,
      bars.flatMap((b) => b.data),
    ),
    bars,
    peakNote + bound,
  );
}

/** Every preset of an engine at the same load (threads and target), from the levels the runs ran: the presets' own difference. */
function drawEqualLoad(ctx: ViewContext, c: Chosen, scaleParam: string | undefined): SweepSeries[] {
  const scale = scaleChoice(scaleParam);
  const engines = [...new Set(c.levels.map((s) => s.engine))].sort();
  const equal =
    c.load === undefined
      ? []
      : engines.flatMap((engine) =>
          c.levels.filter(
            (s) => s.engine === engine && commonLoads(c.levels.filter((x) => x.engine === engine)).includes(c.load!),
          ),
        );
  if (equal.length === 0) {
    if (c.cells.length)
      ctx.details.append(
        message(
          "No load (thread count and target) that every preset of an engine ran here: no equal-load comparison; each preset's peak is at its own load.",
        ),
      );
    return [];
  }
  const atLoad = (s: SweepSeries): Level | undefined => s.points.find((q) => loadKey(q) === c.load);
  const byEngine = [...new Set(equal.map((s) => s.engine))];
  const looks = looksFor(byEngine.map((engine) => equal.find((s) => s.engine === engine)!));
  const bars = (value: (q: Level) => number | null, ci?: (q: Level) => ErrorBar): Bars[] =>
    byEngine.map((engine, i) => {
      const list = equal.filter((s) => s.engine === engine);
      const at = (preset: string) => {
        const s = list.find((x) => x.preset === preset);
        return s ? atLoad(s) : undefined;
      };
      return {
        label: `${seriesLabel(engine, list[0]!.source)} at ${loadLabel(c.load!)}`,
        data: PRESETS.map((preset) => (at(preset) ? value(at(preset)!) : null)),
        ...(ci ? { errorBars: PRESETS.map((preset) => (at(preset) ? ci(at(preset)!) : null)) } : {}),
        ...hatchedBars(
          looks[i]!.backgroundColor,
          looks[i]!.borderColor,
          PRESETS.map((preset) => at(preset)?.verdict ?? null),
        ),
        borderColor: looks[i]!.borderColor,
        borderWidth: 1,
      };
    });
  const note = `${where(c)} Every preset at ${loadLabel(c.load!)} in total (the same load), mean over repeats with its 95% CI: the difference here is the preset's, not the load's.`;
  const t = bars(
    (q) => q.throughputOpsSec,
    (q) => q.throughputCi,
  );
  barChart(
    ctx,
    "durability-equal-throughput",
    `Throughput per preset at equal load (${loadLabel(c.load!)})`,
    "throughput (ops/s)",
    axisType(
      scale,
      t.flatMap((b) => b.data),
    ),
    t,
    note,
  );
  if (c.op) {
    const op = c.op;
    const l = bars((q) => (q.p99ByOp[op] === undefined ? null : q.p99ByOp[op]! / 1000));
    barChart(
      ctx,
      "durability-equal-p99",
      `p99 ${op} latency per preset at equal load (${loadLabel(c.load!)})`,
      `p99 ${op} (ms)`,
      axisType(
        scale,
        l.flatMap((b) => b.data),
      ),
      l,
      note,
    );
  }
  return equal;
}

/** Every cell's numbers: peak throughput with CI and n, the threads of its peak, p99, the same at equal load, its verdict. */
function peakTable(c: Chosen, equal: readonly SweepSeries[], baselines: readonly PinnedBaseline[]): HTMLElement {
  const { op, load } = c;
  const at = load === undefined ? "–" : loadLabel(load);
  const head = [
    "series",
    "preset",
    "peak throughput (ops/s)",
    "95% CI",
    "n",
    "peak at (threads)",
    "peak vs baseline",
    `p99 ${op ?? ""} (ms)`,
    `at ${at} (ops/s)`,
    `p99 at ${at} (ms)`,
    "verdict",
  ];
  const rows = c.cells.map((x) => {
    const s = equal.find((e) => e.engine === x.engine && e.preset === x.preset);
    const q = s?.points.find((l) => loadKey(l) === load);
    const p99 = op && x.p99Us[op] !== undefined ? x.p99Us[op]! / 1000 : null;
    const p99Equal = op && q?.p99ByOp[op] !== undefined ? q.p99ByOp[op]! / 1000 : null;
    const leftOut = x.leftOut.invalid ? `; ${x.leftOut.invalid} invalid phase(s) left out` : "";
    return el(
      "tr",
      { "data-cell": `${x.engine}|${x.preset}` },
      el("td", {}, seriesLabel(x.engine, x.source)),
      el("td", {}, x.preset),
      el("td", { class: "num" }, formatNumber(x.throughputOpsSec)),
      el("td", { class: "num" }, x.ci ? `${formatNumber(x.ci.low)} – ${formatNumber(x.ci.high)}` : "–"),
      el("td", { class: "num" }, String(x.n)),
      el("td", { class: "num", "data-peak-threads": x.peakThreads.join(",") }, x.peakThreads.join(", ")),
      // The preset's peak against the run pinned as its configuration's baseline (that run's own peak).
      baselineCell(
        x.source.kind === "published" ? undefined : baselineFor(baselines, x, x.workload),
        x.throughputOpsSec,
      ),
      el("td", { class: "num" }, formatNumber(p99, 2)),
      el("td", { class: "num" }, formatNumber(q?.throughputOpsSec, 0)),
      el("td", { class: "num" }, formatNumber(p99Equal, 2)),
      el(
        "td",
        {
          class: `verdict ${x.verdict.verdict}`,
          "data-verdict": x.verdict.verdict,
          title: x.verdict.reasons.join("\n"),
        },
        `${x.verdict.verdict}${x.verdict.reasons.length ? `: ${x.verdict.reasons.join("; ")}` : ""}${leftOut}`,
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

/**
 * Each preset against the first one of its engine at the equal load (else at their peaks): the change, and whether
 * it is more than the repeats' noise. One repeat on either side, or a change inside the noise, says so beside the
 * number: "balanced 15 % faster than throughput" was noise.
 */
function differences(c: Chosen, equal: readonly SweepSeries[]): HTMLElement {
  const rows: HTMLElement[] = [];
  const stat = (q: Level | undefined) => ({
    mean: q?.throughputOpsSec ?? null,
    ci95: q?.throughputCi ? { halfWidth: (q.throughputCi.high - q.throughputCi.low) / 2 } : null,
    verdict: q?.verdict,
  });
  const peakStat = (x: DurabilityCell | undefined) => ({
    mean: x?.throughputOpsSec ?? null,
    ci95: x?.ci ? { halfWidth: (x.ci.high - x.ci.low) / 2 } : null,
    verdict: x?.verdict,
  });
  const engines = [...new Set(c.cells.map((x) => x.engine))];
  for (const engine of engines) {
    const atLoad = equal.length > 0;
    const statOf = (preset: string) =>
      atLoad
        ? stat(equal.find((s) => s.engine === engine && s.preset === preset)?.points.find((q) => loadKey(q) === c.load))
        : peakStat(c.cells.find((x) => x.engine === engine && x.preset === preset && x.source.kind === "measured"));
    const presets = PRESETS.filter((preset) => statOf(preset).mean !== null);
    const [first, ...others] = presets;
    if (!first) continue;
    for (const preset of others) {
      const base = statOf(first);
      const other = statOf(preset);
      const diff = againstNoise(base, other);
      const suspect = [base.verdict, other.verdict].some((v) => v && v.verdict !== "valid");
      const words =
        diff.verdict === "noise unknown"
          ? "rests on one repeat each: the noise is unknown, so this difference may be noise"
          : diff.verdict === "within noise"
            ? `inside the measured noise (±${formatNumber((diff.noise ?? 0) * 100, 1)} %): no difference shown`
            : `more than the measured noise (±${formatNumber((diff.noise ?? 0) * 100, 1)} %)`;
      rows.push(
        el(
          "tr",
          { "data-difference": `${engine}|${first}|${preset}`, "data-verdict": diff.verdict },
          el(
            "td",
            {},
            `${engine}: ${preset} vs ${first}${atLoad ? ` at ${loadLabel(c.load!)}` : ", each at its peak"}`,
          ),
          el("td", { class: "num" }, changeText(diff.change)),
          el("td", {}, `${words}${suspect ? "; and it stands on phases not judged valid" : ""}`),
        ),
      );
    }
  }
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
