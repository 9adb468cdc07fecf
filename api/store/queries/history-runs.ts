/**
 * The runs a window of each configuration's history holds: its newest `last` measured, not quarantined runs that
 * match the filters. Read through runs_history_idx: the configurations by a skip scan (one index probe each), then
 * each configuration's newest runs, so the rows read follow the configurations and the window, not the runs stored.
 */
import { Prisma } from "../../../prisma/generated/client.js";
import { MEASURED_SOURCE } from "../sources.js";
import type { Queryable, RunFilters } from "./filters.js";

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

/** Ids of each configuration's newest `last` runs (by start) that match the filters. */
export async function historyWindowRunIds(db: Queryable, f: RunFilters, last: number): Promise<string[]> {
  const where = Prisma.join(configurationConditions(f), " AND ");
  // A SELECT around the WITH: a statement that starts with SELECT takes the read lane (api/db/fair-queue.ts laneOf).
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT id FROM (WITH RECURSIVE configurations AS (
      (SELECT ${CONFIGURATION} FROM runs r WHERE ${where} ORDER BY ${CONFIGURATION} LIMIT 1)
      UNION ALL
      SELECT n.* FROM configurations c CROSS JOIN LATERAL (
        SELECT ${CONFIGURATION} FROM runs r
        WHERE ${where} AND (${CONFIGURATION}) > (c.scenario, c.engine, c.preset, c.nodes, c.data_instance_type)
        ORDER BY ${CONFIGURATION} LIMIT 1
      ) n
    )
    SELECT w.id FROM configurations c CROSS JOIN LATERAL (
      SELECT r.id FROM runs r
      WHERE r.source_id = ${MEASURED_SOURCE} AND r.scenario = c.scenario AND r.engine = c.engine
        AND r.preset = c.preset AND r.nodes = c.nodes AND r.data_instance_type = c.data_instance_type
        AND ${Prisma.join(runConditions(f), " AND ")}
      ORDER BY r.started_at DESC LIMIT ${last}
    ) w) window_runs`;
  return rows.map((r) => r.id);
}
