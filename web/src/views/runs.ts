/**
 * Runs explorer: the API's filters (options from GET /facets), one page of runs at a time (GET /runs), validity
 * verdicts visible and filterable, and the landing chart: the latest measured runs over their own time span.
 */
import type { ChartConfiguration } from "chart.js";
import { baselineFor, configurationId } from "../../../model/history.js";
import {
  allInOrder,
  type Baselines,
  type Facets,
  fetchBaselines,
  fetchFacets,
  fetchPublishedLatency,
  fetchRunPage,
  fetchTimeline,
  type PublishedLatencyCell,
  RUN_FILTERS,
  type RunRow,
  type Timeline,
} from "../api.js";
import { toCsv } from "../csv.js";
import { engineColour, seriesLook } from "../palette.js";
import { axisType, scaleChoice, scaleControl } from "../scales.js";
import { el, filterInput, filterSelect, formatNumber, message } from "../ui.js";
import { listParam } from "../url-state.js";
import { hollowPoints, verdictNote } from "../verdicts.js";
import type { View, ViewContext } from "../view.js";
import { axisTitle, baselineCell, DENSE, plural } from "./common.js";
import { scenarioOfSeed } from "./study.js";

const PAGE_SIZE = 100;
const VERDICT_OPTIONS = ["valid", "warning", "invalid"];

/** A day, or a day and time when the axis spans less than two days (one run's axis spanned six years). */
function dateLabel(ms: number, span: number): string {
  const iso = new Date(ms).toISOString();
  return span < 2 * DAY_MS ? iso.slice(0, 16).replace("T", " ") : iso.slice(0, 10);
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/**
 * The time axis around the runs: their span and a tenth of it either side, an hour at least. Chart.js pads a single
 * value by 5 % of itself: for one run started in 2026 that was 2.8 years either side.
 */
export function timeAxisRange(times: readonly number[]): { min: number; max: number } {
  const [lo, hi] = [Math.min(...times), Math.max(...times)];
  const pad = Math.max((hi - lo) / 10, HOUR_MS);
  return { min: lo - pad, max: hi + pad };
}

/** "cassandra (1,204)": a facet's value with its number of runs. */
const values = (facet: readonly { value: string }[]) => facet.map((f) => f.value);
const counted = <T extends string | number>(facet: readonly { value: T; runs: number }[]) =>
  facet.map((f) => ({ value: String(f.value), label: `${f.value} (${f.runs.toLocaleString("en-US")})` }));

/**
 * The landing chart: each of the latest measured runs at its start time and headline throughput (its first workload
 * at its peak load level), one series per engine. Published figures are not placed on this time axis (their dates
 * are the studies' years): each study has its own page.
 */
function timelineChart(t: Timeline, scale: string | undefined, reasons: ReadonlyMap<string, string[]> = new Map()) {
  const byEngine = new Map<
    string,
    { x: number; y: number; id: string; verdict: { verdict: string; reasons: string[] } }[]
  >();
  for (const r of t.runs) {
    if (r.peak?.throughput.mean === null || r.peak === null) continue;
    const list = byEngine.get(r.engine) ?? [];
    list.push({
      x: Date.parse(r.startedAt),
      y: r.peak.throughput.mean,
      id: r.id,
      verdict: { verdict: r.verdict, reasons: reasons.get(r.id) ?? [] },
    });
    byEngine.set(r.engine, list);
  }
  const series = [...byEngine]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([engine, points], i) => ({ engine, points: points.sort((a, b) => a.x - b.x), i }));
  const ys = series.flatMap((s) => s.points.map((p) => p.y));
  const range = timeAxisRange(series.flatMap((s) => s.points.map((p) => p.x)));
  const span = range.max - range.min;
  const config: ChartConfiguration<"scatter"> = {
    type: "scatter",
    data: {
      datasets: series.map((s) => {
        const look = seriesLook(engineColour(s.engine, s.i), false);
        // A run whose worst verdict is warning or invalid is hollow: the number is drawn, not stated as a result.
        return {
          label: `${s.engine} (measured)`,
          data: s.points,
          ...look,
          ...hollowPoints(
            look.backgroundColor,
            s.points.map((p) => p.verdict),
          ),
          pointRadius: s.points.length > 2000 ? 1.5 : 4,
        };
      }),
    },
    options: {
      ...DENSE,
      maintainAspectRatio: false,
      scales: {
        x: {
          type: "linear",
          ...range,
          title: axisTitle("run started (UTC)"),
          ticks: { callback: (v) => dateLabel(Number(v), span), maxTicksLimit: 6 },
        },
        y: { type: axisType(scaleChoice(scale), ys), title: axisTitle("peak throughput (ops/s, all clients)") },
      },
      plugins: {
        legend: { position: "bottom" },
        tooltip: {
          callbacks: {
            label: (item) => `${(item.raw as { id: string }).id}: ${formatNumber((item.raw as { y: number }).y)} ops/s`,
          },
        },
      },
    },
  };
  const shown = t.more ? `the latest ${plural(t.runs.length, "measured run")}` : plural(t.runs.length, "measured run");
  return {
    id: "runs-throughput",
    title: `Throughput of ${shown}`,
    config: config as ChartConfiguration,
    csv: () =>
      toCsv(
        ["run", "engine", "started", "throughput_ops_sec"],
        series.flatMap((s) => s.points.map((p) => [p.id, s.engine, new Date(p.x).toISOString(), p.y])),
      ),
    note:
      "Each run's first workload at its peak load level, mean over its repeats. The studies' published figures are on their study pages." +
      verdictNote(series.flatMap((s) => s.points.map((p) => p.verdict))),
  };
}

