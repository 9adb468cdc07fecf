/**
 * The results API (api/, all under /api/v1) as the dashboard sees it: fetch + types.
 * Views use only these types; the API's response shapes are mapped here and nowhere else.
 */
import type { Static } from "@sinclair/typebox";
import type {
  CompareResponse,
  DurabilityResponse,
  PhaseResult,
  PhaseSeriesResponse,
  AnovaResponse,
  BaselinesResponse,
  FacetsResponse,
  ReferenceTablesResponse,
  RegressionsResponse,
  RepeatabilityResponse,
  RunPeakSchema,
  RunsPage,
  RunSummary,
  RunWithPhases,
  ScalingResponse,
  SweepsResponse,
  TimelineResponse,
} from "../../model/api-schemas.js";
import type { Validity } from "../../model/result-document.js";
import { publishedMs } from "./analysis.js";

export const API_BASE = "/api/v1";

export type Verdict = Validity["verdict"];

export interface RunSource {
  kind: "measured" | "published" | string;
  citation?: string;
  seed?: string;
}

export interface RunRow {
  id: string;
  scenario: string;
  engine: string;
  engineVersion: string;
  preset: string;
  nodes: number;
  dataInstanceType: string;
  clientInstanceType: string;
  replication: number;
  repeat: number;
  startedAt: string;
  source: RunSource;
  standIn?: string;
  /** Worst verdict over the run's client results. */
  verdict: string;
  reasons: string[];
  workloads: string[];
  /** The run's headline: its first workload at its peak load level, mean over repeats (null when it has none). */
  throughputOpsSec: number | null;
  peak: RunPeak | null;
}

export type RunPeak = Static<typeof RunPeakSchema>;
export type Facets = Static<typeof FacetsResponse>;
export type Timeline = Static<typeof TimelineResponse>;
export type Baselines = Static<typeof BaselinesResponse>;
export type Regressions = Static<typeof RegressionsResponse>;
export type ReferenceTable = Static<typeof ReferenceTablesResponse>["tables"][number];
export type Anova = Static<typeof AnovaResponse>;

export interface RunPage {
  total: number;
  runs: RunRow[];
}

export interface OperationAggregate {
  count: number;
  avgUs: number | null;
  /** Merged across clients where the API has HDR histograms, keys as printed ("95", "99", "99.9"). */
  percentilesUs: Record<string, number>;
  /** merged-hdr, single-client or max-of-clients (an upper bound): model/aggregate/phase.ts. */
  percentileMethod: string;
}

/** Two columns of a client's status series (model/status-series.ts), one entry per status line. */
export interface StatusColumnsView {
  elapsedSec: number[];
  opsPerSec: (number | null)[];
}

export interface PhaseView {
  name: string;
  kind: string;
  workload?: string;
  threadsPerClient: number;
  clients: number;
  throughputOpsSec: number;
  runtimeMs: number;
  operations: Record<string, OperationAggregate>;
  verdict: string;
  runId: string;
  /** Which repeat of its load level the phase is, and whether every client reported. */
  repeat: number;
  target: number | null;
  clientsReported: number;
}

export interface PhaseSeries {
  /** One status-line series per client. */
  status: ({ clientIndex: number } & StatusColumnsView)[];
  /** Latency histogram buckets per operation, summed over clients (same bucket bounds, so the sum is exact). */
  histograms: Record<string, { bucket: string; count: number }[]>;
  /** Per operation, from every client's merged HDR histogram (the API's merge): percentile spectrum and 1 ms buckets. */
  latency: Record<string, PhaseDistribution>;
}

export interface PhaseDistribution {
  clients: number;
  count: number;
  spectrum: { percentile: number; valueUs: number }[];
  buckets: { bucket: string; count: number }[];
}

export interface RunDetail {
  run: RunRow;
  phases: PhaseView[];
}

export interface ScalingSeries {
  engine: string;
  workload: string;
  preset: string;
  scenario: string;
  source: RunSource;
  /** Mean over repeats of each repeat's peak, with its 95% CI (null for one repeat) and n. */
  points: { nodes: number; throughputOpsSec: number; ci: { low: number; high: number } | null; n: number }[];
  ideal: { nodes: number; throughputOpsSec: number }[];
  /** Each 1 -> k step: throughput gain over the smallest cluster divided by the linear gain (1 = linear). */
  steps: { fromNodes: number; toNodes: number; efficiency: number }[];
  /** Seed 002's scalability score in percent (4 -> 6 and 4 -> 8 nodes), null unless the series has 4, 6 and 8 nodes. */
  scalabilityScore: number | null;
  /** Phases left out of the means (invalid by default, incomplete always). */
  leftOut: { invalid: number; incomplete: number };
}

