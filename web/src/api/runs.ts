/** Runs as the views read them: a page of runs, a run's detail and phase series, compare, the landing timeline. */
import type { Static } from "@sinclair/typebox";
import type {
  CompareResponse,
  PhaseResult,
  PhaseSeriesResponse,
  RunAuditResponse,
  RunSummary,
  RunsPage,
  RunWithPhases,
  TimelineResponse,
} from "../../../model/api-schemas.js";
import { getJson } from "./http.js";
import type { RunSource, Timeline } from "./types.js";

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

/** A run's source as the views print it: a published table's name follows its study's citation. */
function source(s: RawRunSummary["source"]): RunSource {
  return { kind: s.kind, citation: s.citation && s.table ? `${s.citation}, ${s.table}` : s.citation, seed: s.seed };
}

/** A run as the API states it, with the fields only GET /runs fills given their "none" value elsewhere. */
export function runRow(r: RawRunSummary) {
  return {
    ...r,
    source: source(r.source),
    verdict: r.verdict ?? "unknown",
    reasons: r.reasons ?? [],
    workloads: r.workloads ?? [],
    throughputOpsSec: r.throughputOpsSec ?? null,
    peak: r.peak ?? null,
    records: r.records ?? null,
  };
}

/** An operation's aggregate without the percentiles no client printed. */
export function operationAggregate(o: RawPhaseResult["aggregate"]["operations"][string]) {
  const percentilesUs: Record<string, number> = {};
  for (const [k, v] of Object.entries(o.percentilesUs)) if (v !== null) percentilesUs[k] = v;
  return { ...o, percentilesUs };
}

/** A phase flattened: its description, its aggregate and its verdict side by side. */
export function phaseView(p: RawPhaseResult) {
  const { workload, ...phase } = p.phase;
  return {
    ...phase,
    ...(workload ? { workload } : {}),
    throughputOpsSec: p.aggregate.throughputOpsSec,
    runtimeMs: p.aggregate.runtimeMs,
    operations: Object.fromEntries(
      Object.entries(p.aggregate.operations).map(([op, o]) => [op, operationAggregate(o)]),
    ),
    verdict: p.verdict,
    /** The reasons of its clients' verdicts. */
    reasons: p.reasons ?? [],
    runId: p.runId,
    // The API says whether every client reported (aggregate.complete): in the model's terms (rules.ts isComplete).
    clientsReported: p.aggregate.complete ? p.phase.clients : Math.min(p.aggregate.clients, p.phase.clients - 1),
  };
}

export const runDetail = (r: RawRunWithPhases) => ({
  run: runRow(r.run),
  phases: r.phases.map(phaseView),
  cost: r.cost,
});

export type RunRow = ReturnType<typeof runRow>;
export type RunDetail = ReturnType<typeof runDetail>;
export type PhaseView = ReturnType<typeof phaseView>;
export type OperationAggregate = ReturnType<typeof operationAggregate>;
export interface RunPage {
  total: number;
  runs: RunRow[];
}

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

export type PhaseSeries = Awaited<ReturnType<typeof fetchPhaseSeries>>;

export async function fetchPhaseSeries(runId: string, phase: string) {
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