function versionOptions(facets: Facets) {
  const engines = new Map<string, string[]>();
  for (const v of facets.versions) engines.set(v.value, [...(engines.get(v.value) ?? []), v.engine]);
  return [...engines].map(([value, es]) => ({ value, label: `${value} (${es.join(", ")})` }));
}

function verdictCell(r: RunRow): HTMLTableCellElement {
  const td = el("td", { class: `verdict ${r.verdict}`, "data-verdict": r.verdict }, r.verdict);
  if (r.reasons.length) td.title = r.reasons.join("\n");
  return td;
}

/** The headline number with its 95% CI over repeats, and where it comes from on hover. */
function throughputCell(r: RunRow): HTMLTableCellElement {
  const p = r.peak;
  const ci = p?.throughput.ci95 ? ` ± ${formatNumber(p.throughput.ci95.halfWidth)}` : "";
  const td = el("td", { class: "num" }, `${formatNumber(r.throughputOpsSec)}${ci}`);
  if (p)
    td.title = `workload ${p.workload}, peak phase ${p.phase} (${p.threads} threads${p.target === null ? "" : `, target ${p.target}`}), n = ${p.throughput.n}`;
  return td;
}

/** The run against its configuration's pinned baseline (same workload at its peak): the change in percent. */
function runBaselineCell(r: RunRow, baselines: Baselines["baselines"]): HTMLTableCellElement {
  const c = {
    scenario: r.scenario,
    engine: r.engine,
    preset: r.preset,
    nodes: r.nodes,
    instanceType: r.instanceTypes.data,
  };
  const base = baselineFor(baselines, c, r.peak?.workload);
  const pinned = baselines.find((x) => x.configurationId === configurationId(c));
  if (pinned?.runId === r.id) return el("td", { class: "num baseline", "data-baseline": "self" }, "baseline");
  if (pinned && !base)
    return el(
      "td",
      {
        class: "num",
        "data-baseline": "",
        title: `against ${pinned.runId}: no peak of workload ${r.peak?.workload ?? "–"} there`,
      },
      "–",
    );
  return baselineCell(base, r.throughputOpsSec);
}

/**
 * Links to the data a run has: a measured run's latency distribution and time series; a published run has neither
 * (a table's figure), its link is its study's page.
 */
function runLinks(ctx: ViewContext, r: RunRow): HTMLTableCellElement {
  const go = (a: HTMLAnchorElement, view: "latency" | "timeseries" | "study", params: Record<string, string>) => {
    a.addEventListener("click", (e) => {
      e.preventDefault();
      ctx.open(view, params);
    });
    return a;
  };
  if (r.source.kind === "published") {
    const seed = r.source.seed;
    return el(
      "td",
      { class: "links" },
      seed
        ? go(el("a", { href: `?view=study&seed=${seed}`, "data-open": "study" }, "study page"), "study", { seed })
        : null,
    );
  }
  const id = encodeURIComponent(r.id);
  return el(
    "td",
    { class: "links" },
    go(el("a", { href: `?view=latency&run=${id}`, "data-open": "latency" }, "latency"), "latency", { run: r.id }),
    " ",
    go(el("a", { href: `?view=timeseries&run=${id}`, "data-open": "timeseries" }, "time series"), "timeseries", {
      run: r.id,
    }),
  );
}

/**
 * A study that printed latencies only (seed 004: six p99 tables, no throughput figure) has no published runs: its
 * tables are listed as rows of their own, engine and preset each, with a link to the study page, so the study is in
 * Runs too. Shown on the first page when the filters allow published results.
 */
