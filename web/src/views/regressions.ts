/**
 * Regressions: each configuration's runs in order (by time or engine version), the change points the API found
 * (E-Divisive means, model/change-points.ts) marked with the version change across them, and the pinned baseline.
 */
import type { ChartConfiguration } from "chart.js";
import { detectableChange, historyNoise, OTAVA_DIFFERENCE, outlierRuns } from "../../../model/change-point-power.js";
import { configurationLabel } from "../../../model/history.js";
import { allInOrder, fetchFacets, fetchRecentRuns, fetchRegressions, type Regressions, type RunRow } from "../api.js";
import { toCsv } from "../csv.js";
import { ALL, newestRecurring } from "../defaults.js";
import { BASELINE_COLOUR, DIP_COLOUR, engineColour, seriesLook } from "../palette.js";
import { axisType, scaleChoice, scaleControl } from "../scales.js";
import { el, filterSelect, formatNumber, message } from "../ui.js";
import { hollowPoints, verdictNote } from "../verdicts.js";
import type { View, ViewContext } from "../view.js";
import { axisTitle, percentText } from "./common.js";

/** Charts drawn at most: the histories with changes first. */
const MAX_CHARTS = 12;
/** Past this many runs a history is drawn as dots without a joining line (8,300 joined points were a block of colour). */
const JOINED_RUNS = 200;

/**
 * Runs per configuration the view opens on: its newest (GET /regressions?last=), so the answer reads what it draws;
 * `last=all` shows every run. 100,000 runs in 12 configurations were 8,300 runs a history and 1.2 s an answer.
 */
const WINDOW = JOINED_RUNS;

const CONFIGURATION_FILTERS = ["scenario", "engine", "preset", "nodes"] as const;

/**
 * The histories a view opens on: those of the newest measured run's configuration (its scenario, engine, preset and
 * cluster size) when the URL names no filter; "all" widens one. Every history of 100,000 runs was 37 s and a wall.
 */
async function newestConfiguration(
  p: Record<string, string>,
): Promise<Partial<Record<(typeof CONFIGURATION_FILTERS)[number], string>>> {
  const named = CONFIGURATION_FILTERS.some((k) => p[k] !== undefined) || p.workload !== undefined;
  const key = (r: RunRow) => CONFIGURATION_FILTERS.map((k) => String(r[k])).join("|");
  const newest = named ? undefined : newestRecurring(await fetchRecentRuns(), key);
  const pick = (k: (typeof CONFIGURATION_FILTERS)[number]) => {
    if (p[k] === ALL) return undefined;
    if (p[k] !== undefined) return p[k];
    return newest ? String(newest[k]) : undefined;
  };
  return Object.fromEntries(CONFIGURATION_FILTERS.map((k) => [k, pick(k)]).filter(([, v]) => v !== undefined));
}

/** What a history can show: its noise, the smallest change it would flag (model/change-point-power.ts), its outliers. */
export function historyPower(h: History) {
  const values = h.runs.map((r) => r.throughput.mean ?? 0);
  const noise = historyNoise(values, h.changes);
  return {
    noise,
    detectable: noise === null ? null : detectableChange(values.length, noise),
    outliers: outlierRuns(values, h.changes),
  };
}

/** "would show a change of ±4.8 % or more (40 runs, noise 3.0 %)", or why it cannot. */
export function powerText(h: History, power: ReturnType<typeof historyPower>): string {
  if (power.detectable === null) return `${h.runs.length} runs: too few to find a change (3 on each side at least)`;
  return `would flag a change of ±${percentText(power.detectable, 1)} or more in 4 cases of 5 (${h.runs.length} runs, noise ${percentText(power.noise, 1)})`;
}

type History = Regressions["histories"][number];

const pct = (v: number | null) => (v === null ? "–" : `${v > 0 ? "+" : ""}${formatNumber(v * 100, 1)} %`);

