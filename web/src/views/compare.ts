/**
 * Compare: chosen runs side by side, a colour each, at their peak load level unless a level is chosen; throughput and
 * p50 to p99.99 per operation as means over each run's repeats with their 95% CI, and a table of the differences to
 * a reference run (the configuration's baseline when it is among them, else the first) against the run-to-run noise.
 */
import { Chart, type ChartConfiguration, type Scale } from "chart.js";
import { overRepeats, peakLevelOverRepeats, selectPhases, type OverRepeats } from "../../../model/aggregate/rules.js";
import { againstNoise } from "../../../model/history.js";
import { phaseNameWithoutRepeat } from "../../../model/plan.js";
import { allInOrder, fetchBaselines, fetchCompare, type PhaseView, type RunDetail } from "../api.js";
import { toCsv } from "../csv.js";
import { indexedLook } from "../palette.js";
import { axisType, scaleChoice, scaleControl } from "../scales.js";
import { el, filterSelect, formatNumber, message } from "../ui.js";
import { listParam } from "../url-state.js";
import type { View } from "../view.js";
import { axisTitle, shortCitation } from "./common.js";
import { charsIn, fitLabel, wrapLabel } from "../labels.js";

/** The percentiles compared, as keys of the API's percentilesUs: p50 to p99.99. */
export const COMPARE_PERCENTILES = ["50", "95", "99", "99.9", "99.99"] as const;

function runLabel(d: RunDetail): string {
  const r = d.run;
  const src = r.source.kind === "published" ? ` [${r.source.citation ? shortCitation(r.source.citation, r.source.seed) : "published"}]` : "";
  return `${r.engine} ${r.engineVersion} ${r.preset} ${r.nodes}n (${r.id})${src}${r.standIn ? " [stand-in]" : ""}`;
}

/**
 * The phases of a run compared: of one workload, the repeats at the load level of the highest mean (the rule of every
 * view, so the runs list and compare show one number for a run), or each repeat at the level named.
 */
export function comparedPhases(d: RunDetail, workload: string | undefined, level: string | undefined): PhaseView[] {
  const work = d.phases.filter((p) => p.kind === "workload");
  const w = workload ?? work[0]?.workload;
  const ofWorkload = work.filter((p) => (p.workload ?? p.name) === w || p.name === w);
  if (level) return ofWorkload.filter((p) => phaseNameWithoutRepeat(p.name) === level);
  const { counted } = selectPhases(ofWorkload, "all");
  return peakLevelOverRepeats(counted).level;
}

const latencyMs = (p: PhaseView, op: string, percentile: string): number | null => {
  const us = p.operations[op]?.percentilesUs[percentile];
  return us === undefined ? null : us / 1000;
};

/** A statistic over the compared phases (the run's repeats): mean, CI and n; null values are no measurement. */
function statOf(phases: readonly PhaseView[], value: (p: PhaseView) => number | null): OverRepeats {
  return overRepeats(phases.map(value).filter((v): v is number => v !== null));
}

