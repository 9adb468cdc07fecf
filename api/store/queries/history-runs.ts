/**
 * The runs a window of each configuration's history holds: its newest `last` measured, not quarantined runs that
 * match the filters, with the phase fields of their headlines. Read through runs_history_idx: the configurations by a
 * skip scan (one index probe each), then each configuration's newest runs, then each run's phases by its key, in one
 * statement, so the rows read follow the configurations and the window, not the runs stored.
 */
import { Prisma } from "../../../prisma/generated/client.js";
import type { Db } from "../../db/client.js";
import { sqlReader } from "../../db/pg-direct.js";
import { MEASURED_SOURCE } from "../sources.js";
import type { RunFilters } from "./filters.js";
import { PEAK_FIELDS } from "./run-peak.js";

/** A run of a history as read: its configuration, start, verdict and the phases its headline is taken from. */
export const HISTORY_RUN = {
  id: true,
  scenario: true,
  engine: true,
  engineVersion: true,
  preset: true,
  nodes: true,
  dataInstanceType: true,
  startedAt: true,
  verdict: true,
  phases: { select: PEAK_FIELDS },
} as const;

/** The same row from either read: Prisma's findMany with HISTORY_RUN, or the window's statement below. */
export type HistoryRun = Prisma.RunGetPayload<{ select: typeof HISTORY_RUN }>;

/** The filters that name a configuration's columns: conditions on the index's own leading columns. */
function configurationConditions(f: RunFilters): Prisma.Sql[] {
  const c = [Prisma.sql`r.source_id = ${MEASURED_SOURCE}`];
  if (f.scenario) c.push(Prisma.sql`r.scenario = ${f.scenario}`);
  if (f.engine) c.push(Prisma.sql`r.engine = ${f.engine}`);
  if (f.preset) c.push(Prisma.sql`r.preset = ${f.preset}`);
  if (f.nodes) c.push(Prisma.sql`r.nodes = ${f.nodes}`);
  return c;
}

/** The other filters (runWhere's meaning), checked on each configuration's runs newest first. */
function runConditions(f: RunFilters): Prisma.Sql[] {
  const c = [Prisma.sql`r.quarantined_at IS NULL`];
  if (f.version) c.push(Prisma.sql`r.engine_version = ${f.version}`);
  if (f.instanceType)
    c.push(Prisma.sql`(r.data_instance_type = ${f.instanceType} OR r.client_instance_type = ${f.instanceType})`);
  if (f.workload)
    c.push(Prisma.sql`EXISTS (SELECT 1 FROM phases p WHERE p.run_id = r.id AND p.workload = ${f.workload})`);
  if (f.from) c.push(Prisma.sql`r.started_at >= ${new Date(f.from)}`);
  if (f.to) c.push(Prisma.sql`r.started_at <= ${new Date(f.to)}`);
  return c;
}

const CONFIGURATION = Prisma.sql`r.scenario, r.engine, r.preset, r.nodes, r.data_instance_type`;

/** Each configuration's newest `last` runs (by start) that match the filters, with their phases. */
export async function historyWindowRuns(db: Db, f: RunFilters, last: number): Promise<HistoryRun[]> {
  const where = Prisma.join(configurationConditions(f), " AND ");
  // A SELECT around the WITH: a statement that starts with SELECT takes the read lane (api/db/fair-queue.ts laneOf).
  // Each window must be read from runs_history_idx, in its order. Ordered by start alone (every column before it
  // equal to a value of the row of configurations, so the planner drops them from the order), the planner may walk
  // a start index newest first and filter on the configuration: with 1,000 runs in each of three interleaved
  // configurations it read 29 runs per window of 10, and for a configuration not run lately it would read every run
  // started since. The instance type is therefore bounded on both sides (the same rows as equality, the collation
  // being deterministic) rather than equated, and kept in the order: only runs_history_idx gives (instance type,
  // start descending) without sorting the configuration's every run.
  // The runs are read by the window's statement itself and each run's phases by its key (a lateral lookup): an
  // "id IN (the window)" read after it was planned as a scan of every run while the table was small.
  return sqlReader(db).$queryRaw<HistoryRun[]>`
    SELECT * FROM (WITH RECURSIVE configurations AS (
      (SELECT ${CONFIGURATION} FROM runs r WHERE ${where} ORDER BY ${CONFIGURATION} LIMIT 1)
      UNION ALL
      SELECT n.* FROM configurations c CROSS JOIN LATERAL (
        SELECT ${CONFIGURATION} FROM runs r
        WHERE ${where} AND (${CONFIGURATION}) > (c.scenario, c.engine, c.preset, c.nodes, c.data_instance_type)
        ORDER BY ${CONFIGURATION} LIMIT 1
      ) n
    )
    SELECT w.id, w.scenario, w.engine, w.engine_version AS "engineVersion", w.preset, w.nodes,
      w.data_instance_type AS "dataInstanceType", w.started_at AS "startedAt", w.verdict, ph.phases
    FROM configurations c CROSS JOIN LATERAL (
      SELECT r.id, r.scenario, r.engine, r.engine_version, r.preset, r.nodes, r.data_instance_type, r.started_at,
        r.verdict
      FROM runs r
      WHERE r.source_id = ${MEASURED_SOURCE} AND r.scenario = c.scenario AND r.engine = c.engine
        AND r.preset = c.preset AND r.nodes = c.nodes
        AND r.data_instance_type >= c.data_instance_type AND r.data_instance_type <= c.data_instance_type
        AND ${Prisma.join(runConditions(f), " AND ")}
      ORDER BY r.data_instance_type, r.started_at DESC LIMIT ${last}
    ) w
    CROSS JOIN LATERAL (
      SELECT coalesce(json_agg(json_build_object('name', p.name, 'index', p.index, 'kind', p.kind,
        'workload', p.workload, 'throughputSum', p.throughput_sum, 'clientsReported', p.clients_reported,
        'clients', p.clients, 'threadsPerClient', p.threads_per_client, 'target', p.target, 'repeat', p.repeat,
        'verdict', p.verdict) ORDER BY p.index), '[]') AS phases
      FROM phases p WHERE p.run_id = w.id
    ) ph) window_runs`;
}
