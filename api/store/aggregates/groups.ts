/**
 * The configuration and peak-group rows ingest keeps (configuration_aggregates, peak_aggregates): one row per thing
 * /sweeps, /repeatability, /scaling and /durability draw, for include=valid and include=all, recounted whenever one
 * of its phases changed: from the phases a write added and the group's kept state (group-state.ts, group_states), or
 * from all of its phases when there is no state or a run left it (quarantined, released, deleted).
 */
import { isComplete } from "../../../model/aggregate/index.js";
import { phaseNameWithoutRepeat } from "../../../model/plan.js";
import { Prisma } from "../../../prisma/generated/client.js";
import { bulkInsert, type Row, table } from "../ingest-tables.js";
import { type PhaseSummaryRow, phaseSummaries } from "../queries/filters.js";
import { pushTo } from "../queries/phase-groups.js";
import { storedCount, storedLatency } from "../stored-values.js";
import {
  decodeState,
  encodeState,
  type GroupState,
  mergedOf,
  mergesHistograms,
  type OperationEntry,
  type ReadPhase,
  rowsOf,
  stateOf,
  withPhases,
} from "./group-state.js";
import { repeatListing, summaryHead } from "./listing.js";
import { configurationSummary, peakSummary } from "./summaries.js";
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
  head_valid: "jsonb",
  head_all: "jsonb",
  listing_valid: "jsonb",
  listing_all: "jsonb",
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

