/**
 * The aggregates of rows stored before they existed, or computed by an older version of their rules: rebuilt once
 * when a store is opened (api/db/open.ts), in one transaction under an advisory lock, so two processes opening one
 * Postgres rebuild once. Bump a version here whenever what a row holds changes (a rule, a key, a summary's shape).
 */
import type { Db } from "../../db/client.js";
import { storedObject } from "../stored-values.js";
import { refreshGroups } from "./groups.js";
import { type GroupedPhase, phaseGroupIds } from "./keys.js";
import { refreshPhaseOperations } from "./phase-operations.js";
import { refreshRunHeadlines } from "./run-headlines.js";
import type { Writer } from "./writer.js";

// groups 2: keys with the stand-in and machines (model/aggregate/repeats.ts deploymentIdentity), peak summaries at the
// level of the highest mean over repeats (model/aggregate/rules.ts peakLevelOverRepeats).
// groups 3: each summary keeps the verdict of the phases it stands on (verdict, suspect), drawn by the views.
// run-headlines 1: each run's headline kept on its row (run-headlines.ts).
export const AGGREGATE_VERSIONS = { "phase-operations": 1, groups: 3, "run-headlines": 1 } as const;
type AggregateName = keyof typeof AGGREGATE_VERSIONS;

const BATCH = 500;

/** Rebuilds what is stale; returns the names rebuilt (none on a store that is current). */
export async function rebuildAggregates(db: Db): Promise<AggregateName[]> {
  const stale = await staleAggregates(db);
  if (stale.length === 0) return [];
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended('ycsb-lab aggregates rebuild', 0))`;
      const todo = await staleAggregates(tx);
      if (todo.includes("phase-operations")) await rebuildPhaseOperations(tx);
      // Groups read the phases' operation groups: rebuilt after them.
      if (todo.includes("groups") || todo.includes("phase-operations")) await rebuildGroups(tx);
      if (todo.includes("run-headlines")) await rebuildRunHeadlines(tx);
      for (const name of todo) {
        await tx.$executeRaw`INSERT INTO aggregate_versions (name, version) VALUES (${name}, ${AGGREGATE_VERSIONS[name]})
          ON CONFLICT (name) DO UPDATE SET version = EXCLUDED.version`;
      }
      return todo;
    },
    { timeout: 60 * 60_000, maxWait: 10 * 60_000 },
  );
}

async function staleAggregates(db: Writer): Promise<AggregateName[]> {
  const rows = await db.$queryRaw<{ name: string; version: number }[]>`SELECT name, version FROM aggregate_versions`;
  return (Object.keys(AGGREGATE_VERSIONS) as AggregateName[]).filter(
    (n) => rows.find((r) => r.name === n)?.version !== AGGREGATE_VERSIONS[n],
  );
}

async function rebuildRunHeadlines(tx: Writer): Promise<void> {
  const ids = (await tx.$queryRaw<{ id: string }[]>`SELECT id FROM runs ORDER BY id`).map((r) => r.id);
  for (let i = 0; i < ids.length; i += BATCH) await refreshRunHeadlines(tx, ids.slice(i, i + BATCH));
}

async function rebuildPhaseOperations(tx: Writer): Promise<void> {
  const ids = (await tx.$queryRaw<{ id: number }[]>`SELECT id FROM phases ORDER BY id`).map((r) => Number(r.id));
  for (let i = 0; i < ids.length; i += BATCH) await refreshPhaseOperations(tx, ids.slice(i, i + BATCH));
}

/** Every phase's groups from its stored facts (the keys ingest computes from the document), then every group. */
async function rebuildGroups(tx: Writer): Promise<void> {
  const phases = await tx.$queryRaw<(Omit<GroupedPhase, "properties"> & { id: number; properties: unknown })[]>`
    SELECT p.id, p.kind, r.scenario, r.engine, r.engine_version AS "engineVersion", p.preset, r.nodes, r.source_id AS "sourceId", r.stand_in AS "standIn",
           r.data_instance_type AS "dataInstanceType", r.client_instance_type AS "clientInstanceType", p.workload,
           p.name, p.threads_per_client AS "threadsPerClient", p.clients, p.target, p.operation_count AS "operationCount",
           p.operation_count_per AS "operationCountPer", p.properties
    FROM phases p JOIN runs r ON r.id = p.run_id ORDER BY p.id`;
  const ids = phases.map((p) => ({
    id: Number(p.id),
    ...phaseGroupIds({
      ...p,
      nodes: Number(p.nodes),
      operationCount: p.operationCount === null ? null : Number(p.operationCount),
      properties: storedObject(p.properties) ?? {},
    }),
  }));
  for (let i = 0; i < ids.length; i += BATCH) {
    const rows = ids.slice(i, i + BATCH).map((x) => ({ id: x.id, c: x.configurationId, p: x.peakId }));
    await tx.$executeRaw`UPDATE phases SET configuration_id = x.c, peak_id = x.p
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(id int, c text, p text) WHERE phases.id = x.id`;
  }
  // The groups' marks only: a run's headline mark (run-headlines.ts) is not a group's.
  await tx.$executeRaw`DELETE FROM dirty_groups WHERE id LIKE 'c:%' OR id LIKE 'p:%'`;
  await tx.$executeRaw`DELETE FROM dirty_group_phases`;
  await tx.$executeRaw`DELETE FROM group_states`;
  await tx.$executeRaw`DELETE FROM configuration_aggregates`;
  await tx.$executeRaw`DELETE FROM peak_aggregates`;
  const configurations = [...new Set(ids.flatMap((x) => (x.configurationId ? [x.configurationId] : [])))].sort();
  const peaks = [...new Set(ids.flatMap((x) => (x.peakId ? [x.peakId] : [])))].sort();
  for (let i = 0; i < Math.max(configurations.length, peaks.length); i += BATCH) {
    await refreshGroups(tx, { configurations: configurations.slice(i, i + BATCH), peaks: peaks.slice(i, i + BATCH) });
  }
}
