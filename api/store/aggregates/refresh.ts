/** Keeping the aggregates after a write: the phases it touched, then the groups they are in. */
import { refreshGroups, groupsOfPhases, groupsOfRuns, type GroupIds } from "./groups.js";
import { refreshPhaseOperations } from "./phase-operations.js";
import type { Writer } from "./writer.js";

/** After clients were stored: their phases' operation groups, then those phases' configurations and peak groups. */
export async function refreshAggregates(tx: Writer, phaseIds: readonly number[]): Promise<void> {
  if (phaseIds.length === 0) return;
  await refreshPhaseOperations(tx, phaseIds);
  await refreshGroups(tx, await groupsOfPhases(tx, phaseIds));
}

/**
 * Around a change to whole runs (quarantine, release, delete): the groups of their phases, read before the change
 * (a deleted run's phases are gone after it), are recomputed after it.
 */
export async function aroundRunChange<T>(tx: Writer, runIds: readonly string[], change: () => Promise<T>): Promise<T> {
  const groups: GroupIds = await groupsOfRuns(tx, runIds);
  const out = await change();
  await refreshGroups(tx, groups);
  return out;
}
