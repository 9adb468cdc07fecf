/**
 * Study pages: one per seed. The paper's figures redrawn from its published tables beside the measured runs of its
 * scenario, and the paper's own analysis: seed 002's scalability score, seed 003's two-way ANOVA (Table 9), seed
 * 004's p99 tables, the mean-latency tables; every table verbatim, and where the scenario departs from the paper.
 */
import type { ChartConfiguration } from "chart.js";
import type { ScenarioSpec } from "../../../model/scenario.js";
import { SCENARIOS } from "../../../model/scenarios.js";
import { publishedMs } from "../analysis.js";
import {
  type Anova,
  allInOrder,
  type DurabilityCell,
  fetchAnova,
  fetchDurability,
  fetchReference,
  fetchRunPage,
  fetchScaling,
  fetchSweeps,
  type ReferenceTable,
  type RunRow,
  type ScalingSeries,
  type SweepSeries,
} from "../api.js";
import { seriesToCsv, toCsv } from "../csv.js";
import { axisType, scaleChoice, scaleControl } from "../scales.js";
import { el, filterSelect, formatNumber, message } from "../ui.js";
import { hatchedBars, hollowPoints, type PointVerdict, verdictNote } from "../verdicts.js";
import type { View, ViewContext } from "../view.js";
import { axisTitle, fittedLegend, looksFor, plural, seriesLabel, threadAxis } from "./common.js";
import { measuredCaption, measuredRunsTable } from "./study-measured.js";

export const SEEDS = ["000", "001", "002", "003", "004"] as const;

/** The scenario that reproduces a seed (model/scenarios.ts sources). */
export function scenarioOfSeed(seed: string): ScenarioSpec | undefined {
  return (Object.values(SCENARIOS) as ScenarioSpec[]).find((s) =>
    s.sources.some((src) => "seed" in src && src.seed === seed),
  );
}

type Scale = "auto" | "log" | "linear";

interface XAxis {
  /** Cluster sizes as the papers draw them: evenly spaced categories (1-8 nodes were squeezed into a fifth of 0-35). */
  categories?: string[];
  /** Thread counts: a log 2 axis ticked at each count run. */
  threads?: number[];
}

function lineChart(
  ctx: ViewContext,
  id: string,
  title: string,
  xTitle: string,
  yTitle: string,
  datasets: Record<string, unknown>[],
  yType: "linear" | "logarithmic",
  note: string,
  x: XAxis,
): void {
  const xScale = x.threads
    ? threadAxis(xTitle, x.threads)
    : { type: "category" as const, labels: x.categories ?? [], title: axisTitle(xTitle), offset: true };
  const config = {
    type: "line",
    data: { datasets },
    options: {
      animation: false,
      maintainAspectRatio: false,
      scales: {
        x: xScale,
        y: { type: yType, title: axisTitle(`${yTitle}${yType === "logarithmic" ? ", log scale" : ""}`) },
      },
      plugins: { legend: fittedLegend() },
    },
  };
  ctx.chart({
    id,
    title,
    config: config as unknown as ChartConfiguration,
    csv: () =>
      seriesToCsv(
        xTitle,
        yTitle,
        datasets.map((d) => ({ label: String(d.label), points: d.data as { x: number | string; y: number | null }[] })),
      ),
    note: note + verdictNote(datasets.flatMap((d) => (d.verdicts as PointVerdict[] | undefined) ?? [])),
  });
}

/** A table as printed in the paper, with its reference. */
function verbatim(t: ReferenceTable): HTMLElement {
  return el(
    "details",
    { class: "reference-table", "data-table": t.id },
    el("summary", {}, `${t.tableRef}: ${t.title}${t.unit ? ` (${t.unit})` : ""}`),
    el(
      "table",
      {},
      el("thead", {}, el("tr", {}, ...t.columns.map((c) => el("th", {}, c)))),
      el(
        "tbody",
        {},
        ...t.rows.map((r) =>
          el(
            "tr",
            {},
            ...r.map((c) => el("td", { class: typeof c === "number" ? "num" : "" }, c === null ? "–" : String(c))),
          ),
        ),
      ),
    ),
    t.notes ? el("p", { class: "note" }, t.notes) : null,
  );
}

