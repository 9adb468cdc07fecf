/** Runs as the runs list, a run's page and compare read them: each with its headline peak and its phases aggregated. */
import {
  aggregatePhase,
  type ClientInput,
  type Include,
  isComplete,
  type PhaseAggregate,
  worstVerdict,
} from "../../../model/aggregate/index.js";
import { LIMITS } from "../../../model/result-limits.js";
import { runCost } from "../../../model/run-cost.js";
import { Prisma } from "../../../prisma/generated/client.js";
import type { Db } from "../../db/client.js";
import { spansOf } from "../instance-spans.js";
import {
  storedCount,
  storedLatency,
  storedNumber,
  storedObject,
  storedPhaseThroughput,
  storedReasons,
  storedRuntime,
  storedThroughput,
} from "../stored-values.js";
import { countedByFacets, facetCount } from "./facet-counts.js";
import { type RunFilters, runWhere } from "./filters.js";
import { atPeakOverRepeats, pushTo } from "./phase-groups.js";

export async function listRuns(db: Db, f: RunFilters, page: { limit: number; offset: number }) {
  const where = runWhere(f);
  // The count from the kept counts where they answer it (counting every run was most of a cold page's time).
  const [total, rows] = await Promise.all([
    countedByFacets(f) ? facetCount(db, f) : db.run.count({ where }),
    db.run.findMany({
      where,
      orderBy: [{ startedAt: "desc" }, { id: "asc" }],
      take: page.limit,
      skip: page.offset,
      include: {
        source: true,
        // The explorer's verdict reasons, workloads and headline throughput (the dashboard, issue 7).
        phases: {
          orderBy: { index: "asc" },
          select: PEAK_FIELDS,
        },
      },
    }),
  ]);
  // The verdicts' reasons in one query over the page, only where there are any (most clients have none): loading every
  // client of every listed run to find them made a page of 1,000 runs several times slower.
  const reasons = new Map<string, unknown[]>();
  if (rows.length) {
    // Each listed client's verdict and phase looked up by key (OFFSET 0 keeps a lookup a lookup): joined whole, the
    // planner read every verdict or phase stored to find the page's few.
    const found = await db.$queryRaw<{ runId: string; reasons: unknown }[]>`
      SELECT c.run_id AS "runId", v.reasons FROM client_results c
      CROSS JOIN LATERAL (SELECT w.reasons FROM validity_verdicts w WHERE w.client_result_id = c.id OFFSET 0) v
      CROSS JOIN LATERAL (SELECT q.index FROM phases q WHERE q.id = c.phase_id OFFSET 0) p
      WHERE c.run_id IN (${Prisma.join(rows.map((r) => r.id))}) AND v.reasons <> '[]'::jsonb
      ORDER BY c.run_id, p.index, c.id`;
    for (const r of found) pushTo(reasons, r.runId, r.reasons);
  }
  // Each run's records (its phases' YCSB recordcount): a local cell of a study says its scale by it (model/local-cell.ts).
  const records = new Map<string, number>();
  if (rows.length) {
    const found = await db.$queryRaw<{ runId: string; records: number | null }[]>`
      SELECT run_id AS "runId", max((properties->>'recordcount')::float8) AS records FROM phases
      WHERE run_id IN (${Prisma.join(rows.map((r) => r.id))}) AND properties->>'recordcount' ~ '^[0-9]{1,15}$' GROUP BY run_id`;
    for (const r of found) if (r.records !== null) records.set(r.runId, Number(r.records));
  }
  // The phase count from the phases loaded anyway: a relation _count grouped every phase of the database (seconds at 100,000 runs).
  return {
    total,
    runs: rows.map((r) => ({
      ...runSummary(r),
      phases: r.phases.length,
      verdict: r.verdict,
      records: records.get(r.id) ?? null,
      ...runDetails(r.phases, reasons.get(r.id) ?? []),
    })),
  };
}

