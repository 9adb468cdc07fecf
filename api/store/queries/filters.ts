/** The read endpoints' filters, as Prisma conditions and as SQL, and the per-phase totals every aggregate view starts from. */
import type { Include } from "../../../model/aggregate/index.js";
import { LIMITS } from "../../../model/result-limits.js";
import { Prisma } from "../../../prisma/generated/client.js";
import type { Db } from "../../db/client.js";
import { type SqlWriter, sqlReader } from "../../db/pg-direct.js";
import { MEASURED_SOURCE } from "../sources.js";
import { storedNumber, storedPhaseThroughput, storedRuntime } from "../stored-values.js";

/** Filters shared by the read endpoints (all optional, all exact matches except the date range). */
export interface RunFilters {
  engine?: string;
  version?: string;
  preset?: string;
  nodes?: number;
  workload?: string;
  instanceType?: string;
  scenario?: string;
  source?: "measured" | "published";
  from?: string;
  to?: string;
  /** GET /runs only: the run's worst verdict (model/aggregate/rules.ts worstVerdict, kept by ingest). */
  verdict?: "valid" | "warning" | "invalid";
  /** Aggregates over phases: "valid" (default) leaves out phases judged invalid and says how many; "all" counts them. */
  include?: Include;
  /** GET /runs only: quarantined runs listed too (default), left out, or only they. */
  quarantined?: "include" | "exclude" | "only";
}

export function runWhere(f: RunFilters): Prisma.RunWhereInput {
  return {
    ...(f.engine ? { engine: f.engine } : {}),
    ...(f.version ? { engineVersion: f.version } : {}),
    ...(f.preset ? { preset: f.preset } : {}),
    ...(f.nodes ? { nodes: f.nodes } : {}),
    ...(f.scenario ? { scenario: f.scenario } : {}),
    ...(f.instanceType ? { OR: [{ dataInstanceType: f.instanceType }, { clientInstanceType: f.instanceType }] } : {}),
    // The measured source by its id: a filter through the sources relation made every listing scan all runs.
    ...(f.source === "measured" ? { sourceId: MEASURED_SOURCE } : f.source ? { source: { kind: f.source } } : {}),
    ...(f.workload ? { phases: { some: { workload: f.workload } } } : {}),
    ...(f.from || f.to
      ? { startedAt: { ...(f.from ? { gte: new Date(f.from) } : {}), ...(f.to ? { lte: new Date(f.to) } : {}) } }
      : {}),
    ...(f.verdict ? { verdict: f.verdict } : {}),
    ...(f.quarantined === "exclude"
      ? { quarantinedAt: null }
      : f.quarantined === "only"
        ? { NOT: { quarantinedAt: null } }
        : {}),
  };
}

/** One row per phase with the totals ingest keeps by the model's rules (scales to 100k client results). */
export interface PhaseSummaryRow {
  phaseId: number;
  runId: string;
  phase: string;
  kind: string;
  workload: string | null;
  threadsPerClient: number;
  clients: number;
  clientsReported: number;
  target: number | null;
  /** The phase's repeat within its run (a plan's "-r<N>"); `runRepeat` the run's own. */
  repeat: number;
  runRepeat: number;
  operationCount: number | null;
  operationCountPer: string | null;
  scenario: string;
  engine: string;
  engineVersion: string;
  preset: string;
  nodes: number;
  /** The stand-in that served instead of the engine, and the machines: part of a configuration's identity. */
  standIn: string | null;
  dataInstanceType: string;
  clientInstanceType: string;
  sourceKind: string;
  sourceId: string;
  citation: string | null;
  referenceTable: string | null;
  throughputOpsSec: number;
  runtimeMs: number;
  verdict: string;
  /** The groups ingest keeps the phase in (model/aggregate/groups.ts): null for a warm-up. */
  configurationId: string | null;
  peakId: string | null;
}

/** Anything that runs a raw query: the client, a transaction of it, or the pool's reader (api/db/pg-direct.ts). */
export type Queryable = Pick<SqlWriter, "$queryRaw">;

/** The filters on a run's own facts (alias `r`), alike for the phase views and the runs list. */
function runFactConditions(f: RunFilters): Prisma.Sql[] {
  const c: Prisma.Sql[] = [];
  if (f.engine) c.push(Prisma.sql`r.engine = ${f.engine}`);
  if (f.version) c.push(Prisma.sql`r.engine_version = ${f.version}`);
  if (f.nodes) c.push(Prisma.sql`r.nodes = ${f.nodes}`);
  if (f.scenario) c.push(Prisma.sql`r.scenario = ${f.scenario}`);
  if (f.instanceType)
    c.push(Prisma.sql`(r.data_instance_type = ${f.instanceType} OR r.client_instance_type = ${f.instanceType})`);
  if (f.from) c.push(Prisma.sql`r.started_at >= ${new Date(f.from)}`);
  if (f.to) c.push(Prisma.sql`r.started_at <= ${new Date(f.to)}`);
  return c;
}

const whereAll = (c: Prisma.Sql[]) => (c.length ? Prisma.sql`WHERE ${Prisma.join(c, " AND ")}` : Prisma.empty);

/** The phase views' filters over phases `p`, their runs `r` and sources `s`. */
export function sqlFilters(f: RunFilters, extra: Prisma.Sql[] = []): Prisma.Sql {
  const c: Prisma.Sql[] = [...extra, ...runFactConditions(f)];
  if (f.preset) c.push(Prisma.sql`p.preset = ${f.preset}`);
  if (f.source) c.push(Prisma.sql`s.kind = ${f.source}`);
  if (f.workload) c.push(Prisma.sql`p.workload = ${f.workload}`);
  return whereAll(c);
}

