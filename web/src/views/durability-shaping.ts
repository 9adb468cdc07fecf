/**
 * The durability view's data, apart from drawing it: which scenario, workload, cluster size, operation and load are
 * shown, the loads every preset of an engine shares, one value per preset for each series, the table's rows and the
 * differences between presets against the repeats' noise (seed 004's comparison of durability presets).
 */
import { againstNoise, baselineFor, type PinnedBaseline } from "../../../model/history.js";
import { PRESETS } from "../../../model/presets.js";
import type { DurabilityCell, Facets, PublishedLatencyCell, RunSource, SweepSeries } from "../api.js";
import type { ErrorBar } from "../charts.js";
import { formatNumber } from "../ui.js";
import type { PointVerdict } from "../verdicts.js";
import { seriesLabel } from "./common.js";

export type Level = SweepSeries["points"][number];

/** What the view shows: the controls' values and the cells, levels and published figures they select. */
export interface Chosen {
  scenario: string | undefined;
  workload: string | undefined;
  nodes: number | undefined;
  op: string | undefined;
  load: string | undefined;
  loads: string[];
  cells: DurabilityCell[];
  levels: SweepSeries[];
  published: PublishedLatencyCell[];
  /** Phases judged invalid and left out, in the scenario's cells of this workload (a cell of invalid phases only has no bar). */
  invalid: number;
}

/** One series of bars: a value per preset (PRESETS' order), with its CI, verdict and printed text where it has them. */
export interface PresetSeries {
  label: string;
  engine: string;
  source: RunSource;
  values: (number | null)[];
  errorBars?: ErrorBar[];
  verdicts?: (PointVerdict | null)[];
  printed?: (string | null)[];
}

/**
 * The scenario shown unless the URL names one: the newest measured scenario with two presets or more, else the one
 * whose runs (or published tables) cover the most presets, the one with the most runs among equals; a preset
 * comparison across studies would compare their setups instead.
 */
export function defaultScenario(
  presetsOf: ReadonlyMap<string, ReadonlySet<string>>,
  runsOf: ReadonlyMap<string, number>,
  recent: readonly string[] = [],
): string | undefined {
  const newest = recent.find((s) => (presetsOf.get(s)?.size ?? 0) > 1);
  if (newest) return newest;
  return [...presetsOf.keys()].sort(
    (a, b) =>
      presetsOf.get(b)!.size - presetsOf.get(a)!.size ||
      (runsOf.get(b) ?? 0) - (runsOf.get(a) ?? 0) ||
      a.localeCompare(b),
  )[0];
}

/** The presets each scenario has measured or published figures of. */
export function scenarioPresets(facets: Pick<Facets, "scenarioPresets">, published: readonly PublishedLatencyCell[]) {
  const presetsOf = new Map<string, Set<string>>();
  for (const s of facets.scenarioPresets) presetsOf.set(s.scenario, new Set(s.presets));
  for (const c of published) presetsOf.set(c.scenario, new Set([...(presetsOf.get(c.scenario) ?? []), c.preset]));
  return presetsOf;
}

/** A load level: total client threads, and the target when one was set ("8" or "8@300"). */
export const loadKey = (q: { threads: number; target: number | null }): string =>
  q.target === null ? String(q.threads) : `${q.threads}@${q.target}`;
export const loadLabel = (key: string): string => {
  const [threads, target] = key.split("@");
  return `${threads} threads${target ? ` at ${target} ops/s` : ""}`;
};

/**
 * The loads every preset of an engine ran at, from the phases themselves (every configuration's levels, a single
 * one included: a run at one thread count is a load its presets share), in ascending threads.
 */
export function commonLoads(levels: readonly SweepSeries[]): string[] {
  const presets = new Set(levels.map((s) => s.preset));
  if (presets.size < 2) return [];
  const sets = [...presets].map(
    (preset) => new Set(levels.filter((s) => s.preset === preset).flatMap((s) => s.points.map(loadKey))),
  );
  const keys = [...sets[0]!].filter((k) => sets.every((set) => set.has(k)));
  return keys.sort((a, b) => parseFloat(a) - parseFloat(b) || a.localeCompare(b));
}

