/**
 * Durability: presets compared within one study or scenario (seed 004), each preset at its own peak and, beside it,
 * all presets at one equal load (the same client threads): a preset's peak p99 is mostly its load otherwise
 * (MongoDB 8.6 ms at 8 threads against 40.5 ms at 32). Published p99 tables beside the measured bars.
 */
import type { ChartConfiguration } from "chart.js";
import { PRESETS } from "../../../model/presets.js";
import { allInOrder, fetchBaselines, fetchDurability, fetchFacets, fetchPublishedLatency, fetchSweeps, type DurabilityCell, type PublishedLatencyCell, type SweepSeries } from "../api.js";
import type { ErrorBar } from "../charts.js";
import { toCsv } from "../csv.js";
import { axisType, scaleChoice, scaleControl } from "../scales.js";
import { el, filterSelect, formatNumber, message } from "../ui.js";
import type { View, ViewContext } from "../view.js";
import { axisTitle, baselineCell, lookFor, seriesLabel } from "./common.js";
import { baselineFor, type PinnedBaseline } from "../../../model/history.js";

type Bars = { label: string; data: (number | null)[]; printed?: (string | null)[]; errorBars?: ErrorBar[]; backgroundColor: string; borderColor: string; borderWidth: number; borderDash?: number[] };

/**
 * The scenario shown unless the URL names one: the one whose runs (or published tables) cover the most presets,
 * the one with the most runs among equals; a preset comparison across studies would compare their setups instead.
 */
export function defaultScenario(presetsOf: ReadonlyMap<string, ReadonlySet<string>>, runsOf: ReadonlyMap<string, number>): string | undefined {
  return [...presetsOf.keys()].sort((a, b) => presetsOf.get(b)!.size - presetsOf.get(a)!.size || (runsOf.get(b) ?? 0) - (runsOf.get(a) ?? 0) || a.localeCompare(b))[0];
}

/** The thread counts every preset of an engine ran at (a sweep each), ascending. */
export function commonLoads(series: readonly SweepSeries[]): number[] {
  const presets = new Set(series.map((s) => s.preset));
  if (presets.size < 2) return [];
  const sets = [...presets].map((preset) => new Set(series.filter((s) => s.preset === preset).flatMap((s) => s.points.map((q) => q.threads))));
  return [...sets[0]!].filter((t) => sets.every((set) => set.has(t))).sort((a, b) => a - b);
}

function barChart(ctx: ViewContext, id: string, title: string, yTitle: string, yType: "linear" | "logarithmic", datasets: Bars[], note: string): void {
  const presets = [...PRESETS];
  const config = {
    type: "bar",
    data: { labels: presets, datasets: datasets.map(({ printed: _printed, ...d }) => d) },
    options: {
      animation: false,
      maintainAspectRatio: false,
      scales: { x: { title: axisTitle("durability preset") }, y: { type: yType, title: axisTitle(`${yTitle}${yType === "logarithmic" ? ", log scale" : ""}`) } },
      plugins: { legend: { position: "bottom" } },
    },
  };
  ctx.chart({
    id,
    title,
    config: config as unknown as ChartConfiguration,
    // Published cells keep their printed text ("<1ms"), measured ones their value.
    csv: () => toCsv(["series", "preset", yTitle], datasets.flatMap((d) => presets.map((preset, j) => [d.label, preset, d.printed?.[j] ?? d.data[j] ?? null]))),
    note,
  });
}

