/**
 * Compare: chosen runs side by side, a colour each, at their peak load level unless a level is chosen; throughput and
 * p50 to p99.99 per operation as means over each run's repeats (runs stored as repeats of one configuration pooled)
 * with their 95% CI, and a table of the differences to a reference (the configuration's baseline when it is among
 * them, else the first run not judged invalid) against the run-to-run noise. Unequal loads, scales, machines and
 * sources are said in the chart's title and note; a run not judged valid is hatched and named so.
 */
import { Chart, type ChartConfiguration, type Scale } from "chart.js";
import type { OverRepeats } from "../../../model/aggregate/rules.js";
import { phaseNameWithoutRepeat } from "../../../model/plan.js";
import { allInOrder, fetchBaselines, fetchCompare, type RunDetail } from "../api.js";
import { toCsv } from "../csv.js";
import { charsIn, fitLabel, wrapLabel } from "../labels.js";
import { indexedLook } from "../palette.js";
import { runCostText } from "../run-cost.js";
import { axisType, scaleChoice, scaleControl } from "../scales.js";
import { el, filterSelect, formatNumber, message } from "../ui.js";
import { listParam } from "../url-state.js";
import { hatch, hatchedBars, isSuspect, verdictNote } from "../verdicts.js";
import type { View, ViewContext } from "../view.js";
import { axisTitle, changeText } from "./common.js";
import { type CompareEntry, compareEntries, entryLoad, referenceEntry, unequalSetups } from "./compare-groups.js";
import {
  comparedOperations,
  diffCell,
  diffMetrics,
  entryLabel,
  latencyStats,
  type Metric,
  percentileMethods,
  suspectPair,
  throughputStats,
  whisker,
} from "./compare-shaping.js";

export { comparedPhases } from "./compare-groups.js";
export { COMPARE_PERCENTILES } from "./compare-shaping.js";

export const compareView: View = {
  title: "Compare",
  async render(ctx) {
    const p = ctx.state.params;
    const ids = listParam(p.runs);
    if (ids.length === 0) {
      ctx.controls.append(
        message("Pick runs in the Runs view and press “Compare selected”, or put ?runs=id1,id2 in the URL."),
      );
      return;
    }
    const [{ runs: details, missing }, { baselines }] = await allInOrder([fetchCompare(ids), fetchBaselines()]);
    if (missing.length) ctx.controls.append(message(`Unknown run(s): ${missing.join(", ")}`, "error"));
    if (details.length === 0) return;
    const entries = compareEntries(details, p.workload, p.phase, p.pool !== "off");
    const baselineIds = new Set(baselines.map((b) => b.runId));
    const reference = referenceEntry(entries, p.ref, baselineIds);
    ctx.controls.append(controls(ctx, details, entries, reference, baselineIds));
    cautions(ctx, entries, reference);
    for (const d of details)
      ctx.controls.append(el("p", { class: "message", "data-cost": d.run.id }, runCostText(d.run.id, d.cost)));
    draw(ctx, entries, reference);
  },
};

function controls(
  ctx: ViewContext,
  details: readonly RunDetail[],
  entries: readonly CompareEntry[],
  reference: CompareEntry,
  baselineIds: ReadonlySet<string>,
): HTMLElement {
  const p = ctx.state.params;
  const workloads = [
    ...new Set(details.flatMap((d) => d.phases.filter((x) => x.kind === "workload").map((x) => x.workload ?? x.name))),
  ];
  const levels = [
    ...new Set(
      details.flatMap((d) => d.phases.filter((x) => x.kind === "workload").map((x) => phaseNameWithoutRepeat(x.name))),
    ),
  ];
  const refOptions = entries.map((e) => ({
    value: e.id,
    label: `${e.id}${e.runs.some((r) => baselineIds.has(r.run.id)) ? " (baseline)" : ""}${e.verdict.verdict === "invalid" ? " (invalid)" : ""}`,
  }));
  return el(
    "form",
    { class: "filters" },
    filterSelect(
      "workload",
      "workload",
      workloads,
      p.workload,
      (v) => ctx.setParams({ workload: v }),
      "first of each run",
    ),
    filterSelect("phase", "load level", levels, p.phase, (v) => ctx.setParams({ phase: v }), "each run's peak"),
    filterSelect("ref", "difference to", refOptions, reference.id, (v) => ctx.setParams({ ref: v }), null),
    filterSelect(
      "pool",
      "runs stored as repeats",
      [{ value: "off", label: "each its own" }],
      p.pool,
      (v) => ctx.setParams({ pool: v }),
      "pooled per configuration",
    ),
    scaleControl(p.scale, (v) => ctx.setParams({ scale: v })),
  );
}

