/** Runs as the runs list, a run's page and compare read them: each with its headline peak and its phases aggregated. */
import { aggregatePhase, type ClientInput, type PhaseAggregate, worstVerdict } from "../../../model/aggregate/index.js";
import { LIMITS } from "../../../model/result-limits.js";
import { runCost } from "../../../model/run-cost.js";
import { Prisma } from "../../../prisma/generated/client.js";
import type { Db } from "../../db/client.js";
import { headlinesOf } from "../aggregates/run-headlines.js";
import { spansOf } from "../instance-spans.js";
import {
  storedCount,
  storedLatency,
  storedNumber,
  storedObject,
  storedReasons,
  storedRuntime,
  storedThroughput,
} from "../stored-values.js";
import { countedByFacets, facetCount } from "./facet-counts.js";
import { type RunFilters, runWhere } from "./filters.js";
import { pushTo } from "./phase-groups.js";

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
      include: { source: true },
    }),
  ]);
  // The explorer's workloads and headline throughput (the dashboard, issue 7), kept on each run (run-headlines.ts).
  const headlines = await headlinesOf(
    db,
    rows.map((r) => r.id),
  );
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
  return {
    total,
    runs: rows.map((r) => {
      const h = headlines.get(r.id) ?? { phases: 0, records: null, workloads: [], peak: null };
      return {
        ...runSummary(r),
        phases: h.phases,
        verdict: r.verdict,
        records: h.records,
        reasons: [...new Set((reasons.get(r.id) ?? []).flatMap((x) => storedReasons(x)))],
        workloads: h.workloads,
        throughputOpsSec: h.peak?.throughput.mean ?? null,
        peak: h.peak,
      };
    }),
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
