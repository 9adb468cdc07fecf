/** Runs as the runs list, a run's page and compare read them: each with its headline peak and its phases aggregated. */
import { aggregatePhase, type ClientInput, type PhaseAggregate, worstVerdict } from "../../../model/aggregate/index.js";
import { LIMITS } from "../../../model/result-limits.js";
import { runCost } from "../../../model/run-cost.js";
import { Prisma } from "../../../prisma/generated/client.js";
import type { Db } from "../../db/client.js";
import { sqlReader } from "../../db/pg-direct.js";
import { HEADLINE_MARK, HEADLINE_PENDING, headlinesFromKept, type KeptHeadline } from "../aggregates/run-headlines.js";
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
import { newestRunsPage, type Queryable, type RunFilters, runsWhereSql } from "./filters.js";
import { pushTo } from "./phase-groups.js";

/**
 * A run as the pages list it, with its source: read by one statement shaped as the answer (the run page, compare and
 * the list each), on Postgres on the pool directly (api/db/pg-direct.ts sqlReader). Prisma's nested includes sent one
 * statement per relation and assembled the rows in the API's thread: most of a page's time beside a writer.
 */
export type RunPageRow = Pick<
  Prisma.RunGetPayload<object>,
  | "id"
  | "scenario"
  | "engine"
  | "engineVersion"
  | "preset"
  | "nodes"
  | "dataInstanceType"
  | "clientInstanceType"
  | "replication"
  | "repeat"
  | "startedAt"
  | "finishedAt"
  | "standIn"
  | "verdict"
  | "referenceTable"
  | "quarantineReason"
  | "quarantinedAt"
> & { sourceKind: string; sourceCitation: string | null; sourceSeed: string | null };

const RUN_PAGE_COLUMNS = Prisma.sql`r.id, r.scenario, r.engine, r.engine_version AS "engineVersion", r.preset, r.nodes,
  r.data_instance_type AS "dataInstanceType", r.client_instance_type AS "clientInstanceType", r.replication, r.repeat,
  r.started_at AS "startedAt", r.finished_at AS "finishedAt", r.stand_in AS "standIn", r.verdict,
  r.reference_table AS "referenceTable", r.quarantine_reason AS "quarantineReason", r.quarantined_at AS "quarantinedAt",
  s.kind AS "sourceKind", s.citation AS "sourceCitation", s.seed AS "sourceSeed"`;

/** A listed run: its page row, its kept headline with its pending mark, its clients' verdicts' reasons (or null). */
type ListedRunRow = RunPageRow & KeptHeadline & { reasons: unknown[] | null };

/** These runs with their sources, in one statement (absent ids are absent). */
async function runsByIds(db: Queryable, ids: readonly string[]): Promise<RunPageRow[]> {
  if (ids.length === 0) return [];
  return sqlReader(db).$queryRaw<
    RunPageRow[]
  >`SELECT ${RUN_PAGE_COLUMNS} FROM runs r JOIN sources s ON s.id = r.source_id
    WHERE r.id = ANY(${[...ids]}::text[])`;
}

export async function listRuns(db: Db, f: RunFilters, page: { limit: number; offset: number }) {
  const reader = sqlReader(db);
  const where = runsWhereSql(f);
  // The count from the kept counts where they answer it (counting every run was most of a cold page's time).
  const [total, rows] = await Promise.all([
    countedByFacets(f)
      ? facetCount(db, f)
      : reader.$queryRaw<{ n: bigint | number }[]>`SELECT count(*) AS n FROM runs r ${where}`.then((r) =>
          Number(r[0]?.n ?? 0),
        ),
    // The page's keys first, then its runs and sources by key (filters.ts newestRunsPage): sorted whole, a deep page
    // (offset 9,900 of 10,000) cost the server 14-23 ms, the most of any view beside a writer (docs/benchmarks.md).
    // In the same statement, by key: each run's kept headline and pending mark (run-headlines.ts), and the reasons of
    // its clients' verdicts where there are any (most clients have none), in phase order. Four statements a page before.
    reader.$queryRaw<ListedRunRow[]>`SELECT ${RUN_PAGE_COLUMNS}, r.headline, ${HEADLINE_PENDING}, rs.reasons
      FROM ${newestRunsPage(where, page.limit, page.offset)} JOIN sources s ON s.id = r.source_id
      ${HEADLINE_MARK}
      LEFT JOIN LATERAL (
        SELECT json_agg(v.reasons ORDER BY p.index, c.id) AS reasons FROM client_results c
        CROSS JOIN LATERAL (SELECT w.reasons FROM validity_verdicts w WHERE w.client_result_id = c.id OFFSET 0) v
        CROSS JOIN LATERAL (SELECT q.index FROM phases q WHERE q.id = c.phase_id OFFSET 0) p
        WHERE c.run_id = r.id AND v.reasons <> '[]'::jsonb) rs ON true
      ORDER BY r.started_at DESC, r.id ASC`,
  ]);
  // The explorer's workloads and headline throughput (the dashboard, issue 7), kept on each run (run-headlines.ts).
  const headlines = await headlinesFromKept(reader, rows);
  return {
    total,
    runs: rows.map((r) => {
      const h = headlines.get(r.id) ?? { phases: 0, records: null, workloads: [], peak: null };
      return {
        ...runSummary(r),
        phases: h.phases,
        verdict: r.verdict,
        records: h.records,
        reasons: [...new Set((Array.isArray(r.reasons) ? r.reasons : []).flatMap((x) => storedReasons(x)))],
        workloads: h.workloads,
        throughputOpsSec: h.peak?.throughput.mean ?? null,
        peak: h.peak,
      };
    }),
  };
}

