/** Scaling, durability, sweeps and repeatability, from the API's answers to the views' series and cells. */
import type { Static } from "@sinclair/typebox";
import type {
  CapacityResponse,
  DurabilityResponse,
  RepeatabilityResponse,
  ScalingResponse,
  SweepsResponse,
} from "../../../model/api-schemas.js";
import type { PointVerdict } from "../verdicts.js";
import { fetchFacets } from "./catalog.js";
import { allInOrder, getJson } from "./http.js";
import type { Facets, RunSource } from "./types.js";

const distinct = (values: (string | null | undefined)[]) => [...new Set(values.filter((v): v is string => !!v))].sort();

/**
 * The source of an aggregated series, as the API groups it: one study (its citation and seed) or measured runs, never
 * a mix; measured on a stand-in or on the engine, never a mix either (model/aggregate/repeats.ts deploymentIdentity).
 */
function sourceOf(sourceKind: string, sourceId: string, facets: Facets, standIn?: string | null): RunSource {
  if (sourceKind !== "published") return { kind: sourceKind, ...(standIn ? { standIn } : {}) };
  const s = facets.sources.find((x) => x.id === sourceId);
  return { kind: "published", ...(s?.citation ? { citation: s.citation } : {}), ...(s?.seed ? { seed: s.seed } : {}) };
}

const values = <T>(facet: readonly { value: T }[]): T[] => facet.map((f) => f.value);

/** A point's verdict as the API states it (older answers without one read as valid). */
const verdictOf = (p: { verdict?: string; reasons?: string[] }): PointVerdict => ({
  verdict: p.verdict ?? "valid",
  reasons: p.reasons ?? [],
});

/** A scaling series with its points' CIs and verdicts, the ideal line and the score in percent. */
export function scalingSeries(s: Static<typeof ScalingResponse>["series"][number], facets: Facets) {
  return {
    engine: s.engine,
    workload: s.workload ?? "",
    preset: s.preset,
    scenario: s.scenario,
    source: sourceOf(s.sourceKind, s.sourceId, facets, s.standIn),
    points: s.points.map((p) => ({
      nodes: p.nodes,
      throughputOpsSec: p.throughputOpsSec,
      ci: p.throughput.ci95 ? { low: p.throughput.ci95.low, high: p.throughput.ci95.high } : null,
      n: p.throughput.n,
      verdict: verdictOf(p),
    })),
    ideal: s.analysis.idealLinear,
    steps: s.analysis.steps,
    leftOut: s.leftOut,
    scalabilityScore: s.analysis.score === null ? null : s.analysis.score * 100,
  };
}

/** A durability cell: the row's throughput with its CI, p99 and mean latency per operation, and its verdict. */
export function durabilityCell(r: Static<typeof DurabilityResponse>["rows"][number], facets: Facets) {
  return {
    engine: r.engine,
    preset: r.preset,
    workload: r.workload ?? "",
    nodes: r.nodes,
    scenario: r.scenario,
    source: sourceOf(r.sourceKind, r.sourceId, facets, r.standIn),
    throughputOpsSec: r.throughputOpsSec,
    ci: r.throughput.ci95 ? { low: r.throughput.ci95.low, high: r.throughput.ci95.high } : null,
    n: r.throughput.n,
    runs: r.runs,
    peakThreads: r.peakThreads,
    leftOut: r.leftOut,
    verdict: verdictOf(r),
    p99Us: Object.fromEntries(
      Object.entries(r.operations).flatMap(([op, o]) => (o.p99Us === null ? [] : [[op, o.p99Us]])),
    ),
    latency: Object.fromEntries(
      Object.entries(r.operations).map(([op, o]) => [op, { count: o.count, avgUs: o.avgUs }]),
    ),
  };
}

const ci = (c: { low: number; high: number } | null) => (c ? { low: c.low, high: c.high } : null);

/** A configuration's load levels: each level's means with CIs, its worst and per-operation p99, its verdict. */
export function sweepSeries(s: Static<typeof SweepsResponse>["series"][number], facets: Facets) {
  return {
    engine: s.engine,
    engineVersion: s.engineVersion,
    workload: s.workload ?? "",
    preset: s.preset,
    nodes: s.nodes,
    scenario: s.scenario,
    operationCount: s.operationCount,
    label: `${s.preset} ${s.nodes}n ${s.workload ?? ""}${s.operationCount === null ? "" : ` ${s.operationCount.toLocaleString("en-US")} ops`} (${s.runId})`,
    source: sourceOf(s.sourceKind, s.sourceId, facets, s.standIn),
    points: s.points.map((p) => {
      const p99ByOp = Object.fromEntries(
        Object.entries(p.latency).flatMap(([op, l]) => (op === "CLEANUP" || l.p99Us === null ? [] : [[op, l.p99Us]])),
      );
      const p99s = Object.values(p99ByOp);
      return {
        threads: p.threads,
        target: p.target,
        phase: p.phase,
        n: p.throughput.n,
        throughputOpsSec: p.throughputOpsSec,
        throughputCi: ci(p.throughput.ci95),
        runtimeMs: p.runtimeMs,
        runtimeCi: ci(p.runtime.ci95),
        p99Us: p99s.length ? Math.max(...p99s) : null,
        p99ByOp,
        verdict: verdictOf(p),
      };
    }),
  };
}