/**
 * GET /runs' filters over runs `r` alone, the runs `runWhere` selects (test/api/api-run-pages.test.ts holds the two
 * equal for every filter): the run's own preset, its source by id where it is the measured one (by its index), a
 * workload any of its phases ran, its worst verdict, its quarantine.
 */
export function runsWhereSql(f: RunFilters): Prisma.Sql {
  const c = runFactConditions(f);
  if (f.preset) c.push(Prisma.sql`r.preset = ${f.preset}`);
  if (f.source === "measured") c.push(Prisma.sql`r.source_id = ${MEASURED_SOURCE}`);
  else if (f.source)
    c.push(Prisma.sql`EXISTS (SELECT 1 FROM sources s WHERE s.id = r.source_id AND s.kind = ${f.source})`);
  if (f.workload)
    c.push(Prisma.sql`EXISTS (SELECT 1 FROM phases p WHERE p.run_id = r.id AND p.workload = ${f.workload})`);
  if (f.verdict) c.push(Prisma.sql`r.verdict = ${f.verdict}`);
  if (f.quarantined === "exclude") c.push(Prisma.sql`r.quarantined_at IS NULL`);
  else if (f.quarantined === "only") c.push(Prisma.sql`r.quarantined_at IS NOT NULL`);
  return whereAll(c);
}

/**
 * Phases whose stored totals are within the contract (model/result-limits.ts); any other (NaN or Infinity sums, zero
 * clients, written by hand or by an older version) is left out of the aggregate views rather than failing them.
 * NaN compares above every number in Postgres, so each upper bound excludes it too.
 */
export const SANE_PHASE = Prisma.sql`p.throughput_sum >= 0 AND p.throughput_sum <= ${LIMITS.throughputOpsSec * LIMITS.clients}
  AND p.runtime_ms >= 0 AND p.runtime_ms <= ${LIMITS.runtimeMs} AND p.clients >= 1 AND p.threads_per_client >= 1`;

/** A quarantined run (POST /runs/:id/quarantine) is in no aggregate. */
export const NOT_QUARANTINED = Prisma.sql`r.quarantined_at IS NULL`;

/**
 * A page of the runs `where` selects, newest first, as `r` (the caller orders its rows again by
 * `r.started_at DESC, r.id ASC`): the page's keys from the runs' newest-first index (read from the index alone where
 * the filters allow), then each run by key. Sorted whole, a deep page read and sorted every run's full row.
 */
export function newestRunsPage(where: Prisma.Sql, limit: number, offset = 0): Prisma.Sql {
  return Prisma.sql`(SELECT r.id FROM runs r ${where} ORDER BY r.started_at DESC, r.id ASC LIMIT ${limit} OFFSET ${offset}) k
    CROSS JOIN LATERAL (SELECT * FROM runs WHERE runs.id = k.id OFFSET 0) r`;
}

/**
 * Each phase's run looked up by its key, one index probe per phase (OFFSET 0 keeps the planner from flattening it into
 * a join it may answer by hashing every run): for callers naming a few phases (a write's recount), whose cost must
 * not grow with the runs stored.
 */
const RUN_BY_KEY = Prisma.sql`CROSS JOIN LATERAL (SELECT * FROM runs WHERE runs.id = p.run_id OFFSET 0) r`;

/**
 * Measured phases (load and workload) with the totals ingest keeps: no scan of client_results here. `runsByKey`:
 * the extra conditions name few phases (by id), so each one's run is read by key rather than all runs joined.
 */
export async function phaseSummaries(
  db: Queryable,
  f: RunFilters,
  extra: Prisma.Sql[] = [],
  { runsByKey = false } = {},
): Promise<PhaseSummaryRow[]> {
  const rows = await sqlReader(db).$queryRaw<Record<string, unknown>[]>`
    SELECT p.id AS "phaseId", p.run_id AS "runId", p.name AS phase, p.kind, p.workload, p.threads_per_client AS "threadsPerClient",
           p.clients, p.target, p.repeat, r.repeat AS "runRepeat", p.operation_count AS "operationCount", p.operation_count_per AS "operationCountPer",
           r.scenario, r.engine, r.engine_version AS "engineVersion", p.preset, r.nodes, r.stand_in AS "standIn",
           r.data_instance_type AS "dataInstanceType", r.client_instance_type AS "clientInstanceType",
           s.kind AS "sourceKind", s.id AS "sourceId", s.citation, r.reference_table AS "referenceTable",
           p.throughput_sum AS "throughputOpsSec", p.clients_reported AS "clientsReported", p.runtime_ms AS "runtimeMs", p.verdict,
           p.configuration_id AS "configurationId", p.peak_id AS "peakId"
    FROM phases p
    ${runsByKey ? RUN_BY_KEY : Prisma.sql`JOIN runs r ON r.id = p.run_id`}
    JOIN sources s ON s.id = r.source_id
    ${sqlFilters(f, [Prisma.sql`p.clients_reported > 0`, SANE_PHASE, NOT_QUARANTINED, ...extra])}
    ORDER BY r.engine, r.nodes, p.run_id, p.index`;
  return rows.map((r) => ({
    ...r,
    phaseId: Number(r.phaseId),
    nodes: Number(r.nodes),
    repeat: Number(r.repeat),
    runRepeat: Number(r.runRepeat),
    operationCount: r.operationCount === null ? null : Number(r.operationCount),
    throughputOpsSec: storedPhaseThroughput(r.throughputOpsSec) ?? 0,
    runtimeMs: storedRuntime(r.runtimeMs) ?? 0,
    clientsReported: Number(r.clientsReported),
    target: storedNumber(r.target, LIMITS.throughputOpsSec),
  })) as unknown as PhaseSummaryRow[];
}