/** Everything a study page draws, fetched together. */
interface StudyData {
  tables: ReferenceTable[];
  scaling: Awaited<ReturnType<typeof fetchScaling>>;
  sweeps: SweepSeries[];
  cells: DurabilityCell[];
  anova: Anova | null;
  measured: { total: number; runs: RunRow[] };
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
        filterSelect(
          "seed",
          "study",
          SEEDS.map((s) => ({ value: s, label: `seed ${s}: ${scenarioOfSeed(s)?.title ?? s}` })),
          seed,
          (v) => ctx.setParams({ seed: v }),
          null,
        ),
        scaleControl(p.scale, (v) => ctx.setParams({ scale: v })),
      ),
    );
    const [tables, scaling, sweeps, durability, anova, measured] = await allInOrder([
      fetchReference(seed),
      fetchScaling({ scenario }),
      fetchSweeps({ scenario }),
      fetchDurability({ scenario }),
      seed === "003" ? fetchAnova({ scenario }) : Promise.resolve(null),
      scenario
        ? fetchRunPage({ scenario, source: "measured" }, 0, 100)
        : Promise.resolve({ total: 0, runs: [] as RunRow[] }),
    ]);
    const data: StudyData = { tables, scaling, sweeps: sweeps.series, cells: durability.cells, anova, measured };
    header(ctx, seed, spec, data);
    const caption = measuredCaption(spec, measured.runs);
    const scale = scaleChoice(p.scale);
    throughputFigures(ctx, seed, data, caption, scale);
    latencyFigures(ctx, seed, data, caption, scale);
    runtimeFigures(ctx, seed, data, caption, scale);
    p99Figures(ctx, seed, data, caption, scale);
    if (measured.total > 0) ctx.details.append(measuredRunsTable(spec, measured.runs, measured.total));
    if (seed === "002") ctx.details.append(scoreTable(scaling.series, tables));
    if (anova) ctx.details.append(anovaTables(anova));
    ctx.details.append(el("h3", {}, "The paper's tables"), ...tables.map(verbatim));
  },
};

function header(ctx: ViewContext, seed: string, spec: ScenarioSpec | undefined, data: StudyData): void {
  const citation = data.tables[0]?.citation ?? "";
  const n = data.measured.total;
  ctx.controls.append(
    el("p", { class: "study-citation", "data-seed": seed }, citation),
    el(
      "p",
      { class: "note" },
      `Reproduced by the scenario ${spec?.name ?? "–"}: ${spec?.title ?? ""}. The paper's figures are labelled ` +
        `"the paper" (dashed where they are lines); ` +
        (n
          ? `${plural(n, "measured run")} of the scenario are drawn beside them (solid lines, bars or points; hatched or hollow where the runner did not judge the phase valid), each at its scale and on its machine (the table below says which).`
          : "no measured run of this scenario yet (npm start runs a cell of seed 004's)."),
    ),
  );
  if (spec?.departures?.length)
    ctx.controls.append(
      el(
        "details",
        { class: "departures" },
        el("summary", {}, `Where the scenario departs from the paper (${spec.departures.length})`),
        el("ul", {}, ...spec.departures.map((d) => el("li", {}, `${d.what}: ${d.why}`))),
      ),
    );
}

/** The paper's own name of a workload, from its table ("Read-mostly Workload"), else YCSB's letter. */
export function paperWorkloadName(tables: readonly ReferenceTable[], workload: string): string {
  const t = tables.find(
    (x) => (x.derive as { workload?: string | null } | null)?.workload === workload && /^Throughput, /.test(x.title),
  );
  const name = t?.title.replace(/^Throughput(?: by cluster size)?, /, "").replace(/ \(.*\)$/, "");
  return name ? `${name} (YCSB workload ${workload.toUpperCase()})` : `YCSB workload ${workload.toUpperCase()}`;
}

/** Legend names on a study page: the paper's series by engine, the measured ones with how they were measured. */
const paperLabel = (engine: string) => `${engine}, the paper`;
const measuredLabel = (engine: string, preset: string, caption: string) =>
  `${engine} ${preset}, ${caption || "measured"}`;

