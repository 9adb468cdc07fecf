/**
 * Runs explorer: the API's filters (options from GET /facets), one page of runs at a time (GET /runs), validity
 * verdicts visible and filterable, and the landing chart: the latest measured runs over their own time span.
 */
import type { ChartConfiguration } from "chart.js";
import { baselineFor, configurationId } from "../../../model/history.js";
import { allInOrder, fetchBaselines, fetchFacets, fetchRunPage, fetchTimeline, RUN_FILTERS, type Baselines, type Facets, type RunRow, type Timeline } from "../api.js";
import { toCsv } from "../csv.js";
import { engineColour, seriesLook } from "../palette.js";
import { axisType, scaleChoice, scaleControl } from "../scales.js";
import { el, filterInput, filterSelect, formatNumber, message } from "../ui.js";
import { listParam } from "../url-state.js";
import type { View, ViewContext } from "../view.js";
import { axisTitle, baselineCell, DENSE } from "./common.js";

const PAGE_SIZE = 100;
const VERDICT_OPTIONS = ["valid", "warning", "invalid"];

function dateLabel(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
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
function timelineChart(t: Timeline, scale: string | undefined) {
  const byEngine = new Map<string, { x: number; y: number; id: string }[]>();
  for (const r of t.runs) {
    if (r.peak?.throughput.mean === null || r.peak === null) continue;
    const list = byEngine.get(r.engine) ?? [];
    list.push({ x: Date.parse(r.startedAt), y: r.peak.throughput.mean, id: r.id });
    byEngine.set(r.engine, list);
  }
  const series = [...byEngine].sort(([a], [b]) => a.localeCompare(b)).map(([engine, points], i) => ({ engine, points: points.sort((a, b) => a.x - b.x), i }));
  const ys = series.flatMap((s) => s.points.map((p) => p.y));
  const config: ChartConfiguration<"scatter"> = {
    type: "scatter",
    data: {
      datasets: series.map((s) => ({ label: `${s.engine} (measured)`, data: s.points, ...seriesLook(engineColour(s.engine, s.i), false), pointRadius: s.points.length > 2000 ? 1.5 : 3 })),
    },
    options: {
      ...DENSE,
      maintainAspectRatio: false,
      scales: {
        x: { type: "linear", title: axisTitle("run started (UTC)"), ticks: { callback: (v) => dateLabel(Number(v)), maxTicksLimit: 6 } },
        y: { type: axisType(scaleChoice(scale), ys), title: axisTitle("peak throughput (ops/s, all clients)") },
      },
      plugins: {
        legend: { position: "bottom" },
        tooltip: { callbacks: { label: (item) => `${(item.raw as { id: string }).id}: ${formatNumber((item.raw as { y: number }).y)} ops/s` } },
      },
    },
  };
  const shown = t.more ? `the latest ${t.runs.length.toLocaleString("en-US")}` : t.runs.length.toLocaleString("en-US");
  return {
    id: "runs-throughput",
    title: `Throughput of ${shown} measured runs`,
    config: config as ChartConfiguration,
    csv: () => toCsv(["run", "engine", "started", "throughput_ops_sec"], series.flatMap((s) => s.points.map((p) => [p.id, s.engine, new Date(p.x).toISOString(), p.y]))),
    note: "Each run's first workload at its peak load level, mean over its repeats. The studies' published figures are on their study pages.",
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
  if (p) td.title = `workload ${p.workload}, peak phase ${p.phase} (${p.threads} threads${p.target === null ? "" : `, target ${p.target}`}), n = ${p.throughput.n}`;
  return td;
}

/** The run against its configuration's pinned baseline (same workload at its peak): the change in percent. */
function runBaselineCell(r: RunRow, baselines: Baselines["baselines"]): HTMLTableCellElement {
  const c = { scenario: r.scenario, engine: r.engine, preset: r.preset, nodes: r.nodes, instanceType: r.dataInstanceType };
  const base = baselineFor(baselines, c, r.peak?.workload);
  const pinned = baselines.find((x) => x.configurationId === configurationId(c));
  if (pinned?.runId === r.id) return el("td", { class: "num baseline", "data-baseline": "self" }, "baseline");
  if (pinned && !base) return el("td", { class: "num", "data-baseline": "", title: `against ${pinned.runId}: no peak of workload ${r.peak?.workload ?? "–"} there` }, "–");
  return baselineCell(base, r.throughputOpsSec);
}

function runTable(ctx: ViewContext, rows: readonly RunRow[], total: number, page: number, baselines: Baselines["baselines"]): HTMLElement {
  const selected = new Set(listParam(ctx.state.params.selected));
  const head = el(
    "tr",
    {},
    ...["", "run", "engine", "version", "preset", "nodes", "instance", "scenario", "workloads", "peak throughput (ops/s)", "vs baseline", "started", "source", "verdict", ""].map((h) =>
      el("th", {}, h),
    ),
  );
  const body = el("tbody");
  for (const r of rows) {
    const box = el("input", { type: "checkbox", "data-run": r.id });
    box.checked = selected.has(r.id);
    box.addEventListener("change", () => {
      if (box.checked) selected.add(r.id);
      else selected.delete(r.id);
      ctx.setParams({ selected: [...selected].join(",") });
    });
    const links = el(
      "td",
      { class: "links" },
      el("a", { href: `?view=latency&run=${encodeURIComponent(r.id)}`, "data-open": "latency" }, "latency"),
      " ",
      el("a", { href: `?view=timeseries&run=${encodeURIComponent(r.id)}`, "data-open": "timeseries" }, "time series"),
    );
    for (const a of Array.from(links.querySelectorAll("a"))) {
      a.addEventListener("click", (e) => {
        e.preventDefault();
        ctx.open(a.dataset.open === "latency" ? "latency" : "timeseries", { run: r.id });
      });
    }
    body.append(
      el(
        "tr",
        { "data-run-id": r.id, class: r.source.kind },
        el("td", {}, box),
        el("td", { class: "mono" }, r.id),
        el("td", {}, r.engine, r.standIn ? el("span", { class: "stand-in", title: `stand-in: ${r.standIn}` }, " *") : null),
        el("td", {}, r.engineVersion),
        el("td", {}, r.preset),
        el("td", { class: "num" }, String(r.nodes)),
        el("td", {}, r.dataInstanceType),
        el("td", {}, r.scenario),
        el("td", {}, r.workloads.join(" ")),
        throughputCell(r),
        runBaselineCell(r, baselines),
        el("td", {}, r.startedAt.slice(0, 16).replace("T", " ")),
        el("td", { title: r.source.citation ?? "" }, r.source.kind === "published" ? `published (seed ${r.source.seed ?? "?"})` : "measured"),
        verdictCell(r),
        links,
      ),
    );
  }
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const pager = el("div", { class: "pager" });
  const prev = el("button", { type: "button", "data-page": "prev" }, "‹ previous");
  const next = el("button", { type: "button", "data-page": "next" }, "next ›");
  prev.disabled = page <= 0;
  next.disabled = page >= pages - 1;
  prev.addEventListener("click", () => ctx.setParams({ page: page - 1 > 0 ? String(page - 1) : undefined }));
  next.addEventListener("click", () => ctx.setParams({ page: String(page + 1) }));
  pager.append(prev, ` page ${page + 1} of ${pages} (${total.toLocaleString("en-US")} runs) `, next);
  const compare = el("button", { type: "button", "data-action": "compare" }, `Compare selected (${selected.size})`);
  compare.disabled = selected.size < 1;
  compare.addEventListener("click", () => ctx.open("compare", { runs: [...selected].join(",") }));
  return el("div", {}, el("div", { class: "toolbar" }, compare, pager), el("table", { class: "runs", id: "runs-table" }, el("thead", {}, head), body));
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
    const [facets, { total, runs }, { baselines }] = await allInOrder([fetchFacets(), fetchRunPage(filters, page * PAGE_SIZE, PAGE_SIZE), fetchBaselines()]);
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
        filterSelect("instanceType", "instance type", counted(facets.instanceTypes), p.instanceType, set("instanceType")),
        filterSelect("scenario", "scenario", counted(facets.scenarios), p.scenario, set("scenario")),
        filterSelect("source", "source", ["measured", "published"], p.source, set("source")),
        filterSelect("verdict", "verdict", VERDICT_OPTIONS, p.verdict, set("verdict")),
        filterInput("from", "from", p.from, set("from"), "date"),
        filterInput("to", "to", p.to, set("to"), "date"),
        scaleControl(p.scale, (v) => ctx.setParams({ scale: v })),
      ),
    );
    if (facets.measured === 0) ctx.controls.append(message("No measured run yet: `npm start` runs a local benchmark and ingests it. The studies' published figures are on their study pages."));
    if (total === 0) {
      ctx.controls.append(message("No run matches these filters."));
      return;
    }
    ctx.details.append(runTable(ctx, runs, total, Math.min(page, Math.ceil(total / PAGE_SIZE) - 1), baselines));
  },
};
