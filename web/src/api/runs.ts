/** Runs as the views read them: a page of runs, a run's detail and phase series, compare, the landing timeline. */
import type { Static } from "@sinclair/typebox";
import type {
  CompareResponse,
  PhaseResult,
  PhaseSeriesResponse,
  RunsPage,
  RunSummary,
  RunWithPhases,
  TimelineResponse,
  RunAuditResponse,
} from "../../../model/api-schemas.js";
import { getJson } from "./http.js";
import type { OperationAggregate, PhaseSeries, PhaseView, RunDetail, RunRow, RunSource, Timeline } from "./types.js";

/** Query parameters of GET /runs the explorer offers, by their URL names (the API's names). */
export const RUN_FILTERS = [
  "engine",
  "version",
  "preset",
  "nodes",
  "workload",
  "instanceType",
  "scenario",
  "from",
  "to",
  "source",
  "verdict",
] as const;
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
    records: r.records ?? null,
    finishedAt: r.finishedAt,
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
    reasons: p.reasons ?? [],
    runId: p.runId,
    repeat: p.phase.repeat,
    target: p.phase.target,
    // The API says whether every client reported (aggregate.complete): in the model's terms (rules.ts isComplete).
    clientsReported: p.aggregate.complete ? p.phase.clients : Math.min(p.aggregate.clients, p.phase.clients - 1),
  };
}

const runDetail = (r: RawRunWithPhases): RunDetail => ({ run: runRow(r.run), phases: r.phases.map(phaseView) });

/** One page of the runs matching the filters (GET /runs), newest first, and how many match. */
export async function fetchRunPage(
  filters: Record<string, string | undefined>,
  offset: number,
  limit: number,
): Promise<{ total: number; runs: RunRow[] }> {
  const body = (await getJson("/runs", { ...filters, limit, offset })) as Static<typeof RunsPage>;
  return { total: body.total, runs: body.runs.map(runRow) };
}

/** The latest measured runs matching the filters with their headline throughput (the landing chart). */
export async function fetchTimeline(filters: Record<string, string | undefined>): Promise<Timeline> {
  return (await getJson("/timeline", filters)) as Static<typeof TimelineResponse>;
}

export async function fetchRunDetail(id: string): Promise<RunDetail> {
  return runDetail((await getJson(`/runs/${encodeURIComponent(id)}`)) as Static<typeof RunWithPhases>);
}

/** Who quarantined, released or deleted a run, when and why (GET /runs/:id/audit); empty when nobody did. */
export async function fetchRunAudit(id: string): Promise<Static<typeof RunAuditResponse>["entries"]> {
  try {
    return ((await getJson(`/runs/${encodeURIComponent(id)}/audit`)) as Static<typeof RunAuditResponse>).entries;
  } catch {
    return [];
  }
}

export async function fetchPhaseSeries(runId: string, phase: string): Promise<PhaseSeries> {
  const body = (await getJson(
    `/runs/${encodeURIComponent(runId)}/phases/${encodeURIComponent(phase)}/series`,
  )) as Static<typeof PhaseSeriesResponse>;
  const histograms: Record<string, Map<string, number>> = {};
  for (const c of body.clients) {
    for (const [op, buckets] of Object.entries(c.histograms)) {
      const m = (histograms[op] ??= new Map());
      for (const b of buckets) m.set(b.bucket, (m.get(b.bucket) ?? 0) + b.count);
    }
  }
  return {
    status: body.clients.map((c) => ({
      clientIndex: c.clientIndex,
      elapsedSec: c.status.elapsedSec,
      opsPerSec: c.status.opsPerSec,
    })),
    histograms: Object.fromEntries(
      Object.entries(histograms).map(([op, m]) => [op, [...m].map(([bucket, count]) => ({ bucket, count }))]),
    ),
    latency: body.latency ?? {},
  };
}

/** GET /compare in chunks of the API's limit; ids the API does not know are returned as `missing`. */
export async function fetchCompare(ids: readonly string[]): Promise<{ runs: RunDetail[]; missing: string[] }> {
  const runs: RunDetail[] = [];
  const missing: string[] = [];
  for (let i = 0; i < ids.length; i += COMPARE_MAX) {
    const chunk = ids.slice(i, i + COMPARE_MAX).join(",");
    const body = (await getJson("/compare", { runs: chunk })) as Static<typeof CompareResponse>;
    runs.push(...body.runs.map(runDetail));
    missing.push(...body.missing);
  }
  return { runs, missing };
}
