/** Capacity and cost: what each configuration sustains under its latency SLO against what it costs per hour. */
import type { ChartConfiguration } from "chart.js";
import { type CapacityConfiguration, fetchCapacity } from "../api.js";
import { type CapacityPoint, capacityFrontier, configurationLabel, ladderRows, sloText } from "../capacity.js";
import { toCsv } from "../csv.js";
import { engineColour } from "../palette.js";
import { el, formatNumber, message } from "../ui.js";
import { hollowPoints, verdictNote } from "../verdicts.js";
import type { View, ViewContext } from "../view.js";
import { axisTitle, fittedLegend, plural } from "./common.js";

const FILTERS = ["scenario", "engine", "preset", "workload", "include"] as const;

export const capacityView: View = {
  title: "Capacity and cost",
  async render(ctx) {
    const p = ctx.state.params;
    const { configurations } = await fetchCapacity(Object.fromEntries(FILTERS.map((k) => [k, p[k]])));
    if (configurations.length === 0) {
      ctx.controls.append(
        message(
          "No capacity search for these filters: run a scenario with a capacity section (ycsb-lab plan --capacity).",
        ),
      );
      return;
    }
    const points = configurations.map(pointOf);
    const frontier = capacityFrontier(points);
    drawCostChart(ctx, points, frontier);
    ctx.details.append(configurationTable(ctx, points, frontier));
    const chosen =
      configurations.find((c, i) => points[i]!.label === p.config) ??
      configurations[points.indexOf(frontier[0] ?? points[0]!)]!;
    drawLadder(ctx, chosen);
  },
};

/** Labels that would repeat name the scenario and search too: two configurations never share a point's name. */
function pointOf(c: CapacityConfiguration, _i: number, all: readonly CapacityConfiguration[]): CapacityPoint {
  const base = configurationLabel(c);
  const twins = all.filter((o) => configurationLabel(o) === base).length;
  return {
    label: twins > 1 ? `${base} · ${c.scenario} ${c.search} ${sloText(c.slo)}` : base,
    engine: c.engine,
    standIn: c.standIn,
    sustainableOpsSec: c.sustainable.mean ?? 0,
    ci: c.sustainable.ci95 ? { low: c.sustainable.ci95.low, high: c.sustainable.ci95.high } : null,
    n: c.sustainable.n,
    usdPerHour: c.price.priced ? c.price.usdPerHour : null,
    usdPerMillionOps: c.price.priced ? c.price.usdPerMillionOps : null,
    priceNote: c.price.priced ? `on-demand, ${c.price.source}, as of ${c.price.pricesAsOf}` : c.price.statement,
    verdict: c.verdict,
    reasons: c.reasons,
  };
}

