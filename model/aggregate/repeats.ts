import { phaseNameWithoutRepeat, REPEAT_SUFFIX } from "../plan.js";

/**
 * YCSB properties that differ between the repeats, or between the clients, of one configuration: where HDR logs go
 * (a path per phase and client), each client's share of the load (insertstart, insertcount) and of the operations
 * (operationcount is split over the clients; recordcount, the total, stays in the identity).
 */
export const PER_REPEAT_PROPERTIES: readonly string[] = [
  "hdrhistogram.output.path",
  "insertstart",
  "insertcount",
  "operationcount",
];

/**
 * The deployment a measurement ran on: scenario, engine and version, preset, cluster size, source, the stand-in that
 * served instead of the engine (site.ycsb.BasicDB, FerretDB, CouchbaseMock) and the machines. Measurements that
 * differ in any of it are never averaged as repeats of one configuration nor drawn as one series: a rehearsal on a
 * stand-in or on this machine is not the engine on its instances.
 */
export interface DeploymentFacts {
  scenario: string;
  engine: string;
  engineVersion: string;
  preset: string;
  nodes: number;
  sourceId: string;
  standIn: string | null;
  dataInstanceType: string;
  clientInstanceType: string;
}

export const DEPLOYMENT_FIELDS = [
  "scenario",
  "engine",
  "engineVersion",
  "preset",
  "nodes",
  "sourceId",
  "standIn",
  "dataInstanceType",
  "clientInstanceType",
] as const;

/**
 * The identity of a measurement's deployment, as the one list every aggregate groups by (/scaling per series
 * `without` nodes, /durability per cell, /repeatability per configuration through configurationKey).
 */
export function deploymentIdentity<W extends keyof DeploymentFacts = never>(
  p: Omit<DeploymentFacts, W>,
  without: readonly W[] = [],
): unknown[] {
  const facts = p as Partial<DeploymentFacts>;
  return DEPLOYMENT_FIELDS.filter((f) => !(without as readonly string[]).includes(f)).map((f) =>
    f === "nodes" ? Number(facts.nodes) : f === "standIn" ? (facts.standIn ?? null) : facts[f],
  );
}

/** What a phase ran: two phases are repeats of one configuration when all of it agrees. */
export interface ConfiguredPhase extends DeploymentFacts {
  workload: string | null;
  phase: string;
  threadsPerClient: number;
  clients: number;
  target: number | null;
  properties: Record<string, unknown>;
}

/**
 * The identity of a phase's configuration: its deployment (deploymentIdentity), then everything above but the repeat
 * suffix of its name and the per-repeat properties. Seed 003's published runs at 1k, 10k, 100k and 1M operations
 * have the same threads and workload but are four configurations (operation count is a factor of its ANOVA), never
 * four repeats of one.
 */
export function configurationKey(p: ConfiguredPhase): string {
  const properties = Object.entries(p.properties)
    .filter(([k]) => !PER_REPEAT_PROPERTIES.includes(k))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([
    ...deploymentIdentity(p),
    p.workload,
    phaseNameWithoutRepeat(p.phase),
    p.threadsPerClient,
    p.clients,
    p.target,
    properties,
  ]);
}

/**
 * Which repeat a document measured, as the store keeps it: the run's own repeat (a whole run repeated on a new
 * deployment) and the phase's (a plan's "-r<N>" phases: seeds 000/001 ran each test 3 times, 002 twice, 003 each
 * test 3 times). One run holds all of a plan's repeats, so the phase's repeat is never part of the run's identity.
 * Documents written before `phase.repeat` existed name it in the phase ("-r<N>", as plans do) and the runner also
 * wrote it into `run.repeat`: for them the phase gets it, and the run is repeat 0 unless it said something else.
 */
export function documentRepeats(doc: { run: { repeat: number }; phase: { name: string; repeat?: number } }): {
  run: number;
  phase: number;
} {
  if (doc.phase.repeat !== undefined) return { run: doc.run.repeat, phase: doc.phase.repeat };
  const named = REPEAT_SUFFIX.exec(doc.phase.name);
  if (!named) return { run: doc.run.repeat, phase: 0 };
  const phase = Number(named[1]);
  return { run: doc.run.repeat === phase ? 0 : doc.run.repeat, phase };
}