export const durabilityView: View = {
  title: "Durability",
  async render(ctx) {
    const p = ctx.state.params;
    const [facets, publishedAll, { baselines }] = await allInOrder([fetchFacets(), fetchPublishedLatency(), fetchBaselines()]);
    // Presets compared within one study or scenario: the control, defaulting to the one with the most presets.
    const presetsOf = new Map<string, Set<string>>();
    for (const s of facets.scenarioPresets) presetsOf.set(s.scenario, new Set(s.presets));
    for (const c of publishedAll) presetsOf.set(c.scenario, new Set([...(presetsOf.get(c.scenario) ?? []), c.preset]));
    const runsOf = new Map(facets.scenarios.map((s) => [s.value, s.runs]));
    const scenario = p.scenario ?? defaultScenario(presetsOf, runsOf);
    const [{ cells: all, operations: measuredOps }, sweeps] = await allInOrder([
      fetchDurability({ scenario, workload: p.workload }),
      fetchSweeps({ scenario, workload: p.workload, source: "measured" }),
    ]);
    const published = publishedAll.filter((c) => c.scenario === scenario);
    const operations = [...new Set([...measuredOps, ...published.map((c) => c.operation)])];
    const op = p.op ?? (operations.includes("UPDATE") ? "UPDATE" : operations[0]);
    // One workload at a time (a bar mixing workloads A and B would be no configuration): the one asked for, else A.
    const workloads = [...new Set([...all.map((c) => c.workload), ...published.map((c) => c.workload)])].filter((w) => w !== "").sort();
    const workload = p.workload ?? (workloads.includes("a") ? "a" : workloads[0]);
    // Presets are compared at one cluster size: the one asked for, else the smallest (seed 004 ran single servers).
    const ofWorkload = all.filter((c) => c.workload === workload);
    const publishedOfWorkload = published.filter((c) => c.workload === workload);
    const nodeCounts = [...new Set([...ofWorkload.map((c) => c.nodes), ...publishedOfWorkload.map((c) => c.nodes)])].sort((a, b) => a - b);
    const nodes = p.nodes !== undefined ? Number(p.nodes) : nodeCounts[0];
    const cells = ofWorkload.filter((c) => c.nodes === nodes);
    const publishedHere = publishedOfWorkload.filter((c) => c.nodes === nodes && c.operation === op);
    const sweepsHere = sweeps.series.filter((s) => s.workload === workload && s.nodes === nodes);
    const engines = [...new Set(sweepsHere.map((s) => s.engine))].sort();
    const loads = [...new Set(engines.flatMap((e) => commonLoads(sweepsHere.filter((s) => s.engine === e))))].sort((a, b) => a - b);
    const load = p.load !== undefined ? Number(p.load) : loads[loads.length - 1];
    ctx.controls.append(
      el(
        "form",
        { class: "filters" },
        filterSelect("scenario", "study / scenario", [...presetsOf.keys()].sort().map((s) => ({ value: s, label: `${s} (${presetsOf.get(s)!.size} presets)` })), scenario, (v) => ctx.setParams({ scenario: v, workload: undefined, nodes: undefined, load: undefined }), null),
        filterSelect("workload", "workload", workloads, workload, (v) => ctx.setParams({ workload: v }), null),
        filterSelect("nodes", "data nodes", nodeCounts.map(String), nodes === undefined ? undefined : String(nodes), (v) => ctx.setParams({ nodes: v }), null),
        filterSelect("op", "p99 of", operations, op, (v) => ctx.setParams({ op: v }), null),
        filterSelect("load", "equal load (client threads)", loads.map(String), load === undefined ? undefined : String(load), (v) => ctx.setParams({ load: v }), loads.length ? null : "none in common"),
        scaleControl(p.scale, (v) => ctx.setParams({ scale: v })),
      ),
    );
    if (cells.length === 0 && publishedHere.length === 0) {
      ctx.controls.append(message(`No durability results for ${scenario ?? "any scenario"} with these filters.`));
      return;
    }
    const presets = [...PRESETS];
    const groups = new Map<string, DurabilityCell[]>();
    for (const c of cells) groups.set(seriesLabel(c.engine, c.source), [...(groups.get(seriesLabel(c.engine, c.source)) ?? []), c]);
    const measuredBars = (value: (c: DurabilityCell) => number | null, ci?: (c: DurabilityCell) => ErrorBar): Bars[] =>
      [...groups.entries()].map(([label, list], i) => {
        const first = list[0]!;
        const look = lookFor(first.engine, first.source, i);
        const at = (preset: string) => list.find((x) => x.preset === preset);
        return {
          label,
          data: presets.map((preset) => (at(preset) ? value(at(preset)!) : null)),
          ...(ci ? { errorBars: presets.map((preset) => (at(preset) ? ci(at(preset)!) : null)) } : {}),
          backgroundColor: look.backgroundColor,
          borderColor: look.borderColor,
          borderWidth: first.source.kind === "published" ? 2 : 1,
          borderDash: look.borderDash,
        };
      });
    const scale = scaleChoice(p.scale);
    const where = `${scenario}, workload ${workload}, ${nodes} data node${nodes === 1 ? "" : "s"}.`;
    const leftOut = cells.reduce((a, c) => a + c.leftOut.invalid, 0);
    const peakNote =
      `${where} Each preset at its own peak: the highest throughput over its thread counts (seed 004 raised threads until throughput stopped ` +
      "rising), mean over repeats with its 95% CI; the threads of each peak are in the table below. Outlined bars: published figures." +
      (leftOut ? ` Left out: ${leftOut} invalid phase(s).` : "");
    if (cells.length) {
      const bars = measuredBars((c) => c.throughputOpsSec, (c) => c.ci);
      barChart(ctx, "durability-throughput", "Throughput per preset, each at its peak", "throughput (ops/s)", axisType(scale, bars.flatMap((b) => b.data)), bars, peakNote);
    }
    if (op) {
      const byEngine = new Map<string, PublishedLatencyCell[]>();
      for (const c of publishedHere) byEngine.set(c.engine, [...(byEngine.get(c.engine) ?? []), c]);
      const publishedBars: Bars[] = [...byEngine.values()].map((list, i) => {
        const first = list[0]!;
        const look = lookFor(first.engine, first.source, groups.size + i);
        const at = (preset: string) => list.find((c) => c.preset === preset);
        return {
          label: seriesLabel(first.engine, first.source),
          data: presets.map((preset) => at(preset)?.ms ?? null),
          printed: presets.map((preset) => at(preset)?.printed ?? null),
          backgroundColor: look.backgroundColor,
          borderColor: look.borderColor,
          borderWidth: 2,
          borderDash: look.borderDash,
        };
      });
      const bound = publishedHere.some((c) => c.below) ? ' Seed 004 prints some p99s as "<1ms": drawn at 1 ms, an upper bound.' : "";
      const bars = [...measuredBars((c) => (c.p99Us[op] === undefined ? null : c.p99Us[op]! / 1000)), ...publishedBars];
      barChart(ctx, "durability-p99", `p99 ${op} latency per preset, each at its peak`, `p99 ${op} (ms)`, axisType(scale === "auto" ? "log" : scale, bars.flatMap((b) => b.data)), bars, peakNote + bound);
    }
    // Equal load: every preset of an engine at the same total client threads, from its thread sweep.
    const equal = load === undefined ? [] : engines.flatMap((engine) => sweepsHere.filter((s) => s.engine === engine && commonLoads(sweepsHere.filter((x) => x.engine === engine)).includes(load)));
    const atLoad = (s: SweepSeries) => s.points.find((q) => q.threads === load);
    if (equal.length) {
      const byEngine = [...new Set(equal.map((s) => s.engine))];
      const bars = (value: (s: SweepSeries) => number | null, ci?: (s: SweepSeries) => ErrorBar): Bars[] =>
        byEngine.map((engine, i) => {
          const list = equal.filter((s) => s.engine === engine);
          const look = lookFor(engine, list[0]!.source, i);
          const at = (preset: string) => list.find((s) => s.preset === preset);
          return {
            label: `${seriesLabel(engine, list[0]!.source)} at ${load} threads`,
            data: presets.map((preset) => (at(preset) ? value(at(preset)!) : null)),
            ...(ci ? { errorBars: presets.map((preset) => (at(preset) ? ci(at(preset)!) : null)) } : {}),
            backgroundColor: look.backgroundColor,
            borderColor: look.borderColor,
            borderWidth: 1,
          };
        });
      const note = `${where} Every preset at ${load} client threads in total (the same load), mean over repeats with its 95% CI: the difference here is the preset's, not the load's.`;
      const t = bars((s) => atLoad(s)?.throughputOpsSec ?? null, (s) => atLoad(s)?.throughputCi ?? null);
      barChart(ctx, "durability-equal-throughput", `Throughput per preset at equal load (${load} threads)`, "throughput (ops/s)", axisType(scale, t.flatMap((b) => b.data)), t, note);
      if (op) {
        const l = bars((s) => {
          const v = atLoad(s)?.p99ByOp[op];
          return v === undefined ? null : v / 1000;
        });
        barChart(ctx, "durability-equal-p99", `p99 ${op} latency per preset at equal load (${load} threads)`, `p99 ${op} (ms)`, axisType(scale === "auto" ? "log" : scale, l.flatMap((b) => b.data)), l, note);
      }
    } else if (cells.length) {
      ctx.details.append(message("No thread count common to all presets of an engine here: no equal-load comparison (each preset ran its own thread counts)."));
    }
    ctx.details.append(peakTable(cells, equal, load, op, baselines));
  },
};