function drawCostChart(ctx: ViewContext, points: CapacityPoint[], frontier: CapacityPoint[]): void {
  const priced = points.filter((pt) => pt.usdPerHour !== null);
  if (priced.length === 0) {
    ctx.details.append(
      message(`No configuration here has a price (${points[0]!.priceNote}): the table lists what each sustains.`),
    );
    return;
  }
  const config = {
    type: "scatter",
    data: {
      datasets: [
        ...priced.map((pt, i) => ({
          label: pt.label,
          data: [{ x: pt.usdPerHour!, y: pt.sustainableOpsSec }],
          errorBars: [pt.ci],
          borderColor: engineColour(pt.engine, i),
          backgroundColor: engineColour(pt.engine, i),
          ...hollowPoints(engineColour(pt.engine, i), [{ verdict: pt.verdict, reasons: pt.reasons }]),
          pointRadius: 6,
        })),
        {
          label: "frontier: no other configuration is both cheaper and sustains more",
          data: frontier.map((pt) => ({ x: pt.usdPerHour!, y: pt.sustainableOpsSec })),
          showLine: true,
          borderColor: "#000",
          backgroundColor: "#000",
          borderDash: [6, 4],
          pointRadius: 0,
        },
      ],
    },
    options: {
      animation: false,
      maintainAspectRatio: false,
      scales: {
        x: { type: "linear", title: axisTitle("USD per hour of the configuration under test") },
        y: { beginAtZero: true, title: axisTitle("sustainable throughput under the SLO (ops/s)") },
      },
      plugins: { legend: { ...fittedLegend(), display: priced.length <= 12 } },
    },
  };
  ctx.chart({
    id: "capacity-cost",
    title: "Sustainable throughput against price per hour",
    config: config as unknown as ChartConfiguration,
    csv: () =>
      toCsv(
        ["configuration", "usd_per_hour", "sustainable_ops_sec", "ci95_low", "ci95_high", "n", "frontier", "verdict"],
        priced.map((pt) => [
          pt.label,
          pt.usdPerHour,
          pt.sustainableOpsSec,
          pt.ci?.low ?? "",
          pt.ci?.high ?? "",
          pt.n,
          frontier.includes(pt) ? "yes" : "no",
          pt.verdict,
        ]),
      ),
    note:
      "Each point: the mean over repeats of the highest step that held the SLO (whiskers its 95% CI); the dashed line joins the configurations no other beats on both." +
      verdictNote(priced.map((pt) => ({ verdict: pt.verdict, reasons: pt.reasons }))),
  });
}

function configurationTable(ctx: ViewContext, points: CapacityPoint[], frontier: CapacityPoint[]): HTMLElement {
  const head = el(
    "tr",
    {},
    ...[
      "configuration",
      "sustainable (ops/s)",
      "95% CI",
      "n",
      "USD/hour",
      "USD per million ops",
      "frontier",
      "verdict",
      "price",
    ].map((h) => el("th", {}, h)),
  );
  const rows = points.map((pt) =>
    el(
      "tr",
      {
        "data-config": pt.label,
        "data-frontier": String(frontier.includes(pt)),
        class: "clickable",
        title: "show this configuration's step ladder",
      },
      el("td", {}, pt.label),
      el("td", { class: "num" }, formatNumber(pt.sustainableOpsSec)),
      el("td", { class: "num" }, pt.ci ? `${formatNumber(pt.ci.low)} – ${formatNumber(pt.ci.high)}` : "–"),
      el("td", { class: "num" }, String(pt.n)),
      el("td", { class: "num" }, pt.usdPerHour === null ? "no price" : formatNumber(pt.usdPerHour, 3)),
      el("td", { class: "num" }, pt.usdPerMillionOps === null ? "–" : formatNumber(pt.usdPerMillionOps, 4)),
      el("td", {}, frontier.includes(pt) ? "yes" : ""),
      el("td", { class: "verdict", title: pt.reasons.join("\n") }, pt.verdict),
      el("td", {}, pt.priceNote),
    ),
  );
  rows.forEach((r, i) => {
    r.addEventListener("click", () => ctx.setParams({ config: points[i]!.label }));
  });
  return el("table", { class: "capacity" }, el("thead", {}, head), el("tbody", {}, ...rows));
}

