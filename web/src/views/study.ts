/**
 * Study pages: one per seed. The paper's figures redrawn from its published tables beside the measured runs of its
 * scenario, and the paper's own analysis: seed 002's scalability score, seed 003's two-way ANOVA (Table 9), seed
 * 004's p99 tables, the mean-latency tables; every table verbatim, and where the scenario departs from the paper.
 */
import type { ChartConfiguration } from "chart.js";
import { SCENARIOS } from "../../../model/scenarios.js";
import type { ScenarioSpec } from "../../../model/scenario.js";
import { allInOrder, fetchAnova, fetchDurability, fetchReference, fetchScaling, fetchSweeps, type Anova, type DurabilityCell, type ReferenceTable, type ScalingSeries, type SweepSeries } from "../api.js";
import { seriesToCsv, toCsv } from "../csv.js";
import { publishedMs } from "../analysis.js";
import { axisType, scaleChoice, scaleControl } from "../scales.js";
import { el, filterSelect, formatNumber, message } from "../ui.js";
import type { View, ViewContext } from "../view.js";
import { axisTitle, lookFor, seriesLabel } from "./common.js";

export const SEEDS = ["000", "001", "002", "003", "004"] as const;

/** The scenario that reproduces a seed (model/scenarios.ts sources). */
export function scenarioOfSeed(seed: string): ScenarioSpec | undefined {
  return (Object.values(SCENARIOS) as ScenarioSpec[]).find((s) => s.sources.some((src) => "seed" in src && src.seed === seed));
}

type Pt = { x: number; y: number };

function lineChart(ctx: ViewContext, id: string, title: string, xTitle: string, yTitle: string, datasets: Record<string, unknown>[], yType: "linear" | "logarithmic", note: string, xLog = false): void {
  const config = {
    type: "line",
    data: { datasets },
    options: {
      animation: false,
      parsing: false,
      maintainAspectRatio: false,
      scales: { x: { type: xLog ? "logarithmic" : "linear", title: axisTitle(xTitle) }, y: { type: yType, title: axisTitle(`${yTitle}${yType === "logarithmic" ? ", log scale" : ""}`) } },
      plugins: { legend: { position: "bottom" } },
    },
  };
  ctx.chart({
    id,
    title,
    config: config as unknown as ChartConfiguration,
    csv: () => seriesToCsv(xTitle, yTitle, datasets.map((d) => ({ label: String(d.label), points: d.data as Pt[] }))),
    note,
  });
}

/** A table as printed in the paper, with its reference. */
function verbatim(t: ReferenceTable): HTMLElement {
  return el(
    "details",
    { class: "reference-table", "data-table": t.id },
    el("summary", {}, `${t.tableRef}: ${t.title}${t.unit ? ` (${t.unit})` : ""}`),
    el("table", {}, el("thead", {}, el("tr", {}, ...t.columns.map((c) => el("th", {}, c)))), el("tbody", {}, ...t.rows.map((r) => el("tr", {}, ...r.map((c) => el("td", { class: typeof c === "number" ? "num" : "" }, c === null ? "–" : String(c))))))),
    t.notes ? el("p", { class: "note" }, t.notes) : null,
  );
}

export const studyView: View = {
  title: "Studies",
  async render(ctx) {
    const p = ctx.state.params;
    const seed = (SEEDS as readonly string[]).includes(p.seed ?? "") ? p.seed! : "002";
    const spec = scenarioOfSeed(seed);
    const scenario = spec?.name;
    ctx.controls.append(
      el(
        "form",
        { class: "filters" },
        filterSelect("seed", "study", SEEDS.map((s) => ({ value: s, label: `seed ${s}: ${scenarioOfSeed(s)?.title ?? s}` })), seed, (v) => ctx.setParams({ seed: v }), null),
        scaleControl(p.scale, (v) => ctx.setParams({ scale: v })),
      ),
    );
    const [tables, scaling, sweeps, durability, anova] = await allInOrder([
      fetchReference(seed),
      fetchScaling({ scenario }),
      fetchSweeps({ scenario }),
      fetchDurability({ scenario }),
      seed === "003" ? fetchAnova({ scenario }) : Promise.resolve(null),
    ]);
    const citation = tables[0]?.citation ?? "";
    ctx.controls.append(
      el("p", { class: "study-citation", "data-seed": seed }, citation),
      el("p", { class: "note" }, `Reproduced by the scenario ${scenario ?? "–"}: ${spec?.title ?? ""}. Measured runs of that scenario are drawn beside the paper's figures (solid circles; the paper's are dashed triangles).`),
    );
    if (spec?.departures?.length)
      ctx.controls.append(el("details", { class: "departures" }, el("summary", {}, `Where the scenario departs from the paper (${spec.departures.length})`), el("ul", {}, ...spec.departures.map((d) => el("li", {}, `${d.what}: ${d.why}`)))));
    const scale = scaleChoice(p.scale);
    throughputFigures(ctx, seed, scaling.series, scale);
    latencyFigures(ctx, seed, tables, durability.cells, scale);
    runtimeFigures(ctx, seed, sweeps.series, scale);
    p99Figures(ctx, seed, tables, durability.cells);
    if (seed === "002") ctx.details.append(scoreTable(scaling.series, tables));
    if (anova) ctx.details.append(anovaTables(anova));
    ctx.details.append(el("h3", {}, "The paper's tables"), ...tables.map(verbatim));
  },
};