const distinctSorted = <T>(values: readonly T[], order?: (a: T, b: T) => number): T[] =>
  [...new Set(values)].sort(order);

/** The workloads, cluster sizes of the workload and operations the controls offer. */
export function filterOptions(all: readonly DurabilityCell[], c: Pick<Chosen, "published" | "workload">) {
  return {
    workloads: distinctSorted([...all.map((x) => x.workload), ...c.published.map((x) => x.workload)]).filter(
      (w) => w !== "",
    ),
    nodeCounts: distinctSorted(
      all.filter((x) => x.workload === c.workload).map((x) => x.nodes),
      (a, b) => a - b,
    ),
    operations: [
      ...new Set([...all.flatMap((x) => Object.keys(x.p99Us)), ...c.published.map((x) => x.operation)]),
    ].filter((o) => o !== "CLEANUP"),
  };
}

/** The highest load every preset of an engine here shares, per engine, in ascending threads. */
function sharedLoads(here: readonly SweepSeries[]): string[] {
  const engines = distinctSorted(here.map((s) => s.engine));
  return [...new Set(engines.flatMap((e) => commonLoads(here.filter((s) => s.engine === e))))].sort(
    (a, b) => parseFloat(a) - parseFloat(b),
  );
}

/** Workload, cluster size, operation and load: the URL's, else workload A, the smallest cluster, UPDATE, the highest common load. */
export function choose(
  p: Record<string, string>,
  scenario: string | undefined,
  data: { all: DurabilityCell[]; measuredOps: string[]; levels: SweepSeries[]; published: PublishedLatencyCell[] },
  invalid: number,
): Chosen {
  const { all, measuredOps, levels, published } = data;
  const operations = [...new Set([...measuredOps, ...published.map((x) => x.operation)])];
  const op = p.op ?? (operations.includes("UPDATE") ? "UPDATE" : operations[0]);
  // One workload at a time (a bar mixing workloads A and B would be no configuration): the one asked for, else A.
  const workloads = distinctSorted([...all.map((x) => x.workload), ...published.map((x) => x.workload)]).filter(
    (w) => w !== "",
  );
  const workload = p.workload ?? (workloads.includes("a") ? "a" : workloads[0]);
  const ofWorkload = <T extends { workload: string; nodes: number }>(xs: readonly T[]) =>
    xs.filter((x) => x.workload === workload);
  // Presets are compared at one cluster size: the one asked for, else the smallest (seed 004 ran single servers).
  const nodeCounts = distinctSorted(
    [...ofWorkload(all), ...ofWorkload(published)].map((x) => x.nodes),
    (a, b) => a - b,
  );
  const nodes = p.nodes !== undefined ? Number(p.nodes) : nodeCounts[0];
  const here = levels.filter((s) => s.workload === workload && s.nodes === nodes);
  const loads = sharedLoads(here);
  const atNodes = <T extends { nodes: number }>(xs: readonly T[]) => xs.filter((x) => x.nodes === nodes);
  return {
    scenario,
    workload,
    nodes,
    op,
    load: p.load ?? loads[loads.length - 1],
    loads,
    cells: atNodes(ofWorkload(all)),
    levels: here,
    published: atNodes(ofWorkload(published)),
    invalid,
  };
}

/** One series per engine and source, a value per preset; the cells' CIs when asked, their verdicts always. */
export function cellSeries(
  cells: readonly DurabilityCell[],
  value: (c: DurabilityCell) => number | null,
  ci?: (c: DurabilityCell) => ErrorBar,
): PresetSeries[] {
  const groups = new Map<string, DurabilityCell[]>();
  for (const x of cells) {
    const label = seriesLabel(x.engine, x.source);
    groups.set(label, [...(groups.get(label) ?? []), x]);
  }
  return [...groups.entries()].map(([label, list]) => {
    const at = PRESETS.map((preset) => list.find((x) => x.preset === preset));
    return {
      label,
      engine: list[0]!.engine,
      source: list[0]!.source,
      values: at.map((x) => (x ? value(x) : null)),
      ...(ci ? { errorBars: at.map((x) => (x ? ci(x) : null)) } : {}),
      verdicts: at.map((x) => x?.verdict ?? null),
    };
  });
}