export interface DurabilityCell {
  engine: string;
  preset: string;
  workload: string;
  /** Data nodes: presets are compared at one cluster size. */
  nodes: number;
  scenario: string;
  source: RunSource;
  /** Mean over runs of each run's peak phase (the API's rule, seed 004's "maximum throughput"). */
  throughputOpsSec: number | null;
  /** Its 95% CI over repeats (null for one repeat) and the repeats counted. */
  ci: { low: number; high: number } | null;
  n: number;
  /** Runs averaged and the total client threads of their peak phases. */
  runs: number;
  peakThreads: number[];
  p99Us: Record<string, number>;
  /** Per operation: the count and mean latency of the peak phases (count-weighted over clients). */
  latency: Record<string, { count: number; avgUs: number | null }>;
  leftOut: { invalid: number; incomplete: number };
}

export interface SweepSeries {
  engine: string;
  engineVersion: string;
  workload: string;
  preset: string;
  nodes: number;
  scenario: string;
  operationCount: number | null;
  label: string;
  source: RunSource;
  /**
   * A load level's repeats are one point: throughput and runtime as mean with 95% CI (null for one repeat) and n.
   * p99 is the worst operation's (CLEANUP excluded), p99ByOp each operation's, from the clients' merged histograms where the API has them.
   */
  points: {
    threads: number;
    target: number | null;
    phase: string;
    n: number;
    throughputOpsSec: number | null;
    throughputCi: { low: number; high: number } | null;
    runtimeMs: number | null;
    runtimeCi: { low: number; high: number } | null;
    p99Us: number | null;
    p99ByOp: Record<string, number>;
  }[];
}

