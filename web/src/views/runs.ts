/** Runs explorer: the API's filters, validity verdicts visible and filterable, every run a click from its charts. */
import type { ChartConfiguration } from "chart.js";
import { allInOrder, fetchAllRuns, fetchRuns, RUN_FILTERS, type RunRow } from "../api.js";
import { seriesToCsv } from "../csv.js";
import { el, filterInput, filterSelect, formatNumber, message } from "../ui.js";
import { listParam } from "../url-state.js";
import type { View, ViewContext } from "../view.js";
import { axisTitle, DENSE, lookFor, seriesLabel } from "./common.js";

const PAGE_SIZE = 100;
const VERDICT_OPTIONS = ["valid", "warning", "invalid"];

function distinct(runs: readonly RunRow[], pick: (r: RunRow) => string | string[]): string[] {
  const values = new Set<string>();
  for (const r of runs) for (const v of [pick(r)].flat()) if (v !== "") values.add(v);
  return [...values].sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
}

function dateLabel(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Throughput of every filtered run over its start date, one dataset per engine and source. */
function overviewChart(runs: readonly RunRow[]) {
  const groups = new Map<string, { engine: string; run: RunRow; points: { x: number; y: number }[] }>();
  for (const r of runs) {
    if (r.throughputOpsSec === null) continue;
    const key = `${r.engine}|${r.source.kind}|${r.source.citation ?? ""}`;
    const g = groups.get(key) ?? { engine: r.engine, run: r, points: [] };
    g.points.push({ x: Date.parse(r.startedAt), y: r.throughputOpsSec });
    groups.set(key, g);
  }
  const series = [...groups.values()].map((g) => ({ label: seriesLabel(g.engine, g.run.source), points: g.points.sort((a, b) => a.x - b.x), g }));
  const config: ChartConfiguration<"scatter"> = {
    type: "scatter",
    data: {
      datasets: series.map((s, i) => ({ label: s.label, data: s.points, ...lookFor(s.g.engine, s.g.run.source, i), pointRadius: s.points.length > 2000 ? 1.5 : 3 })),
    },
    options: {
      ...DENSE,
      maintainAspectRatio: false,
      scales: {
        x: { type: "linear", title: axisTitle("run started"), ticks: { callback: (v) => dateLabel(Number(v)), maxTicksLimit: 8 } },
        y: { type: "logarithmic", title: axisTitle("throughput (ops/s, all clients)") },
      },
      plugins: { legend: { position: "bottom" } },
    },
  };
  return {
    id: "runs-throughput",
    title: `Throughput of ${runs.length.toLocaleString("en-US")} runs`,
    config: config as ChartConfiguration,
    csv: () => seriesToCsv("started_ms", "throughput_ops_sec", series),
    note: "Throughput of each run's first workload phase, summed over its clients; triangles are published figures.",
  };
}

function verdictCell(r: RunRow): HTMLTableCellElement {
  const td = el("td", { class: `verdict ${r.verdict}`, "data-verdict": r.verdict }, r.verdict);
  if (r.reasons.length) td.title = r.reasons.join("\n");
  return td;
}

function runTable(ctx: ViewContext, runs: readonly RunRow[], page: number): HTMLElement {
  const selected = new Set(listParam(ctx.state.params.selected));
  const rows = runs.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE);
  const head = el(
    "tr",
    {},
    ...["", "run", "engine", "version", "preset", "nodes", "instance", "scenario", "workloads", "throughput (ops/s)", "started", "source", "verdict", ""].map((h) =>
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
        el("td", { class: "num" }, formatNumber(r.throughputOpsSec)),
        el("td", {}, r.startedAt.slice(0, 16).replace("T", " ")),
        el("td", { title: r.source.citation ?? "" }, r.source.kind === "published" ? `published (seed ${r.source.seed ?? "?"})` : "measured"),
        verdictCell(r),
        links,
      ),
    );
  }
  const pages = Math.max(1, Math.ceil(runs.length / PAGE_SIZE));
  const pager = el("div", { class: "pager" });
  const prev = el("button", { type: "button", "data-page": "prev" }, "‹ previous");
  const next = el("button", { type: "button", "data-page": "next" }, "next ›");
  prev.disabled = page <= 0;
  next.disabled = page >= pages - 1;
  prev.addEventListener("click", () => ctx.setParams({ page: page - 1 > 0 ? String(page - 1) : undefined }));
  next.addEventListener("click", () => ctx.setParams({ page: String(page + 1) }));
  pager.append(prev, ` page ${page + 1} of ${pages} (${runs.length.toLocaleString("en-US")} runs) `, next);
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
    const filtered = Object.values(filters).some((v) => v !== undefined && v !== "");
    // Unfiltered, the explorer's runs are the option list's runs: one fetch, not two.
    const [runs, all] = await allInOrder([filtered ? fetchRuns(filters) : fetchAllRuns(), fetchAllRuns()]);
    const set = (name: string) => (value: string) => ctx.setParams({ [name]: value, page: undefined });
    ctx.controls.append(
      el(
        "form",
        { class: "filters", id: "run-filters" },
        filterSelect("engine", "engine", distinct(all, (r) => r.engine), p.engine, set("engine")),
        filterSelect("version", "version", distinct(all, (r) => r.engineVersion), p.version, set("version")),
        filterSelect("preset", "preset", distinct(all, (r) => r.preset), p.preset, set("preset")),
        filterSelect("nodes", "nodes", distinct(all, (r) => String(r.nodes)), p.nodes, set("nodes")),
        filterSelect("workload", "workload", distinct(all, (r) => r.workloads), p.workload, set("workload")),
        filterSelect("instanceType", "instance type", distinct(all, (r) => r.dataInstanceType), p.instanceType, set("instanceType")),
        filterSelect("scenario", "scenario", distinct(all, (r) => r.scenario), p.scenario, set("scenario")),
        filterSelect("source", "source", ["measured", "published"], p.source, set("source")),
        filterSelect("verdict", "verdict", VERDICT_OPTIONS, p.verdict, set("verdict")),
        filterInput("from", "from", p.from, set("from"), "date"),
        filterInput("to", "to", p.to, set("to"), "date"),
      ),
    );
    if (runs.length === 0) {
      ctx.controls.append(message("No run matches these filters."));
      return;
    }
    ctx.chart(overviewChart(runs));
    const page = Math.min(Math.max(0, Number(p.page ?? 0) || 0), Math.ceil(runs.length / PAGE_SIZE) - 1);
    ctx.details.append(runTable(ctx, runs, page));
  },
};