/** One series per engine of the published p99s of an operation, with the text as printed ("<1ms"). */
export function publishedSeries(published: readonly PublishedLatencyCell[], op: string): PresetSeries[] {
  const byEngine = new Map<string, PublishedLatencyCell[]>();
  for (const x of published.filter((x) => x.operation === op))
    byEngine.set(x.engine, [...(byEngine.get(x.engine) ?? []), x]);
  return [...byEngine.values()].map((list) => {
    const at = PRESETS.map((preset) => list.find((x) => x.preset === preset));
    return {
      label: seriesLabel(list[0]!.engine, list[0]!.source),
      engine: list[0]!.engine,
      source: list[0]!.source,
      values: at.map((x) => x?.ms ?? null),
      printed: at.map((x) => x?.printed ?? null),
    };
  });
}

/** A cell's p99 of an operation in ms, null when it has none. */
export const cellP99Ms = (x: DurabilityCell, op: string): number | null =>
  x.p99Us[op] === undefined ? null : x.p99Us[op]! / 1000;
/** A load level's p99 of an operation in ms, null when it has none. */
export const levelP99Ms = (q: Level | undefined, op: string): number | null =>
  q?.p99ByOp[op] === undefined ? null : q.p99ByOp[op]! / 1000;

const where = (c: Chosen) => `${c.scenario}, workload ${c.workload}, ${c.nodes} data node${c.nodes === 1 ? "" : "s"}.`;

/** The note under the peak charts: what a peak is, and the invalid phases left out (per cell where a cell has some). */
export function peakNote(c: Chosen): string {
  const inCells = c.cells.filter((x) => x.leftOut.invalid).map((x) => `${x.engine} ${x.preset}: ${x.leftOut.invalid}`);
  return (
    `${where(c)} Each preset at its own peak: the highest throughput over its thread counts (seed 004 raised threads until throughput stopped ` +
    "rising), mean over repeats with its 95% CI; the threads of each peak are in the table below. Outlined bars: published figures." +
    (c.invalid
      ? ` Left out: ${c.invalid} phase(s) judged invalid${inCells.length ? ` (${inCells.join(", ")})` : ""}; a preset with none left has no bar (include=all counts them).`
      : "")
  );
}

/** The note under the equal-load charts. */
export const equalLoadNote = (c: Chosen): string =>
  `${where(c)} Every preset at ${loadLabel(c.load!)} in total (the same load), mean over repeats with its 95% CI: the difference here is the preset's, not the load's.`;

/** The configurations of every engine whose presets all ran the chosen load (none without a chosen load). */
export function equalLoadLevels(c: Pick<Chosen, "levels" | "load">): SweepSeries[] {
  if (c.load === undefined) return [];
  const engines = distinctSorted(c.levels.map((s) => s.engine));
  return engines.flatMap((engine) => {
    const mine = c.levels.filter((s) => s.engine === engine);
    return commonLoads(mine).includes(c.load!) ? mine : [];
  });
}

/** One series per engine at the chosen load, a value per preset. */
export function equalLoadSeries(
  equal: readonly SweepSeries[],
  load: string,
  value: (q: Level) => number | null,
  ci?: (q: Level) => ErrorBar,
): PresetSeries[] {
  const engines = [...new Set(equal.map((s) => s.engine))];
  return engines.map((engine) => {
    const list = equal.filter((s) => s.engine === engine);
    const at = PRESETS.map((preset) => list.find((x) => x.preset === preset)?.points.find((q) => loadKey(q) === load));
    return {
      label: `${seriesLabel(engine, list[0]!.source)} at ${loadLabel(load)}`,
      engine,
      source: list[0]!.source,
      values: at.map((q) => (q ? value(q) : null)),
      ...(ci ? { errorBars: at.map((q) => (q ? ci(q) : null)) } : {}),
      verdicts: at.map((q) => q?.verdict ?? null),
    };
  });
}

