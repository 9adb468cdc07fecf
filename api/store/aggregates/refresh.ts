/**
 * Keeping the aggregates after a write. The phases it touched get their operation groups at once (bounded by their
 * clients); the configurations and peak groups they are in are marked dirty in the same transaction, with the phases
 * written into each, and recounted once, however many writes touched them, before a view next reads them
 * (settle.ts): from those phases and the group's kept state (groups.ts), so a write costs what it wrote.
 */
import { type GroupIds, groupsOfPhases, groupsOfRuns } from "./groups.js";
import { type ClientsInHand, refreshPhaseOperations } from "./phase-operations.js";
import { runDirtyId } from "./run-headlines.js";
import type { Writer } from "./writer.js";

/**
 * After clients were stored: their phases' operation groups (with the clients the caller has in hand not read back),
 * and those phases' groups marked dirty. Marks are
 * appended (migration 20261218000000_appended_marks): a write never waits for a settling round, nor for another write.
 */
export async function refreshAggregates(
  tx: Writer,
  phaseIds: readonly number[],
  inHand?: ClientsInHand,
): Promise<void> {
  if (phaseIds.length === 0) return;
  await refreshPhaseOperations(tx, phaseIds, inHand);
  const ids = [...new Set(phaseIds)];
  const groups = await groupsOfPhases(tx, ids);
  await tx.$executeRaw`INSERT INTO dirty_group_phases (id, phase_id)
    SELECT g.id, p.id FROM phases p
    CROSS JOIN LATERAL (VALUES (${dirtyId.configuration("")} || p.configuration_id), (${dirtyId.peak("")} || p.peak_id)) AS g(id)
    WHERE p.id = ANY(${ids}::int[]) AND g.id IS NOT NULL`;
  await markWritten(tx, groups, ids);
}

const markIds = (groups: GroupIds) => [
  ...groups.configurations.map(dirtyId.configuration),
  ...groups.peaks.map(dirtyId.peak),
];

/**
 * A write's marks: its groups' (recounted from the phases written into them) and its runs' headlines (recounted whole,
 * run-headlines.ts), one row each, appended in one statement. Every write appends its own: a mark another write made
 * may be taken by a round while this write is still open, and recounted without it (test/api/
 * api-settler-beside-writer.test.ts); this write's rows become visible only when it commits, so a round never takes
 * them early, and the next round after the commit recounts what this write stored.
 */
async function markWritten(tx: Writer, groups: GroupIds, phaseIds: readonly number[]): Promise<void> {
  await tx.$executeRaw`INSERT INTO dirty_groups (id, whole)
    SELECT x, false FROM unnest(${markIds(groups)}::text[]) AS x
    UNION
    SELECT ${runDirtyId("")} || p.run_id, true FROM phases p WHERE p.id = ANY(${phaseIds}::int[])`;
}

/**
 * Around a change to whole runs (quarantine, release, delete): the groups of their phases, read before the change (a
 * deleted run's phases are gone after it), are marked dirty after it, to be recounted whole: phases leaving a group
 * are rare, and taking them out of its kept state (its merged histograms) is not worth its own path.
 */
export async function aroundRunChange<T>(tx: Writer, runIds: readonly string[], change: () => Promise<T>): Promise<T> {
  const groups = await groupsOfRuns(tx, runIds);
  const out = await change();
  await markDirty(tx, groups, true);
  return out;
}

export const dirtyId = { configuration: (id: string) => `c:${id}`, peak: (id: string) => `p:${id}` };

/** Marks groups dirty; `whole`: to be recounted from all of their phases (a mark stays whole until taken). */
export async function markDirty(tx: Writer, groups: GroupIds, whole = false): Promise<void> {
  const ids = markIds(groups);
  if (ids.length === 0) return;
  // Appended, as a write's marks are (markWritten): a round takes every row of a group at once.
  await tx.$executeRaw`INSERT INTO dirty_groups (id, whole) SELECT x, ${whole} FROM unnest(${ids}::text[]) AS x`;
}