/** The reasons behind the run's verdicts, its workloads, and its headline throughput (runPeak). */
function runDetails(phases: PeakPhase[], clientReasons: readonly unknown[]) {
  const reasons = [...new Set(clientReasons.flatMap((r) => storedReasons(r)))];
  const peak = runPeak(phases);
  return {
    reasons,
    workloads: [...new Set(phases.flatMap((p) => (p.workload && p.kind !== "load" ? [p.workload] : [])))],
    throughputOpsSec: peak?.throughput.mean ?? null,
    peak,
  };
}

/** The phase fields a run's headline needs (phases ordered by index). */
export const PEAK_FIELDS = {
  name: true,
  index: true,
  kind: true,
  workload: true,
  throughputSum: true,
  clientsReported: true,
  clients: true,
  threadsPerClient: true,
  target: true,
  repeat: true,
  verdict: true,
} as const;
export type PeakPhase = Prisma.PhaseGetPayload<{ select: typeof PEAK_FIELDS }>;

/**
 * A run's headline throughput: a workload (its first with a complete phase unless named), the mean over repeats at
 * its peak load level (the rules of every aggregate view, so the runs list and compare show the same number for a
 * run). Invalid phases count here unless `include` is "valid": the runs list shows the verdict beside it.
 */
export function runPeak(phases: readonly PeakPhase[], workloadAsked?: string, include: Include = "all") {
  const work = phases.filter((p) => p.kind === "workload").sort((a, b) => a.index - b.index);
  const workload = workloadAsked ?? work.find((p) => isComplete(p))?.workload;
  if (workload === undefined || workload === null) return null;
  const ofWorkload = work
    .filter((p) => p.workload === workload)
    .map((p) => ({ ...p, runId: "", throughputOpsSec: storedPhaseThroughput(p.throughputSum) ?? 0 }));
  const { peaks, throughput } = atPeakOverRepeats(ofWorkload, include);
  const first = peaks[0];
  if (!first || throughput.mean === null) return null;
  return {
    workload,
    phase: first.name,
    threads: first.threadsPerClient * first.clients,
    target: storedNumber(first.target, LIMITS.throughputOpsSec),
    throughput,
  };
}

type RunRow = Prisma.RunGetPayload<{ include: { source: true } }>;
function runSummary(r: RunRow) {
  return {
    id: r.id,
    scenario: r.scenario,
    engine: r.engine,
    engineVersion: r.engineVersion,
    preset: r.preset,
    nodes: r.nodes,
    instanceTypes: { data: r.dataInstanceType, client: r.clientInstanceType },
    replication: r.replication,
    repeat: r.repeat,
    startedAt: r.startedAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
    standIn: r.standIn,
    source: { kind: r.source.kind, citation: r.source.citation, seed: r.source.seed, table: r.referenceTable },
    quarantine: r.quarantinedAt ? { reason: r.quarantineReason ?? "", at: r.quarantinedAt.toISOString() } : null,
  };
}

/**
 * Each phase of the given runs aggregated over its clients: throughput, runtime and completeness from the clients within
 * the contract, the operation groups as ingest keeps them (phase_operations: no client histogram is read here).
 */