/** Said before any number: what makes this comparison unequal, pooled repeats, and an invalid reference. */
function cautions(ctx: ViewContext, entries: readonly CompareEntry[], reference: CompareEntry): void {
  const unequal = unequalSetups(entries);
  if (unequal.length)
    ctx.controls.append(
      el(
        "p",
        { class: "message caution", role: "status", "data-caution": "setups" },
        `Not like for like: ${unequal.join("; ")}. A difference below is these setups' as much as the databases'.`,
      ),
    );
  for (const e of entries.filter((x) => x.runs.length > 1))
    ctx.controls.append(
      message(
        `${e.runs.map((r) => r.run.id).join(", ")}: one configuration run ${e.runs.length} times (repeats stored as runs), pooled: their spread is the noise.`,
      ),
    );
  if (reference.verdict.verdict === "invalid")
    ctx.controls.append(
      el(
        "p",
        { class: "message caution", role: "status", "data-caution": "invalid-reference" },
        `The reference ${reference.id} was judged invalid (${reference.verdict.reasons.join("; ")}): differences to it measure a failure, not a database.`,
      ),
    );
}

function draw(ctx: ViewContext, entries: readonly CompareEntry[], reference: CompareEntry): void {
  const p = ctx.state.params;
  const labels = entries.map(entryLabel);
  const ops = comparedOperations(entries);
  const throughput = throughputStats(entries);
  const looks = entries.map((_, i) => indexedLook(i));
  const verdicts = entries.map((e) => e.verdict);
  const unequal = unequalSetups(entries);
  const loadsDiffer = unequal.some((u) => u.startsWith("unequal loads"));
  const throughputConfig = throughputChart(entries, labels, throughput, looks, p.scale);
  const loads = entries
    .map(
      (e) =>
        `${e.id}: ${e.phases.length ? [...new Set(e.phases.map((x) => x.name))].join(" ") : "none"} (${entryLoad(e)})`,
    )
    .join("; ");
  ctx.chart({
    id: "compare-throughput",
    // In the title, so the PNG keeps it: each run at its own peak is an unequal load.
    title: `${p.phase ? `Throughput at ${p.phase}` : "Throughput, each run at its peak"}${loadsDiffer ? ` (unequal loads: ${entries.map(entryLoad).join(" vs ")})` : ""}`,
    config: throughputConfig as unknown as ChartConfiguration,
    csv: () =>
      toCsv(
        ["run", "runs pooled", "phases", "threads", "n", "throughput_ops_sec", "ci95_low", "ci95_high", "verdict"],
        entries.map((e, i) => [
          e.id,
          e.runs.length,
          [...new Set(e.phases.map((x) => x.name))].join(" "),
          entryLoad(e),
          throughput[i]!.n,
          throughput[i]!.mean,
          throughput[i]!.ci95?.low,
          throughput[i]!.ci95?.high,
          e.verdict.verdict,
        ]),
      ),
    note: `${unequal.length ? `Not like for like: ${unequal.join("; ")}. ` : ""}Phases: ${loads}. Whiskers: 95% CI over the run's repeats.${verdictNote(verdicts)}`,
  });
  const latency = latencyStats(entries, ops);
  drawLatency(ctx, entries, labels, latency, looks);
  ctx.details.append(diffTable(entries, reference, diffMetrics(throughput, latency)));
}