function historyChart(ctx: ViewContext, h: History, i: number, scale: string | undefined): void {
  const label = `${configurationLabel(h.configuration)} · ${h.workload}`;
  const tick = (k: number) => `${h.runs[k]!.engineVersion} · ${h.runs[k]!.startedAt.slice(0, 10)}`;
  const points = h.runs.map((r, k) => ({ x: k, y: r.throughput.mean ?? 0, id: r.id }));
  const look = seriesLook(engineColour(h.configuration.engine, i), false);
  const marks = h.changes.map((c) => ({
    x: c.index - 0.5,
    y: (c.meanBefore + c.meanAfter) / 2,
    text: `${c.fromVersion} → ${c.toVersion}: ${pct(c.change)}`,
  }));
  const baseline = h.baseline?.throughputOpsSec ?? null;
  const power = historyPower(h);
  const dense = h.runs.length > JOINED_RUNS;
  const verdicts = h.runs.map((r) => ({
    verdict: r.verdict,
    reasons: r.verdict === "valid" ? [] : [`run ${r.id} (the runs table lists why)`],
  }));
  const datasets: Record<string, unknown>[] = [
    {
      label: `${h.configuration.engine} runs`,
      data: points,
      ...look,
      ...hollowPoints(look.backgroundColor, verdicts),
      showLine: !dense,
      pointRadius: dense ? 1.5 : look.pointRadius,
      borderWidth: 1.5,
      errorBars: dense
        ? undefined
        : h.runs.map((r) => (r.throughput.ci95 ? { low: r.throughput.ci95.low, high: r.throughput.ci95.high } : null)),
    },
    // Runs far from their segment (modified z > 3.5): marked, still counted, so one odd run is seen and not hidden.
    ...(power.outliers.length
      ? [
          {
            label: `outlier run${power.outliers.length === 1 ? "" : "s"} (${power.outliers.length})`,
            data: power.outliers.map((k) => points[k]!),
            borderColor: DIP_COLOUR,
            backgroundColor: "#ffffff",
            pointStyle: "circle",
            pointRadius: 9,
            borderWidth: 2,
            showLine: false,
          },
        ]
      : []),
    ...h.changes.map((c) => ({
      label: `${c.kind} at run ${c.index + 1}: ${c.fromVersion} → ${c.toVersion}, ${pct(c.change)}`,
      data: [
        { x: c.index - 0.5, y: Math.min(c.meanBefore, c.meanAfter) * 0.97 },
        { x: c.index - 0.5, y: Math.max(c.meanBefore, c.meanAfter) * 1.03 },
      ],
      borderColor: DIP_COLOUR,
      backgroundColor: DIP_COLOUR,
      borderWidth: 2,
      borderDash: [4, 3],
      pointRadius: 0,
      showLine: true,
    })),
    ...h.changes
      .map((c) => ({
        label: `mean ${c.fromVersion} → ${c.toVersion}`,
        data: [
          { x: 0, y: c.meanBefore },
          { x: c.index - 0.5, y: c.meanBefore },
          { x: c.index - 0.5, y: c.meanAfter },
          { x: h.runs.length - 1, y: c.meanAfter },
        ],
        borderColor: "#555555",
        backgroundColor: "#555555",
        borderWidth: 1,
        pointRadius: 0,
        showLine: true,
        stepped: false,
      }))
      .slice(0, 1),
    ...(baseline === null
      ? []
      : [
          {
            label: `baseline ${h.baseline!.runId}`,
            data: [
              { x: 0, y: baseline },
              { x: h.runs.length - 1, y: baseline },
            ],
            borderColor: BASELINE_COLOUR,
            backgroundColor: BASELINE_COLOUR,
            borderDash: [8, 4],
            borderWidth: 1.5,
            pointRadius: 0,
            showLine: true,
          },
        ]),
  ];
  const config = {
    type: "scatter",
    data: { datasets },
    options: {
      animation: false,
      maintainAspectRatio: false,
      scales: {
        x: {
          type: "linear",
          min: -0.5,
          max: h.runs.length - 0.5,
          title: axisTitle("run (engine version · start day)"),
          // A tick on each run: from min -0.5 Chart.js steps through -0.5, 0.5, ... and every label came out empty.
          afterBuildTicks: (axis: { ticks: { value: number }[] }) => {
            axis.ticks = h.runs.map((_, k) => ({ value: k }));
          },
          ticks: {
            autoSkip: true,
            maxRotation: 60,
            callback: (v: number | string) => (Number.isInteger(Number(v)) && h.runs[Number(v)] ? tick(Number(v)) : ""),
          },
        },
        y: {
          type: axisType(
            scaleChoice(scale),
            points.map((q) => q.y),
          ),
          title: axisTitle("peak throughput (ops/s, mean over repeats)"),
        },
      },
      plugins: {
        legend: { position: "bottom" },
        tooltip: {
          callbacks: {
            label: (item: { raw: unknown }) => {
              const r = item.raw as { id?: string; y: number };
              return r.id ? `${r.id}: ${formatNumber(r.y)} ops/s` : formatNumber(r.y);
            },
          },
        },
      },
    },
  };
  ctx.chart({
    id: `regressions-${i}`,
    title: label,
    config: config as unknown as ChartConfiguration,
    csv: () =>
      toCsv(
        ["run", "engine_version", "started", "throughput_ops_sec", "change_from_baseline"],
        h.runs.map((r) => [r.id, r.engineVersion, r.startedAt, r.throughput.mean, r.changeFromBaseline]),
      ),
    note:
      (h.changes.length ? `Changes: ${marks.map((m) => m.text).join("; ")}. ` : "No change point found. ") +
      `This history ${powerText(h, power)}.` +
      (power.outliers.length
        ? ` Ringed: ${power.outliers.length} outlier run(s), far from their segment (kept in the test).`
        : "") +
      (baseline === null ? "" : ` Dashed black: the baseline run ${h.baseline!.runId}.`) +
      verdictNote(verdicts),
  });
}

/** A windowed history says so: a change before its newest runs is not looked for (the "every run" choice is). */
function windowNote(last: string | undefined): string {
  return last === undefined
    ? ""
    : ` Each history is its configuration's newest ${last} runs: earlier changes show under "runs per configuration: every run".`;
}

