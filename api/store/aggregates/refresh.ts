/**
 * Keeping the aggregates after a write. The phases it touched get their operation groups at once (bounded by their
 * clients); the configurations and peak groups they are in are marked dirty in the same transaction and recomputed
 * once, however many writes touched them, before a view next reads them (settle.ts): a bulk ingest of a thousand
 * batches into one configuration recomputes it once, not a thousand times.
 */
import { type GroupIds, groupsOfPhases, groupsOfRuns } from "./groups.js";
import { refreshPhaseOperations } from "./phase-operations.js";
import type { Writer } from "./writer.js";

/** After clients were stored: their phases' operation groups, and those phases' groups marked dirty. */
export async function refreshAggregates(tx: Writer, phaseIds: readonly number[]): Promise<void> {
  if (phaseIds.length === 0) return;
  await refreshPhaseOperations(tx, phaseIds);
  await markDirty(tx, await groupsOfPhases(tx, phaseIds));
}

/**
 * Around a change to whole runs (quarantine, release, delete): the groups of their phases, read before the change (a
 * deleted run's phases are gone after it), are marked dirty after it.
 */
export async function aroundRunChange<T>(tx: Writer, runIds: readonly string[], change: () => Promise<T>): Promise<T> {
  const groups = await groupsOfRuns(tx, runIds);
  const out = await change();
  await markDirty(tx, groups);
  return out;
}

export const dirtyId = { configuration: (id: string) => `c:${id}`, peak: (id: string) => `p:${id}` };

export async function markDirty(tx: Writer, groups: GroupIds): Promise<void> {
  const ids = [...groups.configurations.map(dirtyId.configuration), ...groups.peaks.map(dirtyId.peak)].sort();
  if (ids.length === 0) return;
  await tx.$executeRaw`INSERT INTO dirty_groups (id) SELECT x FROM unnest(${ids}::text[]) AS x ON CONFLICT (id) DO NOTHING`;
}
