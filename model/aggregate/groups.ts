/**
 * The groups the aggregate views draw, each kept by ingest as one row (api/store/aggregates): a configuration (the
 * repeats of one load level, model/aggregate/repeats.ts configurationKey) is a /sweeps point and a /repeatability
 * group; a peak group (one deployment's workload over all its load levels) is a /scaling point and a /durability
 * cell, at the load level whose mean over repeats is highest (rules.ts peakLevelOverRepeats).
 */
import { type ConfiguredPhase, configurationKey, type DeploymentFacts, deploymentIdentity } from "./repeats.js";

/** What a peak group spans: the engine's versions (a /scaling series and a /durability cell hold them together). */
export const PEAK_GROUP_SPANS = ["engineVersion"] as const;

/** What decides a phase's peak group: its deployment but the engine version, workload and operation count. */
export interface PeakGroupedPhase extends Omit<DeploymentFacts, (typeof PEAK_GROUP_SPANS)[number]> {
  kind: string;
  workload: string | null;
  operationCount: number | null;
  operationCountPer: string | null;
}

/**
 * A peak group's identity: the deployment (deploymentIdentity: stand-in and machines included) without the engine
 * version, as /scaling and /durability group. Seed 003's operation counts are a factor (their own series); a load
 * phase (workload "load") is its own group.
 */
export function peakKey(p: PeakGroupedPhase): string {
  const deployment = deploymentIdentity<(typeof PEAK_GROUP_SPANS)[number]>(p, PEAK_GROUP_SPANS);
  return JSON.stringify([p.kind, ...deployment, p.workload, p.operationCount, p.operationCountPer]);
}

/** A configuration's stored identity: configurationKey, and the phase's kind (a load and a workload never repeat each other). */
export function configurationGroupKey(p: ConfiguredPhase & { kind: string }): string {
  return JSON.stringify([p.kind, configurationKey(p)]);
}