export interface RepeatGroup {
  label: string;
  engine: string;
  source: RunSource;
  /** In order; `repeat` numbers them 0.. within the group (runs of several repeat indexes, or repeat phases of one run). */
  repeats: { repeat: number; runId: string; phase: string; throughputOpsSec: number }[];
  mean: number | null;
  stdDev: number | null;
  cvPct: number | null;
  /** (max - min) / min in percent, seed 002's "maximum difference". */
  maxDiffPct: number | null;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

export function queryString(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
}

async function getJson(path: string, params: Record<string, string | number | undefined> = {}): Promise<unknown> {
  const url = `${API_BASE}${path}${queryString(params)}`;
  const response = await fetch(url, { headers: { accept: "application/json" } });
  if (!response.ok) {
    let detail = response.statusText;
    try {
      const body = (await response.json()) as { message?: string };
      if (body.message) detail = body.message;
    } catch {
      // Not JSON: keep the status text.
    }
    throw new ApiError(response.status, path, `GET ${path} failed (${response.status}): ${detail}`);
  }
  return response.json();
}

/**
 * Like Promise.all, but when several requests fail the error is the first one's in argument order, not the first
 * to arrive: a view names its own request (GET /scaling) rather than whichever helper request lost the race.
 */
export async function allInOrder<T extends readonly unknown[] | []>(requests: T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(requests as readonly unknown[]);
  const values: unknown[] = [];
  for (const s of settled) {
    if (s.status === "rejected") throw s.reason;
    values.push(s.value);
  }
  return values as { -readonly [K in keyof T]: Awaited<T[K]> };
}

/** Query parameters of GET /runs the explorer offers, by their URL names (the API's names). */
export const RUN_FILTERS = ["engine", "version", "preset", "nodes", "workload", "instanceType", "scenario", "from", "to", "source", "verdict"] as const;
/** The API's limit of run ids per GET /compare. */
const COMPARE_MAX = 20;

// ---- the API's response shapes, from its TypeBox schemas (model/api-schemas.ts): tsc catches any drift ----
type RawRunSummary = Static<typeof RunSummary>;
type RawPhaseResult = Static<typeof PhaseResult>;
type RawRunWithPhases = Static<typeof RunWithPhases>;

function source(s: RawRunSummary["source"]): RunSource {
  return {
    kind: s.kind,
    ...(s.citation ? { citation: s.table ? `${s.citation}, ${s.table}` : s.citation } : {}),
    ...(s.seed ? { seed: s.seed } : {}),
  };
}

function runRow(r: RawRunSummary): RunRow {
  return {
    id: r.id,
    scenario: r.scenario,
    engine: r.engine,
    engineVersion: r.engineVersion,
    preset: r.preset,
    nodes: r.nodes,
    dataInstanceType: r.instanceTypes.data,
    clientInstanceType: r.instanceTypes.client,
    replication: r.replication,
    repeat: r.repeat,
    startedAt: r.startedAt,
    source: source(r.source),
    ...(r.standIn ? { standIn: r.standIn } : {}),
    verdict: r.verdict ?? "unknown",
    reasons: r.reasons ?? [],
    workloads: r.workloads ?? [],
    throughputOpsSec: r.throughputOpsSec ?? null,
    peak: r.peak ?? null,
  };
}

function phaseView(p: RawPhaseResult): PhaseView {
  const operations: Record<string, OperationAggregate> = {};
  for (const [op, o] of Object.entries(p.aggregate.operations)) {
    const percentilesUs: Record<string, number> = {};
    for (const [k, v] of Object.entries(o.percentilesUs)) if (v !== null) percentilesUs[k] = v;
    operations[op] = { count: o.count, avgUs: o.avgUs, percentilesUs, percentileMethod: o.percentileMethod };
  }
  return {
    name: p.phase.name,
    kind: p.phase.kind,
    ...(p.phase.workload ? { workload: p.phase.workload } : {}),
    threadsPerClient: p.phase.threadsPerClient,
    clients: p.phase.clients,
    throughputOpsSec: p.aggregate.throughputOpsSec,
    runtimeMs: p.aggregate.runtimeMs,
    operations,
    verdict: p.verdict,
    runId: p.runId,
    repeat: p.phase.repeat,
    target: p.phase.target,
    // The API says whether every client reported (aggregate.complete): in the model's terms (rules.ts isComplete).
    clientsReported: p.aggregate.complete ? p.phase.clients : Math.min(p.aggregate.clients, p.phase.clients - 1),
  };
}

const runDetail = (r: RawRunWithPhases): RunDetail => ({ run: runRow(r.run), phases: r.phases.map(phaseView) });

/** One page of the runs matching the filters (GET /runs), newest first, and how many match. */
export async function fetchRunPage(filters: Record<string, string | undefined>, offset: number, limit: number): Promise<{ total: number; runs: RunRow[] }> {
  const body = (await getJson("/runs", { ...filters, limit, offset })) as Static<typeof RunsPage>;
  return { total: body.total, runs: body.runs.map(runRow) };
}

/** A request made once per page load and shared; a failed one is tried again by the next caller. */
function oncePerPage<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () =>
    (pending ??= load().catch((e: unknown) => {
      pending = null;
      throw e;
    }));
}

/** The values every filter can take (GET /facets), once per page load: no view downloads the runs for its options. */
export const fetchFacets = oncePerPage(async () => (await getJson("/facets")) as Static<typeof FacetsResponse>);

/** The runs pinned as their configuration's baseline (GET /baselines), once per page load: every view shows the difference to them. */
export const fetchBaselines = oncePerPage(async () => (await getJson("/baselines")) as Static<typeof BaselinesResponse>);

/** Change points in each configuration's history (GET /regressions). */
export async function fetchRegressions(params: Record<string, string | undefined>): Promise<Regressions> {
  return (await getJson("/regressions", params)) as Static<typeof RegressionsResponse>;
}

/** One seed's published tables, verbatim, with latency tables as series (GET /reference?seed=). */
export async function fetchReference(seed: string): Promise<ReferenceTable[]> {
  return ((await getJson("/reference", { seed })) as Static<typeof ReferenceTablesResponse>).tables;
}

/** Seed 003's two-way ANOVA for published and measured sweeps (GET /anova). */
export async function fetchAnova(params: Record<string, string | undefined>): Promise<Anova> {
  return (await getJson("/anova", params)) as Static<typeof AnovaResponse>;
}

/** The latest measured runs matching the filters with their headline throughput (the landing chart). */
export async function fetchTimeline(filters: Record<string, string | undefined>): Promise<Timeline> {
  return (await getJson("/timeline", filters)) as Static<typeof TimelineResponse>;
}

export async function fetchRunDetail(id: string): Promise<RunDetail> {
  return runDetail((await getJson(`/runs/${encodeURIComponent(id)}`)) as Static<typeof RunWithPhases>);
}