/** Every cell's numbers: peak throughput with CI and n, the threads of its peak, p99, and the same at equal load. */
function peakTable(cells: readonly DurabilityCell[], equal: readonly SweepSeries[], load: number | undefined, op: string | undefined, baselines: readonly PinnedBaseline[]): HTMLElement {
  const head = ["series", "preset", "peak throughput (ops/s)", "95% CI", "n", "peak at (threads)", "peak vs baseline", `p99 ${op ?? ""} (ms)`, `at ${load ?? "–"} threads (ops/s)`, `p99 at ${load ?? "–"} threads (ms)`];
  const rows = cells.map((c) => {
    const s = equal.find((x) => x.engine === c.engine && x.preset === c.preset);
    const q = s?.points.find((x) => x.threads === load);
    const p99 = op && c.p99Us[op] !== undefined ? c.p99Us[op]! / 1000 : null;
    const p99Equal = op && q?.p99ByOp[op] !== undefined ? q.p99ByOp[op]! / 1000 : null;
    return el(
      "tr",
      { "data-cell": `${c.engine}|${c.preset}` },
      el("td", {}, seriesLabel(c.engine, c.source)),
      el("td", {}, c.preset),
      el("td", { class: "num" }, formatNumber(c.throughputOpsSec)),
      el("td", { class: "num" }, c.ci ? `${formatNumber(c.ci.low)} – ${formatNumber(c.ci.high)}` : "–"),
      el("td", { class: "num" }, String(c.n)),
      el("td", { class: "num", "data-peak-threads": c.peakThreads.join(",") }, c.peakThreads.join(", ")),
      // The preset's peak against the run pinned as its configuration's baseline (that run's own peak).
      baselineCell(c.source.kind === "published" ? undefined : baselineFor(baselines, c, c.workload), c.throughputOpsSec),
      el("td", { class: "num" }, formatNumber(p99, 2)),
      el("td", { class: "num" }, formatNumber(q?.throughputOpsSec, 0)),
      el("td", { class: "num" }, formatNumber(p99Equal, 2)),
    );
  });
  return el("table", { class: "durability" }, el("thead", {}, el("tr", {}, ...head.map((h) => el("th", {}, h)))), el("tbody", {}, ...rows));
}
