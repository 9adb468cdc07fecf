/**
 * The configuration and peak-group rows ingest keeps (configuration_aggregates, peak_aggregates): one row per thing
 * /sweeps, /repeatability, /scaling and /durability draw, for include=valid and include=all, recomputed from its
 * phases whenever one of them changed (a client stored, the run quarantined, released or deleted).
 */
import { phaseNameWithoutRepeat } from "../../../model/plan.js";
import { Prisma } from "../../../prisma/generated/client.js";
import { bulkInsert, type Row, table } from "../ingest-tables.js";
import { type PhaseSummaryRow, phaseSummaries } from "../queries/filters.js";
import { groupBy, MERGE_LIMIT, type OperationParts, phaseOperationParts } from "../queries/phase-groups.js";
import { configurationSummary, peakSummary, phasesNeedingOperations } from "./summaries.js";
import type { Writer } from "./writer.js";

export const CONFIGURATION_AGGREGATES = table("configuration_aggregates", {
  id: "text",
  kind: "text",
  scenario: "text",
  engine: "text",
  engine_version: "text",
  preset: "text",
  nodes: "int",
  source_id: "text",
  source_kind: "text",
  citation: "text",
  stand_in: "text",
  data_instance_type: "text",
  client_instance_type: "text",
  workload: "text",
  phase: "text",
  threads_per_client: "int",
  clients: "int",
  target: "float8",
  operation_count: "int",
  operation_count_per: "text",
  phases: "int",
  first_run_id: "text",
  runs: "jsonb",
  summary_valid: "jsonb",
  summary_all: "jsonb",
});

export const PEAK_AGGREGATES = table("peak_aggregates", {
  id: "text",
  kind: "text",
  scenario: "text",
  engine: "text",
  preset: "text",
  nodes: "int",
  source_id: "text",
  source_kind: "text",
  citation: "text",
  stand_in: "text",
  data_instance_type: "text",
  client_instance_type: "text",
  workload: "text",
  operation_count: "int",
  operation_count_per: "text",
  phases: "int",
  summary_valid: "jsonb",
  summary_all: "jsonb",
});

export interface GroupIds {
  configurations: readonly string[];
  peaks: readonly string[];
}

/** The groups these phases belong to. */
export async function groupsOfPhases(tx: Writer, phaseIds: readonly number[]): Promise<GroupIds> {
  if (phaseIds.length === 0) return { configurations: [], peaks: [] };
  const rows = await tx.$queryRaw<{ c: string | null; p: string | null }[]>`
    SELECT DISTINCT configuration_id AS c, peak_id AS p FROM phases WHERE id = ANY(${[...new Set(phaseIds)]}::int[])`;
  return collect(rows);
}

/** The groups the phases of these runs belong to. */
export async function groupsOfRuns(tx: Writer, runIds: readonly string[]): Promise<GroupIds> {
  if (runIds.length === 0) return { configurations: [], peaks: [] };
  const rows = await tx.$queryRaw<{ c: string | null; p: string | null }[]>`
    SELECT DISTINCT configuration_id AS c, peak_id AS p FROM phases WHERE run_id = ANY(${[...new Set(runIds)]}::text[])`;
  return collect(rows);
}

function collect(rows: readonly { c: string | null; p: string | null }[]): GroupIds {
  return {
    configurations: [...new Set(rows.flatMap((r) => (r.c ? [r.c] : [])))].sort(),
    peaks: [...new Set(rows.flatMap((r) => (r.p ? [r.p] : [])))].sort(),
  };
}

/**
 * Recomputes these groups from their phases. Each group is locked first (a transaction-scoped advisory lock, taken
 * in id order: no deadlock), so of two writers touching one group the later one recomputes after the earlier one
 * committed and sees both; a group without phases left is removed.
 */
export async function refreshGroups(tx: Writer, ids: GroupIds): Promise<void> {
  const locks = [...ids.configurations.map((id) => `c:${id}`), ...ids.peaks.map((id) => `p:${id}`)].sort();
  if (locks.length === 0) return;
  await tx.$queryRaw`SELECT count(pg_advisory_xact_lock(hashtextextended(x, 0)))::int AS n FROM unnest(${locks}::text[]) AS x`;
  if (ids.configurations.length) await refreshConfigurations(tx, ids.configurations);
  if (ids.peaks.length) await refreshPeaks(tx, ids.peaks);
}