/** The chosen configuration's searches: the ladder of its first repeat drawn against the SLO, every repeat's table. */
function drawLadder(ctx: ViewContext, c: CapacityConfiguration): void {
  const first = c.runs[0]!;
  const rows = ladderRows(first.result);
  const labels = rows.map((r) =>
    r.target === null ? `${r.step}: probe` : `${r.step}: ${formatNumber(r.target)} ops/s`,
  );
  const ops = c.slo.operations;
  const series = ops.flatMap((op, i) => [
    {
      label: `${op} p${c.slo.percentile} intended (ms)`,
      data: rows.map((r) => r.judged.find((j) => j.operation === op)?.intendedMs ?? null),
      borderColor: engineColour("", i),
      backgroundColor: engineColour("", i),
    },
    {
      label: `${op} p${c.slo.percentile} service time (ms)`,
      data: rows.map((r) => r.judged.find((j) => j.operation === op)?.opMs ?? null),
      borderColor: engineColour("", i),
      backgroundColor: "#ffffff",
      borderDash: [4, 3],
    },
  ]);
  const config = {
    type: "line",
    data: {
      labels,
      datasets: [
        ...series,
        {
          label: `SLO: ${sloText(c.slo)}`,
          data: rows.map(() => c.slo.limitMs),
          borderColor: "#c00",
          backgroundColor: "#c00",
          pointRadius: 0,
          borderWidth: 2,
        },
      ],
    },
    options: {
      animation: false,
      maintainAspectRatio: false,
      scales: {
        x: { title: axisTitle("step: total target") },
        y: { type: "logarithmic", title: axisTitle("latency (ms)") },
      },
      plugins: { legend: fittedLegend() },
    },
  };
  ctx.chart({
    id: "capacity-ladder",
    title: `Step ladder of ${configurationLabel(c)} (repeat ${first.repeat} of run ${first.runId})`,
    config: config as unknown as ChartConfiguration,
    csv: () =>
      toCsv(
        ["step", "role", "target", "achieved_ops_sec", "operation", "op_ms", "intended_ms", "errors_pct", "verdict"],
        rows.flatMap((r) =>
          r.judged.map((j) => [
            r.step,
            r.role,
            r.target ?? "",
            r.achievedOpsSec,
            j.operation,
            j.opMs ?? "",
            j.intendedMs ?? "",
            r.errorsPct,
            r.verdict,
          ]),
        ),
      ),
    note: `Red line: the SLO's limit. A step breaks on the intended latency (from each operation's scheduled start), its error rate, or an achieved rate under its target. ${plural(c.runs.length, "repeat")} counted.`,
  });
  for (const run of c.runs) ctx.details.append(ladderTable(run));
}

function ladderTable(run: CapacityConfiguration["runs"][number]): HTMLElement {
  const rows = ladderRows(run.result);
  const ops = run.result.slo.operations;
  const head = el(
    "tr",
    {},
    ...[
      "step",
      "target (ops/s)",
      "achieved (ops/s)",
      ...ops.map((op) => `${op} p${run.result.slo.percentile} op / intended (ms)`),
      "errors",
      "verdict",
      "why",
    ].map((h) => el("th", {}, h)),
  );
  const body = rows.map((r) =>
    el(
      "tr",
      { "data-step": String(r.step), "data-verdict": r.verdict },
      el("td", { class: "num" }, `${r.step} (${r.role})`),
      el("td", { class: "num" }, r.target === null ? "unthrottled" : formatNumber(r.target)),
      el("td", { class: "num" }, formatNumber(r.achievedOpsSec)),
      ...ops.map((op) => {
        const j = r.judged.find((x) => x.operation === op);
        return el(
          "td",
          { class: j?.overLimit ? "num over-limit" : "num" },
          j ? `${formatNumber(j.opMs, 2)} / ${formatNumber(j.intendedMs, 2)}` : "–",
        );
      }),
      el("td", { class: "num" }, `${formatNumber(r.errorsPct, 3)} %`),
      el("td", {}, r.verdict),
      el("td", {}, r.breaches.join("; ")),
    ),
  );
  const caption = el(
    "caption",
    {},
    `Run ${run.runId}, repeat ${run.repeat}: sustains ${formatNumber(run.result.sustainableOpsSec)} ops/s` +
      (run.result.broke
        ? `; step ${run.result.broke.step} broke: ${run.result.broke.breaches.join("; ")}`
        : "; no step above it broke"),
  );
  return el(
    "table",
    { class: "capacity-ladder", "data-run": run.runId, "data-repeat": String(run.repeat) },
    caption,
    el("thead", {}, head),
    el("tbody", {}, ...body),
  );
}