/** A group of repeats of one configuration with its mean, CI, spread and maximum difference in percent. */
export function repeatGroup(g: Static<typeof RepeatabilityResponse>["groups"][number], facets: Facets) {
  return {
    // Everything that tells two configurations apart: version and operation count too (5.0.4 and 5.0.5 are two rows).
    label: [
      `${g.engine} ${g.engineVersion} ${g.preset} ${g.nodes}n ${g.workload ?? g.phase}`,
      `${g.threadsPerClient}×${g.clients} threads`,
      g.target === null ? null : `target ${g.target}`,
      g.operationCount === null ? null : `${g.operationCount.toLocaleString("en-US")} ops`,
      g.scenario,
    ]
      .filter((x) => x !== null)
      .join(" · "),
    engine: g.engine,
    source: sourceOf(g.sourceKind, g.sourceId, facets, g.standIn),
    repeats: g.repeats.map((r, repeat) => ({
      repeat,
      runId: r.runId,
      phase: r.phase,
      throughputOpsSec: r.throughputOpsSec,
      verdict: r.verdict,
    })),
    repeatCount: g.repeatCount,
    verdicts: g.verdicts,
    mean: g.throughput.mean,
    ci: g.throughput.ci95,
    stdDev: g.throughput.stdDev,
    cvPct: g.throughput.coefficientOfVariation === null ? null : g.throughput.coefficientOfVariation * 100,
    maxDiffPct: g.throughput.maxDifference === null ? null : g.throughput.maxDifference * 100,
  };
}

export type ScalingSeries = ReturnType<typeof scalingSeries>;
export type DurabilityCell = ReturnType<typeof durabilityCell>;
export type SweepSeries = ReturnType<typeof sweepSeries>;
export type RepeatGroup = ReturnType<typeof repeatGroup>;

/** Scaling series; `single`: those measured at one node count only (no curve: said, not silently dropped). */
export async function fetchScaling(
  params: Record<string, string | undefined>,
): Promise<{ series: ScalingSeries[]; single: ScalingSeries[]; workloads: string[]; scenarios: string[] }> {
  const [body, facets] = await allInOrder([
    getJson("/scaling", params) as Promise<Static<typeof ScalingResponse>>,
    fetchFacets(),
  ]);
  const all = body.series.map((s) => scalingSeries(s, facets));
  // One node count is no scaling curve.
  return {
    series: all.filter((s) => s.points.length > 1),
    single: all.filter((s) => s.points.length === 1),
    workloads: values(facets.workloads),
    scenarios: values(facets.scenarios),
  };
}

export async function fetchDurability(
  params: Record<string, string | undefined>,
): Promise<{ cells: DurabilityCell[]; operations: string[]; leftOut: { invalid: number; incomplete: number } }> {
  const [body, facets] = await allInOrder([
    getJson("/durability", params) as Promise<Static<typeof DurabilityResponse>>,
    fetchFacets(),
  ]);
  const cells = body.rows.map((r) => durabilityCell(r, facets));
  const operations = distinct(cells.flatMap((c) => Object.keys(c.p99Us))).filter((op) => op !== "CLEANUP");
  // Every phase left out, a cell's only ones too (a cell of invalid phases only has no row to say it).
  return { cells, operations, leftOut: body.leftOut };
}

/**
 * Load levels per configuration. `series`: sweeps (more than one thread count); `levels`: every configuration's levels,
 * a single one too (a run at one thread count is a load every preset of it shares: durability's equal load).
 */
export async function fetchSweeps(params: Record<string, string | undefined>): Promise<{
  series: SweepSeries[];
  levels: SweepSeries[];
  engines: string[];
  workloads: string[];
  scenarios: string[];
}> {
  const [body, facets] = await allInOrder([
    getJson("/sweeps", params) as Promise<Static<typeof SweepsResponse>>,
    fetchFacets(),
  ]);
  const swept = body.series;
  const series = swept.map((s) => sweepSeries(s, facets));
  return {
    // A sweep needs more than one thread count.
    series: series.filter((s) => new Set(s.points.map((p) => p.threads)).size > 1),
    levels: series,
    engines: values(facets.engines),
    workloads: values(facets.workloads),
    scenarios: values(facets.scenarios),
  };
}

export async function fetchRepeatability(
  params: Record<string, string | undefined>,
): Promise<{ groups: RepeatGroup[]; scenarios: string[]; workloads: string[] }> {
  const [body, facets] = await allInOrder([
    getJson("/repeatability", params) as Promise<Static<typeof RepeatabilityResponse>>,
    fetchFacets(),
  ]);
  const groups = body.groups.map((g) => repeatGroup(g, facets));
  return { groups, scenarios: values(facets.scenarios), workloads: values(facets.workloads) };
}

/** A configuration of GET /capacity as the "Capacity and cost" view reads it. */
export type CapacityConfiguration = Static<typeof CapacityResponse>["configurations"][number];

/** Capacity searches per configuration: sustainable throughput under the SLO over repeats, and its price. */
export async function fetchCapacity(
  params: Record<string, string | undefined>,
): Promise<Static<typeof CapacityResponse>> {
  return (await getJson("/capacity", params)) as Static<typeof CapacityResponse>;
}