/** Throughput against cluster size per workload (seeds 000, 001, 002): the paper's series and the measured ones. */
function throughputFigures(ctx: ViewContext, seed: string, d: StudyData, caption: string, scale: Scale): void {
  const all = [...d.scaling.series, ...d.scaling.single];
  const workloads = [...new Set(all.filter((s) => s.source.seed === seed).map((s) => s.workload))].sort();
  for (const workload of workloads) {
    const of = all.filter((s) => s.workload === workload && (s.source.seed === seed || s.source.kind === "measured"));
    const looks = looksFor(of);
    const categories = [...new Set(of.flatMap((s) => s.points.map((q) => q.nodes)))].sort((a, b) => a - b).map(String);
    const datasets = of.map((s, i) => ({
      label: s.source.kind === "published" ? paperLabel(s.engine) : measuredLabel(s.engine, s.preset, caption),
      data: s.points.map((q) => ({ x: String(q.nodes), y: q.throughputOpsSec })),
      ...looks[i]!,
      ...hollowPoints(
        looks[i]!.backgroundColor,
        s.points.map((q) => q.verdict),
      ),
      borderWidth: 2,
      errorBars: s.points.map((q) => q.ci),
    }));
    const title = `Throughput, ${paperWorkloadName(d.tables, workload)}`;
    lineChart(
      ctx,
      `study-${seed}-throughput-${workload}`,
      title,
      "data nodes",
      "throughput (ops/s)",
      datasets,
      axisType(
        scale,
        of.flatMap((s) => s.points.map((q) => q.throughputOpsSec)),
      ),
      "The paper's figure (dashed) from its table, measured runs of the scenario (solid) with 95% CIs.",
      { categories },
    );
  }
}

/** The measured mean latency of each engine at each cluster size: count-weighted over the operations the table covers. */
function measuredLatency(
  cells: readonly DurabilityCell[],
  derive: { workload?: string | null; operation?: string | null } | null,
) {
  const measured = cells.filter(
    (c) => c.source.kind === "measured" && (!derive?.workload || c.workload === derive.workload),
  );
  return [...new Set(measured.map((c) => c.engine))].map((engine) => {
    const byNodes = new Map<number, { sum: number; count: number }>();
    for (const c of measured.filter((x) => x.engine === engine)) {
      for (const [op, o] of Object.entries(c.latency)) {
        if (
          op === "CLEANUP" ||
          op.endsWith("-FAILED") ||
          (derive?.operation && op !== derive.operation) ||
          o.avgUs === null
        )
          continue;
        const acc = byNodes.get(c.nodes) ?? { sum: 0, count: 0 };
        acc.sum += o.avgUs * o.count;
        acc.count += o.count;
        byNodes.set(c.nodes, acc);
      }
    }
    return {
      engine,
      points: [...byNodes]
        .filter(([, a]) => a.count > 0)
        .map(([nodes, a]) => ({ nodes, ms: a.sum / a.count / 1000 }))
        .sort((a, b) => a.nodes - b.nodes),
    };
  });
}

/** Mean latency against cluster size from the paper's latency tables, beside the measured mean of the same workload or operation. */
function latencyFigures(ctx: ViewContext, seed: string, d: StudyData, caption: string, scale: Scale): void {
  for (const t of d.tables.filter((x) => x.series.length > 0)) {
    const derive = t.derive as { workload?: string | null; operation?: string | null } | null;
    // Only engines with data: a legend never names a measured series it does not draw.
    const measured = measuredLatency(d.cells, derive).filter((m) => m.points.length > 0);
    const kinds = [
      ...t.series.map((s) => ({ engine: s.engine, source: { kind: "published" } })),
      ...measured.map((m) => ({ engine: m.engine, source: { kind: "measured" } })),
    ];
    const looks = looksFor(kinds);
    const datasets = [
      ...t.series.map((s, i) => ({
        label: paperLabel(s.engine),
        data: s.points.map((q) => ({ x: String(q.nodes), y: q.valueUs / 1000 })),
        ...looks[i]!,
        borderWidth: 2,
      })),
      ...measured.map((m, i) => ({
        label: `${m.engine}, ${caption || "measured"}`,
        data: m.points.map((q) => ({ x: String(q.nodes), y: q.ms })),
        ...looks[t.series.length + i]!,
        borderWidth: 2,
      })),
    ];
    const categories = [
      ...new Set([
        ...t.series.flatMap((s) => s.points.map((q) => q.nodes)),
        ...measured.flatMap((m) => m.points.map((q) => q.nodes)),
      ]),
    ]
      .sort((a, b) => a - b)
      .map(String);
    lineChart(
      ctx,
      `study-${seed}-latency-${t.id}`,
      `${t.title}`,
      "data nodes",
      "mean latency (ms)",
      datasets,
      axisType(
        scale,
        datasets.flatMap((x) => x.data.map((q) => q.y)),
      ),
      `${t.tableRef}, as printed; measured: the count-weighted mean latency of ${derive?.operation ?? "every operation"} at each run's peak.`,
      { categories },
    );
  }
}