export async function fetchPhaseSeries(runId: string, phase: string): Promise<PhaseSeries> {
  const body = (await getJson(`/runs/${encodeURIComponent(runId)}/phases/${encodeURIComponent(phase)}/series`)) as Static<typeof PhaseSeriesResponse>;
  const histograms: Record<string, Map<string, number>> = {};
  for (const c of body.clients) {
    for (const [op, buckets] of Object.entries(c.histograms)) {
      const m = (histograms[op] ??= new Map());
      for (const b of buckets) m.set(b.bucket, (m.get(b.bucket) ?? 0) + b.count);
    }
  }
  return {
    status: body.clients.map((c) => ({ clientIndex: c.clientIndex, elapsedSec: c.status.elapsedSec, opsPerSec: c.status.opsPerSec })),
    histograms: Object.fromEntries(Object.entries(histograms).map(([op, m]) => [op, [...m].map(([bucket, count]) => ({ bucket, count }))])),
    latency: body.latency ?? {},
  };
}

/** GET /compare in chunks of the API's limit; ids the API does not know are returned as `missing`. */
export async function fetchCompare(ids: readonly string[]): Promise<{ runs: RunDetail[]; missing: string[] }> {
  const runs: RunDetail[] = [];
  const missing: string[] = [];
  for (let i = 0; i < ids.length; i += COMPARE_MAX) {
    const body = (await getJson("/compare", { runs: ids.slice(i, i + COMPARE_MAX).join(",") })) as Static<typeof CompareResponse>;
    runs.push(...body.runs.map(runDetail));
    missing.push(...body.missing);
  }
  return { runs, missing };
}

const distinct = (values: (string | null | undefined)[]) => [...new Set(values.filter((v): v is string => !!v))].sort();

/** The source of an aggregated series, as the API groups it: one study (its citation and seed) or measured runs, never a mix. */
function sourceOf(sourceKind: string, sourceId: string, facets: Facets): RunSource {
  if (sourceKind !== "published") return { kind: sourceKind };
  const s = facets.sources.find((x) => x.id === sourceId);
  return { kind: "published", ...(s?.citation ? { citation: s.citation } : {}), ...(s?.seed ? { seed: s.seed } : {}) };
}

const values = <T>(facet: readonly { value: T }[]): T[] => facet.map((f) => f.value);

export async function fetchScaling(params: Record<string, string | undefined>): Promise<{ series: ScalingSeries[]; workloads: string[]; scenarios: string[] }> {
  const [body, facets] = await allInOrder([getJson("/scaling", params) as Promise<Static<typeof ScalingResponse>>, fetchFacets()]);
  const series = body.series
    // One node count is no scaling curve.
    .filter((s) => s.points.length > 1)
    .map((s) => ({
      engine: s.engine,
      workload: s.workload ?? "",
      preset: s.preset,
      scenario: s.scenario,
      source: sourceOf(s.sourceKind, s.sourceId, facets),
      points: s.points.map((p) => ({ nodes: p.nodes, throughputOpsSec: p.throughputOpsSec, ci: p.throughput.ci95 ? { low: p.throughput.ci95.low, high: p.throughput.ci95.high } : null, n: p.throughput.n })),
      ideal: s.analysis.idealLinear,
      steps: s.analysis.steps,
      leftOut: s.leftOut,
      scalabilityScore: s.analysis.score === null ? null : s.analysis.score * 100,
    }));
  return { series, workloads: values(facets.workloads), scenarios: values(facets.scenarios) };
}

export async function fetchDurability(params: Record<string, string | undefined>): Promise<{ cells: DurabilityCell[]; operations: string[] }> {
  const [body, facets] = await allInOrder([getJson("/durability", params) as Promise<Static<typeof DurabilityResponse>>, fetchFacets()]);
  const cells = body.rows.map((r) => ({
    engine: r.engine,
    preset: r.preset,
    workload: r.workload ?? "",
    nodes: r.nodes,
    scenario: r.scenario,
    source: sourceOf(r.sourceKind, r.sourceId, facets),
    throughputOpsSec: r.throughputOpsSec,
    ci: r.throughput.ci95 ? { low: r.throughput.ci95.low, high: r.throughput.ci95.high } : null,
    n: r.throughput.n,
    runs: r.runs,
    peakThreads: r.peakThreads,
    leftOut: r.leftOut,
    p99Us: Object.fromEntries(Object.entries(r.operations).flatMap(([op, o]) => (o.p99Us === null ? [] : [[op, o.p99Us]]))),
    latency: Object.fromEntries(Object.entries(r.operations).map(([op, o]) => [op, { count: o.count, avgUs: o.avgUs }])),
  }));
  const operations = distinct(cells.flatMap((c) => Object.keys(c.p99Us))).filter((op) => op !== "CLEANUP");
  return { cells, operations };
}