/** The operation groups a set of groups' summaries read: histograms merged per group up to MERGE_LIMIT. */
async function operationsOf(tx: Writer, groups: readonly PhaseSummaryRow[][]): Promise<OperationParts> {
  const small = groups.filter((g) => g.length * 4 <= MERGE_LIMIT);
  const large = groups.filter((g) => g.length * 4 > MERGE_LIMIT);
  const ops = await phaseOperationParts(tx, phasesNeedingOperations(small), Number.MAX_SAFE_INTEGER);
  for (const g of large)
    for (const [k, v] of await phaseOperationParts(tx, phasesNeedingOperations([g]), MERGE_LIMIT)) ops.set(k, v);
  return ops;
}

async function refreshConfigurations(tx: Writer, ids: readonly string[]): Promise<void> {
  const rows = await phaseSummaries(tx, {}, [Prisma.sql`p.configuration_id = ANY(${[...ids]}::text[])`]);
  const groups = groupBy(rows, (r) => [r.configurationId]).map((g) => g.rows);
  const ops = await operationsOf(tx, groups);
  const out: Row<typeof CONFIGURATION_AGGREGATES>[] = groups.map((ps) => {
    const first = ps[0]!;
    return {
      id: first.configurationId,
      kind: first.kind,
      scenario: first.scenario,
      engine: first.engine,
      engine_version: first.engineVersion,
      preset: first.preset,
      nodes: first.nodes,
      source_id: first.sourceId,
      source_kind: first.sourceKind,
      citation: first.citation,
      stand_in: first.standIn ?? null,
      data_instance_type: first.dataInstanceType,
      client_instance_type: first.clientInstanceType,
      workload: first.workload,
      phase: phaseNameWithoutRepeat(first.phase),
      threads_per_client: first.threadsPerClient,
      clients: first.clients,
      target: first.target,
      operation_count: first.operationCount,
      operation_count_per: first.operationCountPer,
      phases: ps.length,
      first_run_id: first.runId,
      runs: [...new Set(ps.map((p) => p.runId))],
      summary_valid: configurationSummary(ps, "valid", ops),
      summary_all: configurationSummary(ps, "all", ops),
    };
  });
  await tx.$executeRaw`DELETE FROM configuration_aggregates WHERE id = ANY(${[...ids]}::text[])`;
  if (out.length) await tx.$executeRaw(bulkInsert(CONFIGURATION_AGGREGATES, out));
}

async function refreshPeaks(tx: Writer, ids: readonly string[]): Promise<void> {
  const rows = await phaseSummaries(tx, {}, [Prisma.sql`p.peak_id = ANY(${[...ids]}::text[])`]);
  const groups = groupBy(rows, (r) => [r.peakId]).map((g) => g.rows);
  const ops = await operationsOf(tx, groups);
  const out: Row<typeof PEAK_AGGREGATES>[] = groups.map((rs) => {
    const first = rs[0]!;
    return {
      id: first.peakId,
      kind: first.kind,
      scenario: first.scenario,
      engine: first.engine,
      preset: first.preset,
      nodes: first.nodes,
      source_id: first.sourceId,
      source_kind: first.sourceKind,
      citation: first.citation,
      stand_in: first.standIn ?? null,
      data_instance_type: first.dataInstanceType,
      client_instance_type: first.clientInstanceType,
      workload: first.workload,
      operation_count: first.operationCount,
      operation_count_per: first.operationCountPer,
      phases: rs.length,
      summary_valid: peakSummary(rs, "valid", ops),
      summary_all: peakSummary(rs, "all", ops),
    };
  });
  await tx.$executeRaw`DELETE FROM peak_aggregates WHERE id = ANY(${[...ids]}::text[])`;
  if (out.length) await tx.$executeRaw(bulkInsert(PEAK_AGGREGATES, out));
}