/** Throughput against cluster size per workload (seeds 000, 001, 002): the paper's series and the measured ones. */
function throughputFigures(ctx: ViewContext, seed: string, series: readonly ScalingSeries[], scale: "auto" | "log" | "linear"): void {
  const workloads = [...new Set(series.filter((s) => s.source.seed === seed).map((s) => s.workload))].sort();
  for (const workload of workloads) {
    const of = series.filter((s) => s.workload === workload && (s.source.seed === seed || s.source.kind === "measured"));
    const datasets = of.map((s, i) => ({ label: `${seriesLabel(s.engine, s.source)} · ${s.preset}`, data: s.points.map((q) => ({ x: q.nodes, y: q.throughputOpsSec })), ...lookFor(s.engine, s.source, i), borderWidth: 2, errorBars: s.points.map((q) => q.ci) }));
    lineChart(ctx, `study-${seed}-throughput-${workload}`, `Throughput, workload ${workload}`, "data nodes", "throughput (ops/s)", datasets, axisType(scale, of.flatMap((s) => s.points.map((q) => q.throughputOpsSec))), "The paper's figure (dashed) from its table, measured runs of the scenario (solid) with 95% CIs.");
  }
}

/** Mean latency against cluster size from the paper's latency tables, beside the measured mean of the same workload or operation. */
function latencyFigures(ctx: ViewContext, seed: string, tables: readonly ReferenceTable[], cells: readonly DurabilityCell[], scale: "auto" | "log" | "linear"): void {
  for (const t of tables.filter((x) => x.series.length > 0)) {
    const derive = t.derive as { workload?: string | null; operation?: string | null } | null;
    const published = t.series.map((s, i) => ({
      label: `${s.engine}: ${t.tableRef}`,
      data: s.points.map((q) => ({ x: q.nodes, y: q.valueUs / 1000 })),
      ...lookFor(s.engine, { kind: "published", seed }, i),
      borderWidth: 2,
    }));
    const measured = [...new Set(cells.filter((c) => c.source.kind === "measured").map((c) => c.engine))].map((engine, i) => {
      const of = cells.filter((c) => c.engine === engine && c.source.kind === "measured" && (!derive?.workload || c.workload === derive.workload));
      const byNodes = new Map<number, { sum: number; count: number }>();
      for (const c of of) {
        for (const [op, o] of Object.entries(c.latency)) {
          if (op === "CLEANUP" || op.endsWith("-FAILED") || (derive?.operation && op !== derive.operation) || o.avgUs === null) continue;
          const acc = byNodes.get(c.nodes) ?? { sum: 0, count: 0 };
          acc.sum += o.avgUs * o.count;
          acc.count += o.count;
          byNodes.set(c.nodes, acc);
        }
      }
      const data = [...byNodes].filter(([, a]) => a.count > 0).map(([nodes, a]) => ({ x: nodes, y: a.sum / a.count / 1000 })).sort((a, b) => a.x - b.x);
      return { label: `${engine} (measured)`, data, ...lookFor(engine, { kind: "measured" }, i), borderWidth: 2 };
    }).filter((d) => d.data.length > 0);
    const datasets = [...published, ...measured];
    lineChart(ctx, `study-${seed}-latency-${t.id}`, `${t.title}`, "data nodes", "mean latency (ms)", datasets, axisType(scale, datasets.flatMap((d) => d.data.map((q) => q.y))), `${t.tableRef}, as printed; measured: the count-weighted mean latency of ${derive?.operation ?? "every operation"} at each run's peak.`);
  }
}