/** The groups these phases belong to (each phase looked up by its key: a write's phases, not every one stored). */
export async function groupsOfPhases(tx: Writer, phaseIds: readonly number[]): Promise<GroupIds> {
  if (phaseIds.length === 0) return { configurations: [], peaks: [] };
  const rows = await tx.$queryRaw<{ c: string | null; p: string | null }[]>`
    SELECT DISTINCT p.configuration_id AS c, p.peak_id AS p FROM unnest(${[...new Set(phaseIds)]}::int[]) AS k(id)
    CROSS JOIN LATERAL (SELECT configuration_id, peak_id FROM phases WHERE id = k.id OFFSET 0) p`;
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

/** Each kept group's state (group-state.ts) as JSON text, by its dirty id ("c:<id>", "p:<id>"). */
export const GROUP_STATES = table("group_states", { id: "text", state: "text" });

/** The phases written since a group was last counted, by its dirty id; a group not here is recounted whole. */
export type WrittenPhases = ReadonlyMap<string, readonly number[]>;

/**
 * Recounts these groups. Each group is locked first (a transaction-scoped advisory lock, taken in id order: no
 * deadlock), so of two writers touching one group the later one recounts after the earlier one committed and sees
 * both. A group with a kept state and its written phases named reads only those phases; any other is recounted from
 * all of its phases; a group without phases left is removed.
 */
export async function refreshGroups(tx: Writer, ids: GroupIds, written: WrittenPhases = new Map()): Promise<void> {
  const locks = [...ids.configurations.map((id) => `c:${id}`), ...ids.peaks.map((id) => `p:${id}`)].sort();
  if (locks.length === 0) return;
  await tx.$queryRaw`SELECT count(pg_advisory_xact_lock(hashtextextended(x, 0)))::int AS n FROM unnest(${locks}::text[]) AS x`;
  if (ids.configurations.length) await refreshKind(tx, CONFIGURATION, ids.configurations, written);
  if (ids.peaks.length) await refreshKind(tx, PEAK, ids.peaks, written);
}

interface Kind<T extends typeof CONFIGURATION_AGGREGATES | typeof PEAK_AGGREGATES> {
  prefix: string;
  column: Prisma.Sql;
  table: T;
  groupOf: (row: PhaseSummaryRow) => string | null;
  row: (id: string, state: GroupState) => Row<T>;
}

const CONFIGURATION: Kind<typeof CONFIGURATION_AGGREGATES> = {
  prefix: "c:",
  column: Prisma.raw("configuration_id"),
  table: CONFIGURATION_AGGREGATES,
  groupOf: (r) => r.configurationId,
  row: configurationRow,
};
const PEAK: Kind<typeof PEAK_AGGREGATES> = {
  prefix: "p:",
  column: Prisma.raw("peak_id"),
  table: PEAK_AGGREGATES,
  groupOf: (r) => r.peakId,
  row: peakRow,
};

async function refreshKind<T extends typeof CONFIGURATION_AGGREGATES | typeof PEAK_AGGREGATES>(
  tx: Writer,
  kind: Kind<T>,
  ids: readonly string[],
  written: WrittenPhases,
): Promise<void> {
  const kept = await keptStates(
    tx,
    ids.filter((id) => written.has(kind.prefix + id)).map((id) => kind.prefix + id),
  );
  const states = await addWritten(tx, kind, kept, written);
  const whole = ids.filter((id) => !states.has(id));
  for (const [id, state] of await wholeStates(tx, kind, whole)) states.set(id, state);
  const keys = ids.map((id) => kind.prefix + id);
  await tx.$executeRaw`DELETE FROM group_states WHERE id = ANY(${keys}::text[])`;
  await tx.$executeRaw`DELETE FROM ${Prisma.raw(kind.table.name)} WHERE id = ANY(${[...ids]}::text[])`;
  if (states.size === 0) return;
  const out = [...states].map(([id, state]) => kind.row(id, state));
  await tx.$executeRaw(bulkInsert(kind.table, out));
  const saved = [...states].map(([id, state]) => ({ id: kind.prefix + id, state: encodeState(state) }));
  await tx.$executeRaw(bulkInsert(GROUP_STATES, saved));
}

async function keptStates(tx: Writer, keys: readonly string[]): Promise<Map<string, GroupState>> {
  if (keys.length === 0) return new Map();
  const rows = await tx.$queryRaw<{ id: string; state: string }[]>`
    SELECT id, state FROM group_states WHERE id = ANY(${[...keys]}::text[])`;
  return new Map(rows.map((r) => [r.id, decodeState(r.state)]));
}

/**
 * The kept states with the written phases added, by group id: those phases read alone. A group missing here is
 * recounted whole (no state, a written phase gone from it, or a change withPhases cannot add).
 */
async function addWritten<T extends typeof CONFIGURATION_AGGREGATES | typeof PEAK_AGGREGATES>(
  tx: Writer,
  kind: Kind<T>,
  kept: ReadonlyMap<string, GroupState>,
  written: WrittenPhases,
): Promise<Map<string, GroupState>> {
  const out = new Map<string, GroupState>();
  const groupIds = [...kept.keys()].map((k) => k.slice(kind.prefix.length));
  const phaseIds = [...kept.keys()].flatMap((k) => written.get(k) ?? []);
  if (groupIds.length === 0) return out;
  const read = await readPhases(tx, kind, groupIds, phaseIds);
  const sorted = await runOrder(tx, kept, read, kind.prefix);
  for (const [key, state] of kept) {
    const id = key.slice(kind.prefix.length);
    const phases = read.get(id) ?? [];
    const present = new Set(state.phases.map((p) => p.phaseId));
    const found = new Set(phases.map((p) => p.row.phaseId));
    // A written phase the state holds but the read did not find left the group (its run quarantined meanwhile).
    if ((written.get(key) ?? []).some((p) => present.has(p) && !found.has(p))) continue;
    const order = keptOrder(state, phases, sorted);
    let next = withPhases(state, phases, order);
    if (next === "histograms") {
      await readHistograms(tx, phases);
      next = withPhases(state, phases, order);
    }
    if (typeof next !== "string") out.set(id, next);
  }
  return out;
}

/**
 * The run ids of the groups whose written phases bring a run they did not hold, ranked as the database orders text
 * (phaseSummaries orders by run id; a collation need not be JavaScript's): one sort of those groups' run ids.
 */
async function runOrder(
  tx: Writer,
  kept: ReadonlyMap<string, GroupState>,
  read: ReadonlyMap<string, ReadPhase[]>,
  prefix: string,
): Promise<Map<string, number>> {
  const ids = new Set<string>();
  for (const [key, state] of kept) {
    const known = new Set(state.phases.map((p) => p.runId));
    const added = (read.get(key.slice(prefix.length)) ?? []).filter((p) => !known.has(p.row.runId));
    if (added.length === 0) continue;
    for (const id of known) ids.add(id);
    for (const p of added) ids.add(p.row.runId);
  }
  if (ids.size === 0) return new Map();
  const sorted = await tx.$queryRaw<{ id: string }[]>`
    SELECT x AS id FROM unnest(${[...ids]}::text[]) AS x ORDER BY x`;
  return new Map(sorted.map((r, i) => [r.id, i]));
}

/** The order of a group's runs: the database's when a written phase brings a new run, else the kept one's. */
function keptOrder(
  state: GroupState,
  phases: readonly ReadPhase[],
  sorted: ReadonlyMap<string, number>,
): ReadonlyMap<string, number> {
  const known = new Set(state.phases.map((p) => p.runId));
  if (phases.some((p) => !known.has(p.row.runId))) return sorted;
  const out = new Map<string, number>();
  for (const p of state.phases) if (!out.has(p.runId)) out.set(p.runId, out.size);
  return out;
}

/** Groups recounted from all of their phases, by id (a group without phases is absent). */
async function wholeStates<T extends typeof CONFIGURATION_AGGREGATES | typeof PEAK_AGGREGATES>(
  tx: Writer,
  kind: Kind<T>,
  ids: readonly string[],
): Promise<Map<string, GroupState>> {
  const out = new Map<string, GroupState>();
  if (ids.length === 0) return out;
  const read = await readPhases(tx, kind, ids);
  // The full recount reads histograms only for groups whose summaries merge them (the rest would be past the limit).
  const merging = [...read.values()].filter((ps) =>
    mergesHistograms(
      ps.length,
      ps.reduce((a, p) => a + (isComplete(p.row) ? p.operationRows : 0), 0),
    ),
  );
  await readHistograms(tx, merging.flat());
  for (const [id, phases] of read) out.set(id, stateOf(phases));
  return out;
}

/**
 * The phases of these groups (only those named, when named) as the summaries read them, by group id, in
 * phaseSummaries' order: each with its index and, when complete, its operation groups (phase_operations).
 */
async function readPhases<T extends typeof CONFIGURATION_AGGREGATES | typeof PEAK_AGGREGATES>(
  tx: Writer,
  kind: Kind<T>,
  groupIds: readonly string[],
  phaseIds?: readonly number[],
): Promise<Map<string, ReadPhase[]>> {
  const where = [Prisma.sql`p.${kind.column} = ANY(${[...groupIds]}::text[])`];
  if (phaseIds) where.push(Prisma.sql`p.id = ANY(${[...new Set(phaseIds)]}::int[])`);
  // Named phases (a write's): their runs read by key, not every run joined (the cost stays the write's).
  const rows = phaseIds?.length === 0 ? [] : await phaseSummaries(tx, {}, where, { runsByKey: phaseIds !== undefined });
  const out = new Map<string, ReadPhase[]>();
  if (rows.length === 0) return out;
  const indexes = await tx.$queryRaw<{ phaseId: number; index: number }[]>`
    SELECT id AS "phaseId", index FROM phases WHERE id = ANY(${rows.map((r) => r.phaseId)}::int[])`;
  const indexOf = new Map(indexes.map((r) => [Number(r.phaseId), Number(r.index)]));
  const operations = await readOperations(
    tx,
    rows.filter((r) => isComplete(r)).map((r) => r.phaseId),
  );
  for (const row of rows) {
    const ops = operations.get(row.phaseId);
    pushTo(out, kind.groupOf(row)!, {
      row,
      index: indexOf.get(row.phaseId) ?? 0,
      operationRows: ops?.rows ?? 0,
      operations: ops?.entries ?? [],
    });
  }
  return out;
}

/** Each phase's operation groups with a count in range (as phaseOperationParts reads them) and its rows stored. */
async function readOperations(
  tx: Writer,
  phaseIds: readonly number[],
): Promise<Map<number, { rows: number; entries: OperationEntry[] }>> {
  const out = new Map<number, { rows: number; entries: OperationEntry[] }>();
  if (phaseIds.length === 0) return out;
  const rows = await tx.$queryRaw<
    { phaseId: number; operation: string; count: number; avgUs: number | null; p99: unknown; clients: number }[]
  >`
    SELECT phase_id AS "phaseId", operation, count, avg_us AS "avgUs", client_percentiles_us->'99' AS p99, clients
    FROM phase_operations WHERE phase_id = ANY(${[...phaseIds]}::int[]) ORDER BY phase_id, operation`;
  for (const r of rows) {
    const phase = out.get(Number(r.phaseId)) ?? { rows: 0, entries: [] };
    out.set(Number(r.phaseId), phase);
    phase.rows++;
    const count = storedCount(r.count);
    if (count === null) continue;
    phase.entries.push([r.operation, count, storedLatency(r.avgUs), storedLatency(r.p99), Number(r.clients)]);
  }
  return out;
}

/** The merged histograms of these phases' operation groups (complete phases only), set on each. */
async function readHistograms(tx: Writer, phases: readonly ReadPhase[]): Promise<void> {
  const complete = phases.filter((p) => isComplete(p.row));
  if (complete.length === 0) return;
  const hs = await tx.$queryRaw<{ phaseId: number; operation: string; h: string }[]>`
    SELECT phase_id AS "phaseId", operation, hdr_histogram AS h FROM phase_operations
    WHERE hdr_histogram IS NOT NULL AND phase_id = ANY(${complete.map((p) => p.row.phaseId)}::int[])`;
  const byPhase = new Map<number, Map<string, string | null>>();
  for (const h of hs) {
    const m = byPhase.get(Number(h.phaseId)) ?? new Map<string, string | null>();
    m.set(h.operation, h.h);
    byPhase.set(Number(h.phaseId), m);
  }
  for (const p of complete) p.histograms = byPhase.get(p.row.phaseId) ?? new Map();
}

/** The columns a configuration and a peak group share: what the group is (its phases all agree on them). */
function identityColumns(first: ReturnType<typeof rowsOf>["rows"][number]) {
  return {
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
  };
}

function configurationRow(id: string, state: GroupState): Row<typeof CONFIGURATION_AGGREGATES> {
  const { rows, ops } = rowsOf(state);
  const first = rows[0]!;
  const valid = configurationSummary(rows, "valid", ops, mergedOf(state, "valid"));
  const all = configurationSummary(rows, "all", ops, mergedOf(state, "all"));
  return {
    id,
    ...identityColumns(first),
    engine_version: first.engineVersion,
    phase: phaseNameWithoutRepeat(first.phase),
    threads_per_client: first.threadsPerClient,
    clients: first.clients,
    target: first.target,
    phases: rows.length,
    first_run_id: first.runId,
    runs: [...new Set(rows.map((p) => p.runId))],
    summary_valid: valid,
    summary_all: all,
    head_valid: summaryHead(valid),
    head_all: summaryHead(all),
    listing_valid: repeatListing(valid.repeats),
    listing_all: repeatListing(all.repeats),
  };
}

function peakRow(id: string, state: GroupState): Row<typeof PEAK_AGGREGATES> {
  const { rows, ops } = rowsOf(state);
  const first = rows[0]!;
  return {
    id,
    ...identityColumns(first),
    phases: rows.length,
    summary_valid: peakSummary(rows, "valid", ops, mergedOf(state, "valid")),
    summary_all: peakSummary(rows, "all", ops, mergedOf(state, "all")),
  };
}