async function phaseAggregates(db: Db, where: Prisma.PhaseWhereInput) {
  const phases = await db.phase.findMany({
    where,
    orderBy: [{ runId: "asc" }, { index: "asc" }],
    include: {
      clientResults: {
        select: {
          clientIndex: true,
          throughputOpsSec: true,
          runtimeMs: true,
          validity: { select: { verdict: true, reasons: true } },
        },
      },
      operations: { orderBy: { operation: "asc" } },
    },
  });
  return phases.map((p) => {
    // A client whose throughput or runtime is outside the contract is left out: its phase then reads as incomplete.
    const clients: ClientInput[] = p.clientResults.flatMap((c) => {
      const throughputOpsSec = storedThroughput(c.throughputOpsSec);
      const runtimeMs = storedRuntime(c.runtimeMs);
      if (throughputOpsSec === null || runtimeMs === null) return [];
      return [{ clientIndex: c.clientIndex, throughputOpsSec, runtimeMs, operations: {} }];
    });
    const records = Number(storedObject(p.properties)?.recordcount);
    const aggregate = aggregatePhase(clients, p.clients);
    return {
      runId: p.runId,
      records: Number.isFinite(records) && records > 0 ? records : null,
      phase: {
        name: p.name,
        index: p.index,
        kind: p.kind,
        workload: p.workload,
        threadsPerClient: p.threadsPerClient,
        clients: p.clients,
        target: storedNumber(p.target, LIMITS.throughputOpsSec),
        repeat: p.repeat,
        operationCount: p.operationCount,
      },
      verdict: worstVerdict(p.clientResults.map((c) => c.validity?.verdict)),
      reasons: [...new Set(p.clientResults.flatMap((c) => storedReasons(c.validity?.reasons)))],
      aggregate: {
        ...aggregate,
        operations: Object.fromEntries(p.operations.map((o) => [o.operation, storedPhaseOperation(o)])),
      } as PhaseAggregate,
    };
  });
}

/** The most records a phase of the run was given (YCSB recordcount): the scale it ran at, beside its scenario's. */
function recordsOf(phases: readonly { records: number | null }[]): number | null {
  const rs = phases.map((p) => p.records).filter((r): r is number => r !== null);
  return rs.length ? Math.max(...rs) : null;
}

const withoutRecords = <T extends { records: number | null }>({ records: _records, ...p }: T) => p;

/** A kept operation group as the contract's aggregate (a value outside it reads as unknown). */
function storedPhaseOperation(o: {
  count: number;
  avgUs: number | null;
  minUs: number | null;
  maxUs: number | null;
  percentilesUs: unknown;
  percentileMethod: string;
  averageOfClientAveragesUs: number | null;
}) {
  const percentilesUs: Record<string, number | null> = {};
  for (const [k, v] of Object.entries(storedObject(o.percentilesUs) ?? {})) percentilesUs[k] = storedLatency(v);
  const method =
    (["merged-hdr", "single-client", "max-of-clients"] as const).find((m) => m === o.percentileMethod) ??
    "max-of-clients";
  return {
    count: storedCount(o.count) ?? 0,
    avgUs: storedLatency(o.avgUs),
    minUs: storedLatency(o.minUs),
    maxUs: storedLatency(o.maxUs),
    percentilesUs,
    percentileMethod: method,
    averageOfClientAveragesUs: storedLatency(o.averageOfClientAveragesUs),
  };
}

export async function getRun(db: Db, id: string) {
  const run = await db.run.findUnique({ where: { id }, include: { source: true } });
  if (!run) return null;
  const phases = await phaseAggregates(db, { runId: id });
  const spans = await spansOf(db, [id]);
  const cost = runCost(run.dataInstanceType, spans.get(id) ?? []);
  return { run: { ...runSummary(run), records: recordsOf(phases) }, phases: phases.map(withoutRecords), cost };
}

export async function compareRuns(db: Db, ids: readonly string[]) {
  const runs = await db.run.findMany({ where: { id: { in: [...ids] } }, include: { source: true } });
  const phases = await phaseAggregates(db, { runId: { in: [...ids] } });
  const spans = await spansOf(db, ids);
  return {
    missing: ids.filter((id) => !runs.some((r) => r.id === id)),
    runs: ids.flatMap((id) => {
      const r = runs.find((x) => x.id === id);
      const own = phases.filter((p) => p.runId === id);
      if (!r) return [];
      return [
        {
          run: { ...runSummary(r), records: recordsOf(own) },
          phases: own.map(withoutRecords),
          cost: runCost(r.dataInstanceType, spans.get(id) ?? []),
        },
      ];
    }),
  };
}