/** Seed 003: runtime against client threads per workload and operation count, the paper's tables beside measured sweeps. */
function runtimeFigures(ctx: ViewContext, seed: string, d: StudyData, caption: string, scale: Scale): void {
  const mine = d.sweeps.filter((s) => s.source.seed === seed || s.source.kind === "measured");
  const keys = [
    ...new Set(mine.filter((s) => s.source.seed === seed).map((s) => `${s.workload}|${s.operationCount ?? ""}`)),
  ].sort();
  for (const key of keys) {
    const [workload, ops] = key.split("|");
    const of = mine.filter((s) => s.workload === workload && String(s.operationCount ?? "") === ops);
    const looks = looksFor(of);
    const datasets = of.map((s, i) => {
      const pts = s.points.filter((q) => q.runtimeMs !== null);
      return {
        label: s.source.kind === "published" ? paperLabel(s.engine) : measuredLabel(s.engine, s.preset, caption),
        data: pts.map((q) => ({ x: q.threads, y: q.runtimeMs! / 1000 })),
        errorBars: pts.map((q) =>
          q.runtimeCi ? { low: q.runtimeCi.low / 1000, high: q.runtimeCi.high / 1000 } : null,
        ),
        ...looks[i]!,
        ...hollowPoints(
          looks[i]!.backgroundColor,
          pts.map((q) => q.verdict),
        ),
        borderWidth: 2,
      };
    });
    const opsLabel = ops ? `${Number(ops).toLocaleString("en-US")} operations` : "";
    const threads = of.flatMap((s) => s.points.map((q) => q.threads));
    lineChart(
      ctx,
      `study-${seed}-runtime-${workload}-${ops}`,
      `Runtime, workload ${workload!.toUpperCase()}, ${opsLabel}`,
      "client threads (log 2)",
      "runtime (s)",
      datasets,
      scale === "linear" ? "linear" : "logarithmic",
      "Lower is better. The paper's means of 3 repeats (dashed) beside measured sweeps (solid, 95% CI over repeats).",
      { threads },
    );
  }
}

type P99Row = {
  workload: string;
  preset: string;
  engine: string;
  operation: string;
  printed: string;
  ms: number | null;
  below: boolean;
  measuredMs: number | null;
  verdict: PointVerdict | null;
  threads: string;
};

/** Seed 004's p99 tables as rows, each with the measured p99 of the same engine, preset and workload (at its peak). */
function p99Rows(tables: readonly ReferenceTable[], cells: readonly DurabilityCell[]): P99Row[] {
  const rows: P99Row[] = [];
  for (const t of tables.filter((x) => (x.derive as { metric?: string } | null)?.metric === "p99")) {
    const d = t.derive as {
      workload: string;
      preset: string;
      engines: Record<string, string>;
      operations: Record<string, string>;
    };
    for (const r of t.rows) {
      const engine = d.engines[String(r[0])];
      if (!engine) continue;
      for (const [column, operation] of Object.entries(d.operations)) {
        const printed = r[t.columns.indexOf(column)];
        const cell = cells.find(
          (c) =>
            c.source.kind === "measured" && c.engine === engine && c.preset === d.preset && c.workload === d.workload,
        );
        const us = cell?.p99Us[operation];
        const value = publishedMs(printed);
        rows.push({
          workload: d.workload,
          preset: d.preset,
          engine,
          operation,
          printed: printed === null || printed === undefined ? "–" : String(printed),
          ms: value?.ms ?? null,
          below: value?.below ?? false,
          measuredMs: us === undefined ? null : us / 1000,
          verdict: cell?.verdict ?? null,
          threads: cell?.peakThreads.join(", ") ?? "",
        });
      }
    }
  }
  return rows;
}

