/** Which configuration and peak group a phase belongs to, as ids (model/aggregate/groups.ts keys, hashed). */
import { configurationGroupKey, peakKey } from "../../../model/aggregate/groups.js";
import { groupIdOf } from "./group-id.js";

/** A phase as stored with its run's facts: what its groups' keys read (ingest and the rebuild read the same). */
export interface GroupedPhase {
  kind: string;
  scenario: string;
  engine: string;
  engineVersion: string;
  preset: string;
  nodes: number;
  sourceId: string;
  workload: string | null;
  name: string;
  threadsPerClient: number;
  clients: number;
  target: number | null;
  operationCount: number | null;
  operationCountPer: string | null;
  properties: Record<string, unknown>;
}

/** A warm-up is in no view's aggregate: no group. Loads and workloads are in both. */
export function phaseGroupIds(p: GroupedPhase): { configurationId: string | null; peakId: string | null } {
  if (p.kind !== "workload" && p.kind !== "load") return { configurationId: null, peakId: null };
  return {
    configurationId: groupIdOf(configurationGroupKey({ ...p, phase: p.name })),
    peakId: groupIdOf(peakKey(p)),
  };
}