export function publishedTableRows(
  cells: readonly PublishedLatencyCell[],
  f: Record<string, string | undefined>,
): {
  key: string;
  scenario: string;
  engine: string;
  preset: string;
  nodes: number;
  workloads: string[];
  seed: string;
  citation: string;
  operations: string[];
}[] {
  if (f.source === "measured" || f.verdict || f.version || f.instanceType || f.from || f.to) return [];
  const groups = new Map<string, PublishedLatencyCell[]>();
  for (const c of cells) {
    if (
      (f.scenario && c.scenario !== f.scenario) ||
      (f.engine && c.engine !== f.engine) ||
      (f.preset && c.preset !== f.preset) ||
      (f.nodes && String(c.nodes) !== f.nodes) ||
      (f.workload && c.workload !== f.workload)
    )
      continue;
    const key = `${c.scenario}|${c.engine}|${c.preset}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  return [...groups].map(([key, list]) => ({
    key,
    scenario: list[0]!.scenario,
    engine: list[0]!.engine,
    preset: list[0]!.preset,
    nodes: list[0]!.nodes,
    workloads: [...new Set(list.map((c) => c.workload))].sort(),
    operations: [...new Set(list.map((c) => c.operation))].sort(),
    seed: list[0]!.source.seed ?? "",
    citation: list[0]!.source.citation ?? "",
  }));
}

function publishedTableRow(ctx: ViewContext, t: ReturnType<typeof publishedTableRows>[number]): HTMLTableRowElement {
  const link = el("a", { href: `?view=study&seed=${t.seed}`, "data-open": "study" }, "study page");
  link.addEventListener("click", (e) => {
    e.preventDefault();
    ctx.open("study", { seed: t.seed });
  });
  const spec = scenarioOfSeed(t.seed);
  return el(
    "tr",
    { "data-published-table": t.key, class: "published" },
    el("td", {}),
    el("td", { class: "mono" }, `seed ${t.seed}: p99 tables`),
    el("td", {}, t.engine),
    el("td", {}, "as published"),
    el("td", {}, t.preset),
    el("td", { class: "num" }, String(t.nodes)),
    el("td", {}, spec?.dataNode.original ?? "–"),
    el("td", {}, t.scenario),
    el("td", {}, t.workloads.join(" ")),
    el("td", { class: "num", title: `the study printed p99 latencies of ${t.operations.join(", ")} only` }, "p99 only"),
    el("td", { class: "num" }, "–"),
    el("td", {}, "–"),
    el("td", { title: t.citation }, `published (seed ${t.seed})`),
    el("td", { class: "verdict" }, "–"),
    el("td", { class: "links" }, link),
  );
}

function runTable(
  ctx: ViewContext,
  rows: readonly RunRow[],
  total: number,
  page: number,
  baselines: Baselines["baselines"],
  tables: ReturnType<typeof publishedTableRows> = [],
): HTMLElement {
  const selected = new Set(listParam(ctx.state.params.selected));
  const head = el(
    "tr",
    {},
    ...[
      "",
      "run",
      "engine",
      "version",
      "preset",
      "nodes",
      "instance",
      "scenario",
      "workloads",
      "peak throughput (ops/s)",
      "vs baseline",
      "started",
      "source",
      "verdict",
      "",
    ].map((h) => el("th", {}, h)),
  );
  const body = el("tbody");
  for (const r of rows) {
    const box = el("input", { type: "checkbox", "data-run": r.id, "aria-label": `select run ${r.id} to compare` });
    box.checked = selected.has(r.id);
    box.addEventListener("change", () => {
      if (box.checked) selected.add(r.id);
      else selected.delete(r.id);
      ctx.setParams({ selected: [...selected].join(",") });
    });
    const links = runLinks(ctx, r);
    body.append(
      el(
        "tr",
        { "data-run-id": r.id, class: r.source.kind },
        el("td", {}, box),
        el("td", { class: "mono" }, r.id),
        el(
          "td",
          {},
          r.engine,
          r.standIn ? el("span", { class: "stand-in", title: `stand-in: ${r.standIn}` }, " *") : null,
        ),
        el("td", {}, r.engineVersion),
        el("td", {}, r.preset),
        el("td", { class: "num" }, String(r.nodes)),
        el("td", {}, r.instanceTypes.data),
        el("td", {}, r.scenario),
        el("td", {}, r.workloads.join(" ")),
        throughputCell(r),
        runBaselineCell(r, baselines),
        el("td", {}, r.startedAt.slice(0, 16).replace("T", " ")),
        el(
          "td",
          { title: r.source.citation ?? "" },
          r.source.kind === "published" ? `published (seed ${r.source.seed ?? "?"})` : "measured",
        ),
        verdictCell(r),
        links,
      ),
    );
  }
  if (page === 0) for (const t of tables) body.append(publishedTableRow(ctx, t));
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const pager = el("div", { class: "pager" });
  const prev = el("button", { type: "button", "data-page": "prev" }, "‹ previous");
  const next = el("button", { type: "button", "data-page": "next" }, "next ›");
  prev.disabled = page <= 0;
  next.disabled = page >= pages - 1;
  prev.addEventListener("click", () => ctx.setParams({ page: page - 1 > 0 ? String(page - 1) : undefined }));
  next.addEventListener("click", () => ctx.setParams({ page: String(page + 1) }));
  pager.append(
    prev,
    ` page ${page + 1} of ${pages} (${plural(total, "run")}${tables.length ? ` and ${tables.length} published table row(s)` : ""}) `,
    next,
  );
  const compare = el("button", { type: "button", "data-action": "compare" }, `Compare selected (${selected.size})`);
  compare.disabled = selected.size < 1;
  compare.addEventListener("click", () => ctx.open("compare", { runs: [...selected].join(",") }));
  return el(
    "div",
    {},
    el("div", { class: "toolbar" }, compare, pager),
    el("table", { class: "runs", id: "runs-table" }, el("thead", {}, head), body),
  );
}

export const runsView: View = {
  title: "Runs",
  async render(ctx) {
    const p = ctx.state.params;
    const filters: Record<string, string | undefined> = {};
    for (const f of RUN_FILTERS) filters[f] = p[f];
    // <input type=date> gives a day; the API takes date-times: the whole day, in UTC.
    if (p.from && /^\d{4}-\d{2}-\d{2}$/.test(p.from)) filters.from = `${p.from}T00:00:00Z`;
    if (p.to && /^\d{4}-\d{2}-\d{2}$/.test(p.to)) filters.to = `${p.to}T23:59:59.999Z`;
    const page = Math.max(0, Math.floor(Number(p.page ?? 0)) || 0);
    const { source: _source, ...timelineFilters } = filters;
    // The landing chart first, on its own: a single-connection store (PGlite) answers one query at a time, and the
    // chart needs only the latest runs; the filter options and the page of the table follow.
    const timeline = filters.source === "published" ? null : await fetchTimeline(timelineFilters);
    if (timeline && timeline.runs.length > 0) ctx.chart(timelineChart(timeline, p.scale));
    const [facets, { total, runs }, { baselines }, latencyTables] = await allInOrder([
      fetchFacets(),
      fetchRunPage(filters, page * PAGE_SIZE, PAGE_SIZE),
      fetchBaselines(),
      fetchPublishedLatency(),
    ]);
    const tables = publishedTableRows(latencyTables, filters);
    // The reasons of the runs on this page, on hover of their hollow points too.
    if (timeline && timeline.runs.some((r) => r.verdict !== "valid"))
      ctx.chart(timelineChart(timeline, p.scale, new Map(runs.map((r) => [r.id, r.reasons]))));
    const set = (name: string) => (value: string) => ctx.setParams({ [name]: value, page: undefined });
    ctx.controls.append(
      el(
        "form",
        { class: "filters", id: "run-filters" },
        filterSelect("engine", "engine", counted(facets.engines), p.engine, set("engine")),
        filterSelect("version", "version", versionOptions(facets), p.version, set("version")),
        filterSelect("preset", "preset", counted(facets.presets), p.preset, set("preset")),
        filterSelect("nodes", "nodes", counted(facets.nodes), p.nodes, set("nodes")),
        filterSelect("workload", "workload", values(facets.workloads), p.workload, set("workload")),
        filterSelect(
          "instanceType",
          "instance type",
          counted(facets.instanceTypes),
          p.instanceType,
          set("instanceType"),
        ),
        filterSelect("scenario", "scenario", counted(facets.scenarios), p.scenario, set("scenario")),
        filterSelect("source", "source", ["measured", "published"], p.source, set("source")),
        filterSelect("verdict", "verdict", VERDICT_OPTIONS, p.verdict, set("verdict")),
        filterInput("from", "from", p.from, set("from"), "date"),
        filterInput("to", "to", p.to, set("to"), "date"),
        scaleControl(p.scale, (v) => ctx.setParams({ scale: v })),
      ),
    );
    if (facets.measured === 0)
      ctx.controls.append(
        message(
          "No measured run yet: `npm start` runs a local benchmark and ingests it. The studies' published figures are on their study pages.",
        ),
      );
    if (total === 0 && tables.length === 0) {
      ctx.controls.append(message("No run matches these filters."));
      return;
    }
    ctx.details.append(
      runTable(ctx, runs, total, Math.max(0, Math.min(page, Math.ceil(total / PAGE_SIZE) - 1)), baselines, tables),
    );
  },
};
