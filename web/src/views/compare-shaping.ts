/**
 * The compare view's numbers, apart from drawing them: each entry's throughput and p50 to p99.99 per operation as
 * statistics over its repeats, and each metric's change to the reference against the repeats' noise.
 */
import { type OverRepeats, overRepeats } from "../../../model/aggregate/rules.js";
import { againstNoise } from "../../../model/history.js";
import type { PhaseView } from "../api.js";
import { formatNumber } from "../ui.js";
import { isSuspect } from "../verdicts.js";
import { shortCitation } from "./common.js";
import type { CompareEntry } from "./compare-groups.js";

/** The percentiles compared, as keys of the API's percentilesUs: p50 to p99.99. */
export const COMPARE_PERCENTILES = ["50", "95", "99", "99.9", "99.99"] as const;

/** An entry named whole: engine, version, preset, nodes, its run (and how many pooled), source, stand-in, verdict. */
export function entryLabel(e: CompareEntry): string {
  const r = e.runs[0]!.run;
  const src =
    r.source.kind === "published"
      ? ` [${r.source.citation ? shortCitation(r.source.citation, r.source.seed) : "published"}]`
      : "";
  const runs = e.runs.length > 1 ? ` ×${e.runs.length} runs` : "";
  const verdict = e.verdict.verdict === "valid" ? "" : ` [${e.verdict.verdict}]`;
  const standIn = r.standIn ? " [stand-in]" : "";
  return `${r.engine} ${r.engineVersion} ${r.preset} ${r.nodes}n (${r.id}${runs})${src}${standIn}${verdict}`;
}

export const latencyMs = (p: PhaseView, op: string, percentile: string): number | null => {
  const us = p.operations[op]?.percentilesUs[percentile];
  return us === undefined ? null : us / 1000;
};

/** A statistic over the compared phases (the run's repeats): mean, CI and n; null values are no measurement. */
export function statOf(phases: readonly PhaseView[], value: (p: PhaseView) => number | null): OverRepeats {
  return overRepeats(phases.map(value).filter((v): v is number => v !== null));
}

/** The operations compared: every entry's, without cleanup and failed-operation groups, in name order. */
export function comparedOperations(entries: readonly CompareEntry[]): string[] {
  return [...new Set(entries.flatMap((e) => e.phases.flatMap((x) => Object.keys(x.operations))))]
    .filter((op) => !op.startsWith("CLEANUP") && !op.endsWith("-FAILED"))
    .sort();
}

/** Each entry's throughput over its repeats. */
export const throughputStats = (entries: readonly CompareEntry[]): OverRepeats[] =>
  entries.map((e) => statOf(e.phases, (x) => x.throughputOpsSec));

/** "READ p99" for each operation and compared percentile, and each entry's statistic of each (ms). */
export function latencyStats(entries: readonly CompareEntry[], ops: readonly string[]) {
  const labels = ops.flatMap((op) => COMPARE_PERCENTILES.map((k) => `${op} p${k}`));
  const stats = entries.map((e) =>
    ops.flatMap((op) => COMPARE_PERCENTILES.map((k) => statOf(e.phases, (x) => latencyMs(x, op, k)))),
  );
  return { labels, stats };
}

/** How the entries' percentiles were obtained (merged-hdr, max-of-clients, single-client). */
export const percentileMethods = (entries: readonly CompareEntry[]): string[] => [
  ...new Set(
    entries.flatMap((e) => e.phases.flatMap((x) => Object.values(x.operations).map((o) => o.percentileMethod))),
  ),
];

/** The 95% CI of a statistic as a whisker, or none. */
export const whisker = (s: OverRepeats) => (s.ci95 ? { low: s.ci95.low, high: s.ci95.high } : null);

/** Words beside a change: whether it is more than the noise, and whether it stands on a phase not judged valid. */
export function noiseWords(
  verdict: ReturnType<typeof againstNoise>["verdict"],
  worse: boolean,
  suspect: boolean,
): string {
  const base =
    verdict === "exceeds noise"
      ? worse
        ? "worse"
        : "better"
      : verdict === "within noise"
        ? "within noise"
        : "noise unknown (one repeat)";
  return suspect ? `${base}; not a valid measurement` : base;
}

export interface Metric {
  name: string;
  stats: OverRepeats[];
  better: "higher" | "lower";
}

/** The rows of the differences table: throughput, then each operation's percentiles; metrics nobody has left out. */
export function diffMetrics(throughput: OverRepeats[], latency: ReturnType<typeof latencyStats>): Metric[] {
  return [
    { name: "throughput (ops/s)", stats: throughput, better: "higher" as const },
    ...latency.labels.map((l, j) => ({
      name: `${l} (ms)`,
      stats: latency.stats.map((r) => r[j]!),
      better: "lower" as const,
    })),
  ].filter((m) => m.stats.some((s) => s.mean !== null));
}

/** One entry's metric against the reference's: the change, its verdict against the noise, the words and the hover. */
export function diffCell(metric: Metric, base: OverRepeats, s: OverRepeats, suspect: boolean) {
  const diff = againstNoise(base, s);
  const worse = diff.change !== null && (metric.better === "higher" ? diff.change < 0 : diff.change > 0);
  return {
    change: diff.change,
    verdict: diff.verdict,
    mark: noiseWords(diff.verdict, worse, suspect),
    title:
      diff.noise === null
        ? "a single repeat on either side: no CI, the noise is unknown"
        : `noise ±${formatNumber(diff.noise * 100, 1)} % (95% CIs of the repeats)`,
  };
}

/** Whether a difference to the reference stands on a phase not judged valid, on either side. */
export const suspectPair = (e: CompareEntry, reference: CompareEntry): boolean =>
  isSuspect(e.verdict) || isSuspect(reference.verdict);