/** Throughput per entry as horizontal bars with their 95% CI, hatched where the entry was not judged valid. */
function throughputChart(
  entries: readonly CompareEntry[],
  labels: readonly string[],
  throughput: readonly OverRepeats[],
  looks: ReturnType<typeof indexedLook>[],
  scale: string | undefined,
) {
  const verdicts = entries.map((e) => e.verdict);
  return {
    type: "bar",
    data: {
      labels,
      datasets: [
        {
          label: "throughput (ops/s)",
          data: throughput.map((s) => s.mean),
          errorBars: throughput.map(whisker),
          verdicts,
          backgroundColor: entries.map((e, i) =>
            isSuspect(e.verdict) ? hatch(looks[i]!.borderColor) : looks[i]!.backgroundColor,
          ),
          borderColor: looks.map((l) => l.borderColor),
          borderWidth: 1,
        },
      ],
    },
    options: {
      animation: false,
      maintainAspectRatio: false,
      indexAxis: "y",
      scales: {
        x: {
          type: axisType(
            scaleChoice(scale),
            throughput.map((s) => s.mean),
          ),
          title: axisTitle("throughput (ops/s, summed over clients; mean over repeats)"),
        },
        // Each run named whole, in lines that leave the bars 60 % of the chart's width.
        y: {
          ticks: {
            autoSkip: false,
            callback(this: Scale, value: string | number) {
              return wrapLabel(this.getLabelForValue(Number(value)), charsIn(this.chart.width * 0.4));
            },
          },
        },
      },
      plugins: { legend: { display: false } },
    },
  };
}

/** p50 to p99.99 per operation, a bar per entry with its 95% CI, legend items cut to the chart's width. */
function latencyChart(
  entries: readonly CompareEntry[],
  labels: readonly string[],
  stats: ReturnType<typeof latencyStats>,
  looks: ReturnType<typeof indexedLook>[],
  scale: string | undefined,
) {
  const { labels: statLabels, stats: latency } = stats;
  return {
    type: "bar",
    data: {
      labels: statLabels,
      datasets: entries.map((e, i) => ({
        // The run's id first: a legend item cut to a phone's width still tells the runs apart.
        label: `${e.id}: ${labels[i]!.replace(` (${e.id})`, "")}`,
        data: latency[i]!.map((s) => s.mean),
        errorBars: latency[i]!.map(whisker),
        ...hatchedBars(
          looks[i]!.backgroundColor,
          looks[i]!.borderColor,
          statLabels.map(() => e.verdict),
        ),
        borderColor: looks[i]!.borderColor,
        borderWidth: 1,
        borderDash: looks[i]!.borderDash,
      })),
    },
    options: {
      animation: false,
      maintainAspectRatio: false,
      scales: {
        y: {
          type: axisType(
            scaleChoice(scale),
            latency.flat().map((s) => s.mean),
          ),
          title: axisTitle("latency (ms)"),
        },
      },
      plugins: {
        legend: {
          position: "bottom",
          // An item is one line: cut to the chart's width (the throughput chart above names each run whole).
          labels: {
            generateLabels: (chart: Chart) =>
              Chart.defaults.plugins.legend.labels
                .generateLabels(chart)
                .map((item) => ({ ...item, text: fitLabel(item.text, charsIn(chart.width - 60)) })),
          },
        },
      },
    },
  };
}

function drawLatency(
  ctx: ViewContext,
  entries: readonly CompareEntry[],
  labels: readonly string[],
  stats: ReturnType<typeof latencyStats>,
  looks: ReturnType<typeof indexedLook>[],
): void {
  const p = ctx.state.params;
  const { labels: statLabels, stats: latency } = stats;
  const config = latencyChart(entries, labels, stats, looks, p.scale);
  const methods = percentileMethods(entries);
  ctx.chart({
    id: "compare-latency",
    title: "Latency per operation, p50 to p99.99",
    config: config as unknown as ChartConfiguration,
    csv: () =>
      toCsv(
        ["run", "operation", "percentile", "n", "latency_ms", "ci95_low", "ci95_high", "verdict"],
        entries.flatMap((e, i) =>
          statLabels.map((l, j) => [
            e.id,
            l.split(" ")[0]!,
            l.split(" ")[1]!,
            latency[i]![j]!.n,
            latency[i]![j]!.mean,
            latency[i]![j]!.ci95?.low,
            latency[i]![j]!.ci95?.high,
            e.verdict.verdict,
          ]),
        ),
      ),
    note: `Percentiles: ${methods.join(", ")} (merged-hdr: from the clients' merged HDR histograms; max-of-clients: an upper bound). Each a mean over the run's repeats, never the best.${verdictNote(entries.map((e) => e.verdict))}`,
  });
}