/** One published p99 latency (seed 004's tables): engine, preset, workload and operation, as printed. */
export interface PublishedLatencyCell {
  scenario: string;
  engine: string;
  preset: string;
  workload: string;
  nodes: number;
  operation: string;
  ms: number;
  /** Printed as "<1ms": an upper bound, drawn at its value. */
  below: boolean;
  printed: string;
  source: RunSource;
}

/** The published latency tables (GET /reference, derive.metric "p99"), as cells; fetched once per page load. */
export const fetchPublishedLatency = oncePerPage(async (): Promise<PublishedLatencyCell[]> => {
  const body = (await getJson("/reference")) as Static<typeof ReferenceTablesResponse>;
  const cells: PublishedLatencyCell[] = [];
  for (const t of body.tables) {
    const d = t.derive as { metric?: string; scenario: string; workload: string; preset: string; nodes: number; engines: Record<string, string>; operations: Record<string, string> } | null;
    if (d?.metric !== "p99") continue;
    for (const row of t.rows) {
      const engine = d.engines[String(row[0])];
      if (!engine) continue;
      for (const [column, operation] of Object.entries(d.operations)) {
        const printed = row[t.columns.indexOf(column)];
        const value = publishedMs(printed);
        if (!value) continue;
        const source = { kind: "published", citation: t.citation, seed: t.seed };
        cells.push({ scenario: d.scenario, engine, preset: d.preset, workload: d.workload, nodes: d.nodes, operation, ...value, printed: String(printed), source });
      }
    }
  }
  return cells;
});

export async function fetchSweeps(params: Record<string, string | undefined>): Promise<{ series: SweepSeries[]; engines: string[]; workloads: string[]; scenarios: string[] }> {
  const [body, facets] = await allInOrder([getJson("/sweeps", params) as Promise<Static<typeof SweepsResponse>>, fetchFacets()]);
  // A sweep needs more than one thread count.
  const swept = body.series.filter((s) => new Set(s.points.map((p) => p.threads)).size > 1);
  const ci = (c: { low: number; high: number } | null) => (c ? { low: c.low, high: c.high } : null);
  const series = swept.map((s) => ({
    engine: s.engine,
    engineVersion: s.engineVersion,
    workload: s.workload ?? "",
    preset: s.preset,
    nodes: s.nodes,
    scenario: s.scenario,
    operationCount: s.operationCount,
    label: `${s.preset} ${s.nodes}n ${s.workload ?? ""}${s.operationCount === null ? "" : ` ${s.operationCount.toLocaleString("en-US")} ops`} (${s.runId})`,
    source: sourceOf(s.sourceKind, s.sourceId, facets),
    points: s.points.map((p) => {
      const p99ByOp = Object.fromEntries(Object.entries(p.latency).flatMap(([op, l]) => (op === "CLEANUP" || l.p99Us === null ? [] : [[op, l.p99Us]])));
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
      };
    }),
  }));
  return {
    series,
    engines: values(facets.engines),
    workloads: values(facets.workloads),
    scenarios: values(facets.scenarios),
  };
}

export async function fetchRepeatability(params: Record<string, string | undefined>): Promise<{ groups: RepeatGroup[]; scenarios: string[]; workloads: string[] }> {
  const [body, facets] = await allInOrder([getJson("/repeatability", params) as Promise<Static<typeof RepeatabilityResponse>>, fetchFacets()]);
  const groups = body.groups.map((g) => {
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
      source: sourceOf(g.sourceKind, g.sourceId, facets),
      repeats: g.repeats.map((r, repeat) => ({ repeat, runId: r.runId, phase: r.phase, throughputOpsSec: r.throughputOpsSec })),
      mean: g.throughput.mean,
      stdDev: g.throughput.stdDev,
      cvPct: g.throughput.coefficientOfVariation === null ? null : g.throughput.coefficientOfVariation * 100,
      maxDiffPct: g.throughput.maxDifference === null ? null : g.throughput.maxDifference * 100,
    };
  });
  return { groups, scenarios: values(facets.scenarios), workloads: values(facets.workloads) };
}