/** Seed 003: runtime against client threads per workload and operation count, the paper's tables beside measured sweeps. */
function runtimeFigures(ctx: ViewContext, seed: string, series: readonly SweepSeries[], scale: "auto" | "log" | "linear"): void {
  const mine = series.filter((s) => s.source.seed === seed || s.source.kind === "measured");
  const keys = [...new Set(mine.filter((s) => s.source.seed === seed).map((s) => `${s.workload}|${s.operationCount ?? ""}`))].sort();
  for (const key of keys) {
    const [workload, ops] = key.split("|");
    const of = mine.filter((s) => s.workload === workload && String(s.operationCount ?? "") === ops);
    const datasets = of.map((s, i) => ({
      label: `${seriesLabel(s.engine, s.source)}`,
      data: s.points.flatMap((q) => (q.runtimeMs === null ? [] : [{ x: q.threads, y: q.runtimeMs / 1000 }])),
      errorBars: s.points.flatMap((q) => (q.runtimeMs === null ? [] : [q.runtimeCi ? { low: q.runtimeCi.low / 1000, high: q.runtimeCi.high / 1000 } : null])),
      ...lookFor(s.engine, s.source, i),
      borderWidth: 2,
    }));
    const opsLabel = ops ? `${Number(ops).toLocaleString("en-US")} operations` : "";
    lineChart(ctx, `study-${seed}-runtime-${workload}-${ops}`, `Runtime, workload ${workload}, ${opsLabel}`, "client threads", "runtime (s)", datasets, scale === "linear" ? "linear" : "logarithmic", "Lower is better. The paper's means of 3 repeats (dashed) beside measured sweeps (solid, 95% CI over repeats).", true);
  }
}

/** Seed 004: p99 per preset as the paper printed it, beside the measured p99 of the same cell (each preset at its peak). */
function p99Figures(ctx: ViewContext, seed: string, tables: readonly ReferenceTable[], cells: readonly DurabilityCell[]): void {
  const p99Tables = tables.filter((t) => (t.derive as { metric?: string } | null)?.metric === "p99");
  if (p99Tables.length === 0) return;
  type Row = { workload: string; preset: string; engine: string; operation: string; printed: string; ms: number | null; measuredMs: number | null; threads: string };
  const rows: Row[] = [];
  for (const t of p99Tables) {
    const d = t.derive as { workload: string; preset: string; engines: Record<string, string>; operations: Record<string, string> };
    for (const r of t.rows) {
      const engine = d.engines[String(r[0])];
      if (!engine) continue;
      for (const [column, operation] of Object.entries(d.operations)) {
        const printed = r[t.columns.indexOf(column)];
        const cell = cells.find((c) => c.source.kind === "measured" && c.engine === engine && c.preset === d.preset && c.workload === d.workload);
        const us = cell?.p99Us[operation];
        rows.push({ workload: d.workload, preset: d.preset, engine, operation, printed: printed === null || printed === undefined ? "–" : String(printed), ms: publishedMs(printed)?.ms ?? null, measuredMs: us === undefined ? null : us / 1000, threads: cell?.peakThreads.join(", ") ?? "" });
      }
    }
  }
  const presets = ["throughput", "balanced", "durable"];
  for (const workload of [...new Set(rows.map((r) => r.workload))].sort()) {
    for (const operation of [...new Set(rows.filter((r) => r.workload === workload).map((r) => r.operation))]) {
      const of = rows.filter((r) => r.workload === workload && r.operation === operation);
      const engines = [...new Set(of.map((r) => r.engine))].sort();
      const datasets = engines.flatMap((engine, i) => {
        const at = (preset: string) => of.find((r) => r.engine === engine && r.preset === preset);
        const pub = lookFor(engine, { kind: "published", seed }, i);
        const mea = lookFor(engine, { kind: "measured" }, i);
        return [
          { label: `${engine}: published`, data: presets.map((pr) => at(pr)?.ms ?? null), backgroundColor: pub.backgroundColor, borderColor: pub.borderColor, borderWidth: 2, borderDash: pub.borderDash },
          { label: `${engine} (measured)`, data: presets.map((pr) => at(pr)?.measuredMs ?? null), backgroundColor: mea.backgroundColor, borderColor: mea.borderColor, borderWidth: 1 },
        ];
      });
      const config = { type: "bar", data: { labels: presets, datasets }, options: { animation: false, maintainAspectRatio: false, scales: { y: { type: "logarithmic", title: axisTitle(`p99 ${operation} (ms, log scale)`) } }, plugins: { legend: { position: "bottom" } } } };
      ctx.chart({
        id: `study-${seed}-p99-${workload}-${operation}`,
        title: `p99 ${operation} latency, workload ${workload.toUpperCase()}`,
        config: config as unknown as ChartConfiguration,
        csv: () => toCsv(["engine", "preset", "printed", "measured_ms"], of.map((r) => [r.engine, r.preset, r.printed, r.measuredMs])),
        note: 'As the paper printed it per preset ("<1ms" drawn at 1 ms, an upper bound), beside the measured p99 of each preset at its peak.',
      });
    }
  }
  ctx.details.append(
    el("h3", {}, "p99 latency: the paper's tables and the measured runs"),
    el(
      "table",
      { class: "p99" },
      el("thead", {}, el("tr", {}, ...["workload", "preset", "engine", "operation", "published", "measured (ms)", "measured peak threads"].map((h) => el("th", {}, h)))),
      el("tbody", {}, ...rows.map((r) => el("tr", { "data-p99": `${r.workload}|${r.preset}|${r.engine}|${r.operation}` }, el("td", {}, r.workload), el("td", {}, r.preset), el("td", {}, r.engine), el("td", {}, r.operation), el("td", { class: "num" }, r.printed), el("td", { class: "num" }, formatNumber(r.measuredMs, 2)), el("td", { class: "num" }, r.threads)))),
    ),
  );
}