/** A row of the peak table: a cell's peak, its p99, the same at the equal load, its baseline and its verdict. */
export function peakRows(c: Chosen, equal: readonly SweepSeries[], baselines: readonly PinnedBaseline[]) {
  return c.cells.map((x) => {
    const q = equal
      .find((e) => e.engine === x.engine && e.preset === x.preset)
      ?.points.find((l) => loadKey(l) === c.load);
    return {
      cell: x,
      series: seriesLabel(x.engine, x.source),
      // The preset's peak against the run pinned as its configuration's baseline (that run's own peak).
      baseline: x.source.kind === "published" ? undefined : baselineFor(baselines, x, x.workload),
      p99Ms: c.op ? cellP99Ms(x, c.op) : null,
      equalThroughput: q?.throughputOpsSec ?? null,
      equalP99Ms: c.op ? levelP99Ms(q, c.op) : null,
      leftOut: x.leftOut.invalid ? `; ${x.leftOut.invalid} invalid phase(s) left out` : "",
    };
  });
}

type Stat = { mean: number | null; ci95: { halfWidth: number } | null; verdict: PointVerdict | undefined };
const halfWidth = (ci: { low: number; high: number } | null | undefined) =>
  ci ? { halfWidth: (ci.high - ci.low) / 2 } : null;
const levelStat = (q: Level | undefined): Stat => ({
  mean: q?.throughputOpsSec ?? null,
  ci95: halfWidth(q?.throughputCi),
  verdict: q?.verdict,
});
const peakStat = (x: DurabilityCell | undefined): Stat => ({
  mean: x?.throughputOpsSec ?? null,
  ci95: halfWidth(x?.ci),
  verdict: x?.verdict,
});

/** The words beside a difference: whether the repeats' noise is known, and whether the change is more than it. */
export function noiseWords(diff: ReturnType<typeof againstNoise>): string {
  if (diff.verdict === "noise unknown")
    return "rests on one repeat each: the noise is unknown, so this difference may be noise";
  const noise = `±${formatNumber((diff.noise ?? 0) * 100, 1)} %`;
  return diff.verdict === "within noise"
    ? `inside the measured noise (${noise}): no difference shown`
    : `more than the measured noise (${noise})`;
}

/**
 * Each preset against the first one of its engine at the equal load (else at their measured peaks): the change, and
 * whether it is more than the repeats' noise ("balanced 15 % faster than throughput" was noise).
 */
export function presetDifferences(c: Chosen, equal: readonly SweepSeries[]) {
  const atLoad = equal.length > 0;
  return [...new Set(c.cells.map((x) => x.engine))].flatMap((engine) => {
    const statOf = (preset: string) =>
      atLoad
        ? levelStat(
            equal.find((s) => s.engine === engine && s.preset === preset)?.points.find((q) => loadKey(q) === c.load),
          )
        : peakStat(c.cells.find((x) => x.engine === engine && x.preset === preset && x.source.kind === "measured"));
    const [first, ...others] = PRESETS.filter((preset) => statOf(preset).mean !== null);
    if (!first) return [];
    return others.map((preset) => {
      const base = statOf(first);
      const other = statOf(preset);
      const diff = againstNoise(base, other);
      const suspect = [base.verdict, other.verdict].some((v) => v && v.verdict !== "valid");
      return {
        key: `${engine}|${first}|${preset}`,
        what: `${engine}: ${preset} vs ${first}${atLoad ? ` at ${loadLabel(c.load!)}` : ", each at its peak"}`,
        change: diff.change,
        verdict: diff.verdict,
        words: `${noiseWords(diff)}${suspect ? "; and it stands on phases not judged valid" : ""}`,
      };
    });
  });
}