/**
 * Seed 004: p99 per preset as the paper printed it, beside the measured p99 of the same cell (each preset at its
 * peak). Bars on a linear axis from zero ("<1ms" an empty bar at 1 ms: a bound, not a value); where the values span
 * more than a decade, points on a log axis instead (a bar's length on a log axis means nothing).
 */
function p99Figures(ctx: ViewContext, seed: string, d: StudyData, caption: string, scale: Scale): void {
  const rows = p99Rows(d.tables, d.cells);
  if (rows.length === 0) return;
  const presets = ["throughput", "balanced", "durable"];
  for (const workload of [...new Set(rows.map((r) => r.workload))].sort()) {
    for (const operation of [...new Set(rows.filter((r) => r.workload === workload).map((r) => r.operation))]) {
      const of = rows.filter((r) => r.workload === workload && r.operation === operation);
      const engines = [...new Set(of.map((r) => r.engine))].sort();
      const measuredEngines = engines.filter((e) => of.some((r) => r.engine === e && r.measuredMs !== null));
      const looks = looksFor([
        ...engines.map((engine) => ({ engine, source: { kind: "published" } })),
        ...measuredEngines.map((engine) => ({ engine, source: { kind: "measured" } })),
      ]);
      const values = of.flatMap((r) => [r.ms, r.measuredMs]);
      const yType = axisType(scale, values);
      const asPoints = yType === "logarithmic";
      const at = (engine: string, preset: string) => of.find((r) => r.engine === engine && r.preset === preset);
      const datasets = [
        ...engines.map((engine, i) => ({
          label: paperLabel(engine),
          data: presets.map((pr) => at(engine, pr)?.ms ?? null),
          // "<1ms": an empty bar (a bound); a printed value filled.
          backgroundColor: presets.map((pr) => (at(engine, pr)?.below ? "#ffffff" : looks[i]!.backgroundColor)),
          borderColor: looks[i]!.borderColor,
          borderWidth: 2,
        })),
        ...measuredEngines.map((engine, i) => {
          const look = looks[engines.length + i]!;
          return {
            label: `${engine}, ${caption || "measured"}`,
            data: presets.map((pr) => at(engine, pr)?.measuredMs ?? null),
            borderColor: look.borderColor,
            borderWidth: 1,
            ...hatchedBars(
              look.backgroundColor,
              look.borderColor,
              presets.map((pr) => at(engine, pr)?.verdict ?? null),
            ),
          };
        }),
      ].map((x) =>
        asPoints ? { ...x, type: "line", showLine: false, pointRadius: 6, pointBackgroundColor: x.backgroundColor } : x,
      );
      const config = {
        type: "bar",
        data: { labels: presets, datasets },
        options: {
          animation: false,
          maintainAspectRatio: false,
          scales: {
            y: {
              type: yType,
              beginAtZero: !asPoints,
              title: axisTitle(`p99 ${operation} (ms${asPoints ? ", log scale: points" : ""})`),
            },
          },
          plugins: { legend: fittedLegend() },
        },
      };
      ctx.chart({
        id: `study-${seed}-p99-${workload}-${operation}`,
        title: `p99 ${operation} latency, ${paperWorkloadName(d.tables, workload)}`,
        config: config as unknown as ChartConfiguration,
        csv: () =>
          toCsv(
            ["engine", "preset", "printed", "measured_ms", "verdict"],
            of.map((r) => [r.engine, r.preset, r.printed, r.measuredMs, r.verdict?.verdict ?? ""]),
          ),
        note:
          'As the paper printed it per preset ("<1ms": an empty bar at 1 ms, an upper bound), beside the measured p99 of each preset at its peak.' +
          verdictNote(of.map((r) => r.verdict)),
      });
    }
  }
  ctx.details.append(
    el("h3", {}, "p99 latency: the paper's tables and the measured runs"),
    el(
      "table",
      { class: "p99" },
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          ...[
            "workload",
            "preset",
            "engine",
            "operation",
            "published",
            "measured (ms)",
            "measured peak threads",
            "measured verdict",
          ].map((h) => el("th", {}, h)),
        ),
      ),
      el(
        "tbody",
        {},
        ...rows.map((r) =>
          el(
            "tr",
            { "data-p99": `${r.workload}|${r.preset}|${r.engine}|${r.operation}` },
            el("td", {}, r.workload),
            el("td", {}, r.preset),
            el("td", {}, r.engine),
            el("td", {}, r.operation),
            el("td", { class: "num" }, r.printed),
            el("td", { class: "num" }, formatNumber(r.measuredMs, 2)),
            el("td", { class: "num" }, r.threads),
            el(
              "td",
              { class: `verdict ${r.verdict?.verdict ?? ""}`, title: r.verdict?.reasons.join("\n") ?? "" },
              r.verdict ? r.verdict.verdict : "–",
            ),
          ),
        ),
      ),
    ),
  );
}

