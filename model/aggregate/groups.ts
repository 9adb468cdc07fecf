/**
 * The groups the aggregate views draw, each kept by ingest as one row (api/store/aggregates): a configuration (the
 * repeats of one load level, model/aggregate/repeats.ts configurationKey) is a /sweeps point and a /repeatability
 * group; a peak group (one deployment's workload over all its load levels) is a /scaling point and a /durability
 * cell, where each repeat counts at its peak phase.
 */
import { configurationKey, type ConfiguredPhase } from "./repeats.js";

/** What decides a phase's peak group: the configuration but its load level (threads, clients, target, properties). */
export interface PeakGroupedPhase {
  kind: string;
  scenario: string;
  engine: string;
  preset: string;
  nodes: number;
  sourceId: string;
  workload: string | null;
  operationCount: number | null;
  operationCountPer: string | null;
}

/**
 * A peak group's identity. Seed 003's operation counts are a factor (their own series); a load phase (workload
 * "load") is its own group; the engine version is not part of it (a scaling series spans versions, as before).
 */
export function peakKey(p: PeakGroupedPhase): string {
  return JSON.stringify([p.kind, p.scenario, p.engine, p.preset, Number(p.nodes), p.sourceId, p.workload, p.operationCount, p.operationCountPer]);
}

/** A configuration's stored identity: configurationKey, and the phase's kind (a load and a workload never repeat each other). */
export function configurationGroupKey(p: ConfiguredPhase & { kind: string }): string {
  return JSON.stringify([p.kind, configurationKey(p)]);
}