export const regressionsView: View = {
  title: "Regressions",
  async render(ctx) {
    const p = ctx.state.params;
    const order = p.order === "version" ? "version" : "time";
    const f = await newestConfiguration(p);
    const last = p.last === ALL ? undefined : (p.last ?? String(WINDOW));
    const [facets, out] = await allInOrder([
      fetchFacets(),
      fetchRegressions({ ...f, workload: p.workload, order, last }),
    ]);
    const values = (x: readonly { value: string | number }[]) => x.map((v) => String(v.value));
    const any = (name: string, label: string, options: string[], v: string | undefined) =>
      filterSelect(
        name,
        label,
        options,
        v ?? (p[name] === ALL ? undefined : p[name]),
        (value) => ctx.setParams({ [name]: value === "" ? ALL : value }),
        "any",
      );
    ctx.controls.append(
      el(
        "form",
        { class: "filters" },
        any("scenario", "scenario", values(facets.scenarios), f.scenario),
        any("engine", "engine", values(facets.engines), f.engine),
        any("preset", "preset", values(facets.presets), f.preset),
        any("nodes", "nodes", values(facets.nodes), f.nodes),
        filterSelect("workload", "workload", values(facets.workloads), p.workload, (v) =>
          ctx.setParams({ workload: v }),
        ),
        filterSelect(
          "order",
          "runs ordered by",
          [{ value: "version", label: "engine version" }],
          p.order,
          (v) => ctx.setParams({ order: v }),
          "start time",
        ),
        filterSelect(
          "last",
          "runs per configuration",
          [{ value: ALL, label: "every run" }],
          p.last,
          (v) => ctx.setParams({ last: v }),
          `newest ${WINDOW}`,
        ),
        scaleControl(p.scale, (v) => ctx.setParams({ scale: v })),
      ),
    );
    const histories = out.histories.filter((h) => h.runs.length > 1);
    if (histories.length === 0) {
      ctx.controls.append(
        message(
          "No configuration has more than one measured run for these filters: a history needs repeated runs over time or versions.",
        ),
      );
      return;
    }
    histories.slice(0, MAX_CHARTS).forEach((h, i) => {
      historyChart(ctx, h, i, p.scale);
    });
    const changes = histories.flatMap((h) => h.changes.map((c) => ({ h, c })));
    ctx.details.append(
      el(
        "p",
        { class: "note", "data-method": "" },
        `${out.method}. ${OTAVA_DIFFERENCE} ${histories.length} histories, ${changes.length} change point(s)${histories.length > MAX_CHARTS ? `; the first ${MAX_CHARTS} drawn` : ""}.${windowNote(last)}`,
      ),
      powerTable(histories),
      el(
        "table",
        { class: "changes" },
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            ...[
              "configuration",
              "workload",
              "kind",
              "versions",
              "first run after",
              "mean before",
              "mean after",
              "change",
              "p",
            ].map((t) => el("th", {}, t)),
          ),
        ),
        el(
          "tbody",
          {},
          ...changes.map(({ h, c }) =>
            el(
              "tr",
              { "data-change": `${h.configurationId}|${h.workload}|${c.index}`, class: c.kind },
              el("td", {}, configurationLabel(h.configuration)),
              el("td", {}, h.workload),
              el("td", { class: `verdict ${c.kind === "regression" ? "invalid" : "valid"}` }, c.kind),
              el("td", {}, `${c.fromVersion} → ${c.toVersion}`),
              el("td", { class: "mono" }, c.runId),
              el("td", { class: "num" }, formatNumber(c.meanBefore)),
              el("td", { class: "num" }, formatNumber(c.meanAfter)),
              el("td", { class: "num", "data-value": String(c.change ?? "") }, pct(c.change)),
              el("td", { class: "num" }, c.pValue.toExponential(1)),
            ),
          ),
        ),
      ),
    );
  },
};

/** Per history: runs, noise, the smallest change it would flag, change points and outliers. */
function powerTable(histories: readonly History[]): HTMLElement {
  const rows = histories.map((h) => {
    const power = historyPower(h);
    return el(
      "tr",
      { "data-history": `${h.configurationId}|${h.workload}` },
      el("td", {}, `${configurationLabel(h.configuration)} · ${h.workload}`),
      el("td", { class: "num" }, String(h.runs.length)),
      el("td", { class: "num" }, percentText(power.noise, 1)),
      el(
        "td",
        { class: "num", "data-detectable": String(power.detectable ?? "") },
        power.detectable === null ? "too few runs" : `±${percentText(power.detectable, 1)}`,
      ),
      el("td", { class: "num" }, String(h.changes.length)),
      el(
        "td",
        { "data-outliers": power.outliers.map((k) => h.runs[k]!.id).join(",") },
        power.outliers.map((k) => h.runs[k]!.id).join(", ") || "–",
      ),
    );
  });
  return el(
    "table",
    { class: "power" },
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        ...[
          "history",
          "runs",
          "noise (sd / mean)",
          "smallest change it would flag",
          "change points",
          "outlier runs",
        ].map((t) => el("th", {}, t)),
      ),
    ),
    el("tbody", {}, ...rows),
  );
}