/** Seed 002's own analysis: the scalability score it printed, recomputed from its table, and the measured one where 4/6/8 nodes exist. */
function scoreTable(series: readonly ScalingSeries[], tables: readonly ReferenceTable[]): HTMLElement {
  const printed = tables.filter((t) => t.id.startsWith("002-scalability"));
  const rows = series
    .filter((s) => s.scalabilityScore !== null || s.source.kind === "measured")
    .map((s) =>
      el(
        "tr",
        { "data-score-series": `${s.engine}|${s.workload}|${s.source.kind}` },
        el("td", {}, seriesLabel(s.engine, s.source)),
        el("td", {}, s.workload),
        el("td", {}, s.points.map((q) => q.nodes).join(", ")),
        el(
          "td",
          { class: "num", "data-score": String(s.scalabilityScore ?? "") },
          s.scalabilityScore === null ? "– (needs 4, 6 and 8 nodes)" : `${formatNumber(s.scalabilityScore, 2)} %`,
        ),
      ),
    );
  return el(
    "div",
    {},
    el("h3", {}, "Scalability score (seed 002)"),
    el(
      "table",
      { class: "scores" },
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          ...["series", "workload", "node counts", "score (mean of 4→6, 4→8 efficiency)"].map((h) => el("th", {}, h)),
        ),
      ),
      el("tbody", {}, ...rows),
    ),
    el(
      "p",
      { class: "note" },
      `Printed by the paper: ${printed.map((t) => `${t.title}: ${t.rows.map((r) => r.join(" ")).join("; ")}`).join(" | ")}`,
    ),
  );
}

/** Seed 003's Table 9 recomputed (model/anova.ts) beside the printed row, and the same analysis of measured sweeps. */
function anovaTables(anova: Anova): HTMLElement {
  const out = el("div", { class: "anova" }, el("h3", {}, "Two-way ANOVA of runtime (seed 003, Table 9)"));
  for (const a of anova.analyses) {
    const printed = a.published;
    const head = ["term", "df", "F", "p", "signif."].concat(
      printed ? ["printed F", "printed p", "printed signif."] : [],
    );
    const rows = a.threadsNumeric.rows.map((r, i) =>
      el(
        "tr",
        { "data-term": r.term },
        el("td", {}, r.term),
        el("td", { class: "num" }, String(r.df)),
        el("td", { class: "num" }, formatNumber(r.F, 3)),
        el("td", { class: "num" }, r.p === null ? "–" : r.p.toExponential(2)),
        el("td", {}, r.significance),
        ...(printed && i < 3
          ? [
              el("td", { class: "num" }, formatNumber(printed.F[i], 3)),
              el("td", { class: "num" }, printed.p[i] ?? "–"),
              el("td", {}, printed.significance[i] ?? ""),
            ]
          : printed
            ? [el("td", {}), el("td", {}), el("td", {})]
            : []),
      ),
    );
    out.append(
      el(
        "p",
        { class: "note" },
        `${a.sourceKind === "published" ? "Published" : "Measured"}: workload ${a.workload ?? "–"}, ${a.operationCount?.toLocaleString("en-US") ?? "?"} operations, ${a.cells.length} cells${a.threadsNumeric.withinKnown ? "" : " (cell means only: each F an upper bound)"}.`,
      ),
      el(
        "table",
        { class: "anova", "data-anova": `${a.sourceKind}|${a.workload}|${a.operationCount}` },
        el("thead", {}, el("tr", {}, ...head.map((h) => el("th", {}, h)))),
        el("tbody", {}, ...rows),
      ),
    );
  }
  if (anova.analyses.length === 0)
    out.append(message("No sweep with two databases and several thread counts for this scenario yet."));
  return out;
}