export const compareView: View = {
  title: "Compare",
  async render(ctx) {
    const p = ctx.state.params;
    const ids = listParam(p.runs);
    if (ids.length === 0) {
      ctx.controls.append(message("Pick runs in the Runs view and press “Compare selected”, or put ?runs=id1,id2 in the URL."));
      return;
    }
    const [{ runs: details, missing }, { baselines }] = await allInOrder([fetchCompare(ids), fetchBaselines()]);
    if (missing.length) ctx.controls.append(message(`Unknown run(s): ${missing.join(", ")}`, "error"));
    if (details.length === 0) return;
    const workloads = [...new Set(details.flatMap((d) => d.phases.filter((x) => x.kind === "workload").map((x) => x.workload ?? x.name)))];
    const levels = [...new Set(details.flatMap((d) => d.phases.filter((x) => x.kind === "workload").map((x) => phaseNameWithoutRepeat(x.name))))];
    const baselineIds = new Set(baselines.map((b) => b.runId));
    const reference = details.find((d) => d.run.id === p.ref) ?? details.find((d) => baselineIds.has(d.run.id)) ?? details[0]!;
    ctx.controls.append(
      el(
        "form",
        { class: "filters" },
        filterSelect("workload", "workload", workloads, p.workload, (v) => ctx.setParams({ workload: v }), "first of each run"),
        filterSelect("phase", "load level", levels, p.phase, (v) => ctx.setParams({ phase: v }), "each run's peak"),
        filterSelect("ref", "difference to", details.map((d) => ({ value: d.run.id, label: `${d.run.id}${baselineIds.has(d.run.id) ? " (baseline)" : ""}` })), reference.run.id, (v) => ctx.setParams({ ref: v }), null),
        scaleControl(p.scale, (v) => ctx.setParams({ scale: v })),
      ),
    );
    const compared = details.map((d) => ({ d, phases: comparedPhases(d, p.workload, p.phase) }));
    const labels = details.map(runLabel);
    const ops = [...new Set(compared.flatMap((c) => c.phases.flatMap((x) => Object.keys(x.operations))))].filter((op) => !op.startsWith("CLEANUP") && !op.endsWith("-FAILED")).sort();
    const throughput = compared.map((c) => statOf(c.phases, (x) => x.throughputOpsSec));
    const ci = (s: OverRepeats) => (s.ci95 ? { low: s.ci95.low, high: s.ci95.high } : null);
    const looks = details.map((_, i) => indexedLook(i));

    const throughputConfig = {
      type: "bar",
      data: {
        labels,
        datasets: [
          {
            label: "throughput (ops/s)",
            data: throughput.map((s) => s.mean),
            errorBars: throughput.map(ci),
            backgroundColor: looks.map((l) => l.backgroundColor),
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
          x: { type: axisType(scaleChoice(p.scale), throughput.map((s) => s.mean)), title: axisTitle("throughput (ops/s, summed over clients; mean over repeats)") },
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
    const phaseNames = compared.map((c) => [...new Set(c.phases.map((x) => x.name))].join(" "));
    ctx.chart({
      id: "compare-throughput",
      title: p.phase ? `Throughput at ${p.phase}` : "Throughput, each run at its peak",
      config: throughputConfig as unknown as ChartConfiguration,
      csv: () => toCsv(["run", "phases", "n", "throughput_ops_sec", "ci95_low", "ci95_high"], details.map((d, i) => [d.run.id, phaseNames[i]!, throughput[i]!.n, throughput[i]!.mean, throughput[i]!.ci95?.low, throughput[i]!.ci95?.high])),
      note: `Phases: ${details.map((d, i) => `${d.run.id}: ${phaseNames[i] || "none"}`).join("; ")}. Whiskers: 95% CI over the run's repeats.`,
    });

    const statLabels = ops.flatMap((op) => COMPARE_PERCENTILES.map((k) => `${op} p${k}`));
    const latency = compared.map((c) => ops.flatMap((op) => COMPARE_PERCENTILES.map((k) => statOf(c.phases, (x) => latencyMs(x, op, k)))));
    const latencyConfig = {
      type: "bar",
      data: {
        labels: statLabels,
        datasets: details.map((d, i) => ({
          // The run's id first: a legend item cut to a phone's width still tells the runs apart.
          label: `${d.run.id}: ${labels[i]!.replace(` (${d.run.id})`, "")}`,
          data: latency[i]!.map((s) => s.mean),
          errorBars: latency[i]!.map(ci),
          backgroundColor: looks[i]!.backgroundColor,
          borderColor: looks[i]!.borderColor,
          borderWidth: 1,
          borderDash: looks[i]!.borderDash,
        })),
      },
      options: {
        animation: false,
        maintainAspectRatio: false,
        scales: { y: { type: axisType(scaleChoice(p.scale), latency.flat().map((s) => s.mean)), title: axisTitle("latency (ms)") } },
        plugins: {
          legend: {
            position: "bottom",
            // An item is one line: cut to the chart's width (the throughput chart above names each run whole).
            labels: { generateLabels: (chart: Chart) => Chart.defaults.plugins.legend.labels.generateLabels(chart).map((item) => ({ ...item, text: fitLabel(item.text, charsIn(chart.width - 60)) })) },
          },
        },
      },
    };
    const methods = [...new Set(compared.flatMap((c) => c.phases.flatMap((x) => Object.values(x.operations).map((o) => o.percentileMethod))))];
    ctx.chart({
      id: "compare-latency",
      title: "Latency per operation, p50 to p99.99",
      config: latencyConfig as unknown as ChartConfiguration,
      csv: () =>
        toCsv(
          ["run", "operation", "percentile", "n", "latency_ms", "ci95_low", "ci95_high"],
          details.flatMap((d, i) => statLabels.map((l, j) => [d.run.id, l.split(" ")[0]!, l.split(" ")[1]!, latency[i]![j]!.n, latency[i]![j]!.mean, latency[i]![j]!.ci95?.low, latency[i]![j]!.ci95?.high])),
        ),
      note: `Percentiles: ${methods.join(", ")} (merged-hdr: from the clients' merged HDR histograms; max-of-clients: an upper bound). Each a mean over the run's repeats, never the best.`,
    });

    ctx.details.append(diffTable(details, reference, [{ name: "throughput (ops/s)", stats: throughput, better: "higher" }, ...statLabels.map((l, j) => ({ name: `${l} (ms)`, stats: latency.map((r) => r[j]!), better: "lower" as const }))]));
  },
};

/** Each metric of each run against the reference run: the change in percent and whether it exceeds the repeats' noise. */
function diffTable(details: readonly RunDetail[], reference: RunDetail, metrics: { name: string; stats: OverRepeats[]; better: "higher" | "lower" }[]): HTMLElement {
  const r = details.indexOf(reference);
  const others = details.filter((d) => d !== reference);
  const head = el("tr", {}, el("th", {}, "metric"), el("th", {}, `${reference.run.id} (reference)`), ...others.flatMap((d) => [el("th", {}, d.run.id), el("th", {}, "change"), el("th", {}, "vs noise")]));
  const rows = metrics
    .filter((m) => m.stats.some((s) => s.mean !== null))
    .map((m) => {
      const base = m.stats[r]!;
      const cells = others.flatMap((d) => {
        const s = m.stats[details.indexOf(d)]!;
        const diff = againstNoise(base, s);
        const worse = diff.change !== null && (m.better === "higher" ? diff.change < 0 : diff.change > 0);
        const mark = diff.verdict === "exceeds noise" ? (worse ? "worse" : "better") : diff.verdict;
        return [
          el("td", { class: "num" }, formatNumber(s.mean, m.better === "higher" ? 0 : 3)),
          el("td", { class: "num", "data-run": d.run.id, "data-metric": m.name, "data-change": String(diff.change ?? "") }, diff.change === null ? "–" : `${diff.change > 0 ? "+" : ""}${formatNumber(diff.change * 100, 1)} %`),
          el("td", { class: `noise ${mark.replace(" ", "-")}`, "data-run": d.run.id, "data-metric": m.name, "data-verdict": diff.verdict, title: diff.noise === null ? "a single repeat on either side: no CI" : `noise ±${formatNumber(diff.noise * 100, 1)} % (95% CIs of the repeats)` }, mark),
        ];
      });
      return el("tr", {}, el("td", {}, m.name), el("td", { class: "num" }, `${formatNumber(base.mean, m.better === "higher" ? 0 : 3)}${base.n > 1 ? ` (n=${base.n})` : ""}`), ...cells);
    });
  return el(
    "div",
    {},
    el("table", { class: "compare diff" }, el("thead", {}, head), el("tbody", {}, ...rows)),
    el("p", { class: "note" }, "A change exceeds the noise when it is larger than the two runs' 95% confidence intervals over their repeats combined (√(h₁² + h₂²)); with a single repeat the noise is unknown."),
  );
}