/** Seed 002's own analysis: the scalability score it printed, recomputed from its table, and the measured one where 4/6/8 nodes exist. */
function scoreTable(series: readonly ScalingSeries[], tables: readonly ReferenceTable[]): HTMLElement {
  const printed = tables.filter((t) => t.id.startsWith("002-scalability"));
  const rows = series.filter((s) => s.scalabilityScore !== null || s.source.kind === "measured").map((s) =>
    el(
      "tr",
      { "data-score-series": `${s.engine}|${s.workload}|${s.source.kind}` },
      el("td", {}, seriesLabel(s.engine, s.source)),
      el("td", {}, s.workload),
      el("td", {}, s.points.map((q) => q.nodes).join(", ")),
      el("td", { class: "num", "data-score": String(s.scalabilityScore ?? "") }, s.scalabilityScore === null ? "– (needs 4, 6 and 8 nodes)" : `${formatNumber(s.scalabilityScore, 2)} %`),
    ),
  );
  return el(
    "div",
    {},
    el("h3", {}, "Scalability score (seed 002)"),
    el("table", { class: "scores" }, el("thead", {}, el("tr", {}, ...["series", "workload", "node counts", "score (mean of 4→6, 4→8 efficiency)"].map((h) => el("th", {}, h)))), el("tbody", {}, ...rows)),
    el("p", { class: "note" }, `Printed by the paper: ${printed.map((t) => `${t.title}: ${t.rows.map((r) => r.join(" ")).join("; ")}`).join(" | ")}`),
  );
}

/** Seed 003's Table 9 recomputed (model/anova.ts) beside the printed row, and the same analysis of measured sweeps. */
function anovaTables(anova: Anova): HTMLElement {
  const out = el("div", { class: "anova" }, el("h3", {}, "Two-way ANOVA of runtime (seed 003, Table 9)"));
  for (const a of anova.analyses) {
    const printed = a.published;
    const head = ["term", "df", "F", "p", "signif."].concat(printed ? ["printed F", "printed p", "printed signif."] : []);
    const rows = a.threadsNumeric.rows.map((r, i) =>
      el(
        "tr",
        { "data-term": r.term },
        el("td", {}, r.term),
        el("td", { class: "num" }, String(r.df)),
        el("td", { class: "num" }, formatNumber(r.F, 3)),
        el("td", { class: "num" }, r.p === null ? "–" : r.p.toExponential(2)),
        el("td", {}, r.significance),
        ...(printed && i < 3 ? [el("td", { class: "num" }, formatNumber(printed.F[i], 3)), el("td", { class: "num" }, printed.p[i] ?? "–"), el("td", {}, printed.significance[i] ?? "")] : printed ? [el("td", {}), el("td", {}), el("td", {})] : []),
      ),
    );
    out.append(
      el("p", { class: "note" }, `${a.sourceKind === "published" ? "Published" : "Measured"}: workload ${a.workload ?? "–"}, ${a.operationCount?.toLocaleString("en-US") ?? "?"} operations, ${a.cells.length} cells${a.threadsNumeric.withinKnown ? "" : " (cell means only: each F an upper bound)"}.`),
      el("table", { class: "anova", "data-anova": `${a.sourceKind}|${a.workload}|${a.operationCount}` }, el("thead", {}, el("tr", {}, ...head.map((h) => el("th", {}, h)))), el("tbody", {}, ...rows)),
    );
  }
  if (anova.analyses.length === 0) out.append(message("No sweep with two databases and several thread counts for this scenario yet."));
  return out;
}