function runSummary(r: RunPageRow) {
  return {
    id: r.id,
    scenario: r.scenario,
    engine: r.engine,
    engineVersion: r.engineVersion,
    preset: r.preset,
    nodes: Number(r.nodes),
    instanceTypes: { data: r.dataInstanceType, client: r.clientInstanceType },
    replication: Number(r.replication),
    repeat: Number(r.repeat),
    startedAt: r.startedAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
    standIn: r.standIn,
    source: { kind: r.sourceKind, citation: r.sourceCitation, seed: r.sourceSeed, table: r.referenceTable },
    quarantine: r.quarantinedAt ? { reason: r.quarantineReason ?? "", at: r.quarantinedAt.toISOString() } : null,
  };
}

/** A kept operation group (phase_operations) as the run pages read it. */
interface KeptOperation {
  count: number;
  avgUs: number | null;
  minUs: number | null;
  maxUs: number | null;
  percentilesUs: unknown;
  percentileMethod: string;
  averageOfClientAveragesUs: number | null;
}

interface PhaseAggregateRow {
  runId: string;
  name: string;
  index: number;
  kind: string;
  workload: string | null;
  threadsPerClient: number;
  clients: number;
  target: number | null;
  repeat: number;
  operationCount: number | null;
  recordcount: unknown;
  clientRows: {
    clientIndex: number;
    throughputOpsSec: unknown;
    runtimeMs: unknown;
    verdict: string | null;
    reasons: unknown;
  }[];
  operations: ({ operation: string } & KeptOperation)[];
}

/**
 * Each phase of the given runs aggregated over its clients: throughput, runtime and completeness from the clients within
 * the contract, the operation groups as ingest keeps them (phase_operations: no client histogram is read here). One
 * statement: each phase with its clients (in id order) and its kept groups built as json by the database.
 */
async function phaseAggregates(db: Queryable, runIds: readonly string[]) {
  if (runIds.length === 0) return [];
  const phases = await sqlReader(db).$queryRaw<PhaseAggregateRow[]>`
    SELECT p.run_id AS "runId", p.name, p.index, p.kind, p.workload, p.threads_per_client AS "threadsPerClient",
           p.clients, p.target, p.repeat, p.operation_count AS "operationCount", p.properties -> 'recordcount' AS recordcount,
           c.rows AS "clientRows", o.rows AS operations
    FROM phases p
    CROSS JOIN LATERAL (
      SELECT coalesce(json_agg(json_build_object('clientIndex', c.client_index, 'throughputOpsSec', c.throughput_ops_sec,
               'runtimeMs', c.runtime_ms, 'verdict', v.verdict, 'reasons', v.reasons) ORDER BY c.id), '[]'::json) AS rows
      FROM client_results c LEFT JOIN validity_verdicts v ON v.client_result_id = c.id WHERE c.phase_id = p.id) c
    CROSS JOIN LATERAL (
      SELECT coalesce(json_agg(json_build_object('operation', o.operation, 'count', o.count, 'avgUs', o.avg_us,
               'minUs', o.min_us, 'maxUs', o.max_us, 'percentilesUs', o.percentiles_us, 'percentileMethod', o.percentile_method,
               'averageOfClientAveragesUs', o.average_of_client_averages_us) ORDER BY o.operation), '[]'::json) AS rows
      FROM phase_operations o WHERE o.phase_id = p.id) o
    WHERE p.run_id = ANY(${[...runIds]}::text[])
    ORDER BY p.run_id, p.index`;
  return phases.map((p) => {
    // A client whose throughput or runtime is outside the contract is left out: its phase then reads as incomplete.
    const clients: ClientInput[] = p.clientRows.flatMap((c) => {
      const throughputOpsSec = storedThroughput(c.throughputOpsSec);
      const runtimeMs = storedRuntime(c.runtimeMs);
      if (throughputOpsSec === null || runtimeMs === null) return [];
      return [{ clientIndex: Number(c.clientIndex), throughputOpsSec, runtimeMs, operations: {} }];
    });
    const records = Number(p.recordcount);
    const aggregate = aggregatePhase(clients, Number(p.clients));
    return {
      runId: p.runId,
      records: Number.isFinite(records) && records > 0 ? records : null,
      phase: {
        name: p.name,
        index: Number(p.index),
        kind: p.kind,
        workload: p.workload,
        threadsPerClient: Number(p.threadsPerClient),
        clients: Number(p.clients),
        target: storedNumber(p.target, LIMITS.throughputOpsSec),
        repeat: Number(p.repeat),
        operationCount: p.operationCount === null ? null : Number(p.operationCount),
      },
      verdict: worstVerdict(p.clientRows.map((c) => c.verdict)),
      reasons: [...new Set(p.clientRows.flatMap((c) => storedReasons(c.reasons)))],
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
function storedPhaseOperation(o: KeptOperation) {
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
  const reader = sqlReader(db);
  const [run] = await runsByIds(reader, [id]);
  if (!run) return null;
  const phases = await phaseAggregates(reader, [id]);
  const spans = await spansOf(db, [id]);
  const cost = runCost(run.dataInstanceType, spans.get(id) ?? []);
  return { run: { ...runSummary(run), records: recordsOf(phases) }, phases: phases.map(withoutRecords), cost };
}

export async function compareRuns(db: Db, ids: readonly string[]) {
  const reader = sqlReader(db);
  const runs = await runsByIds(reader, ids);
  const phases = await phaseAggregates(reader, ids);
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