/** The differences table's first row: each entry's verdict and the first two of its reasons. */
function verdictRow(reference: CompareEntry, others: readonly CompareEntry[]): HTMLElement {
  return el(
    "tr",
    { "data-row": "verdict" },
    el("td", {}, "verdict"),
    el(
      "td",
      { class: `verdict ${reference.verdict.verdict}`, title: reference.verdict.reasons.join("\n") },
      reference.verdict.verdict,
    ),
    ...others.flatMap((e) => [
      el(
        "td",
        {
          class: `verdict ${e.verdict.verdict}`,
          "data-run": e.id,
          "data-metric": "verdict",
          title: e.verdict.reasons.join("\n"),
        },
        `${e.verdict.verdict}${e.verdict.reasons.length ? `: ${e.verdict.reasons.slice(0, 2).join("; ")}` : ""}`,
      ),
      el("td", {}),
      el("td", {}),
    ]),
  );
}

/** Each metric of each entry against the reference: the change in percent and whether it exceeds the repeats' noise. */
function diffTable(entries: readonly CompareEntry[], reference: CompareEntry, metrics: readonly Metric[]): HTMLElement {
  const r = entries.indexOf(reference);
  const others = entries.filter((e) => e !== reference);
  const named = (e: CompareEntry) =>
    `${e.id}${e.runs.length > 1 ? ` ×${e.runs.length}` : ""}${e.verdict.verdict === "valid" ? "" : ` (${e.verdict.verdict})`}`;
  const head = el(
    "tr",
    {},
    el("th", {}, "metric"),
    el("th", {}, `${named(reference)} (reference)`),
    ...others.flatMap((e) => [el("th", {}, named(e)), el("th", {}, "change"), el("th", {}, "vs noise")]),
  );
  const verdicts = verdictRow(reference, others);
  const rows = metrics.map((m) => {
    const base = m.stats[r]!;
    const cells = others.flatMap((e) => {
      const s = m.stats[entries.indexOf(e)]!;
      const { change, verdict, mark, title } = diffCell(m, base, s, suspectPair(e, reference));
      return [
        el("td", { class: "num" }, formatNumber(s.mean, m.better === "higher" ? 0 : 3)),
        el(
          "td",
          { class: "num", "data-run": e.id, "data-metric": m.name, "data-change": String(change ?? "") },
          changeText(change),
        ),
        el(
          "td",
          {
            class: `noise ${mark.split(";")[0]!.replace(/ /g, "-")}`,
            "data-run": e.id,
            "data-metric": m.name,
            "data-verdict": verdict,
            title,
          },
          mark,
        ),
      ];
    });
    return el(
      "tr",
      {},
      el("td", {}, m.name),
      el(
        "td",
        { class: "num" },
        `${formatNumber(base.mean, m.better === "higher" ? 0 : 3)}${base.n > 1 ? ` (n=${base.n})` : ""}`,
      ),
      ...cells,
    );
  });
  return el(
    "div",
    {},
    el("table", { class: "compare diff" }, el("thead", {}, head), el("tbody", {}, verdicts, ...rows)),
    el(
      "p",
      { class: "note" },
      "A change exceeds the noise when it is larger than the two runs' 95% confidence intervals over their repeats combined (√(h₁² + h₂²)); with a single repeat the noise is unknown, and the change may be noise.",
    ),
  );
}
