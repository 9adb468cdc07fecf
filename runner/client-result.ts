import {
  type ClientOutput,
  ENGINE_VERSIONS,
  emptyStatusSeries,
  type Plan,
  type PlanPhase,
  type ResultDocument,
  SCHEMA_VERSION,
  type Validity,
} from "../model/index.js";
import { histogramProblems } from "../model/result-checks.js";
import type { ResourceSample } from "./proc-stat.js";
import { YCSB_VERSION } from "./ycsb-invocation.js";

/** Facts about the run every client's documents share (so the API stores one run, not one per client). */
export interface RunFacts {
  runId: string;
  /** The earliest arrival at the first barrier: the same on every client. */
  startedAt: string;
  ycsbLabVersion: string;
  /** Set when the engine was not the real one (site.ycsb.BasicDB, FerretDB, CouchbaseMock). */
  standIn?: string;
  host?: string;
  /** Where the run really ran when that is not the scenario's EC2 types (a local run: "local"). */
  machine?: string;
  /** Where the run came from: the stack and the kit its instances ran. */
  provenance?: { stack?: string; ami?: string; kit?: { sha256: string; version: string } };
}

/** An output that says nothing happened, for a YCSB that failed before printing its summary. */
export function emptyOutput(warning: string): ClientOutput {
  return {
    overall: { runtimeMs: 0, throughputOpsSec: 0 },
    operations: {},
    gc: {},
    statusSeries: emptyStatusSeries(),
    measurementType: null,
    unknownLines: [],
    warnings: [warning],
  };
}

/** The result document of one client in one phase (pure). */
export function clientResult(a: {
  plan: Plan;
  phase: PlanPhase;
  run: RunFacts;
  clientIndex: number;
  properties: Record<string, string>;
  startedAt: string;
  finishedAt: string;
  output: ClientOutput;
  hdrLogs: { operation: string; uri: string }[];
  /** This client's histogram per operation over the phase (model/hdr clientHistograms); none when empty. */
  hdrHistograms?: Record<string, string>;
  resources: ResourceSample[];
  validity: Validity;
}): ResultDocument {
  const d = a.plan.deployment;
  const kind = a.phase.kind;
  if (kind !== "load" && kind !== "warmup" && kind !== "workload")
    throw new Error(`phase ${a.phase.name}: ${kind} phases have no result document`);
  return {
    schemaVersion: SCHEMA_VERSION,
    run: {
      id: a.run.runId,
      scenario: a.plan.scenario,
      engine: d.engine,
      engineVersion: ENGINE_VERSIONS[d.engine],
      preset: d.preset,
      nodes: d.nodes,
      // A local run must not be labelled with the scenario's cloud instance types.
      instanceTypes: a.run.machine
        ? { data: a.run.machine, client: a.run.machine }
        : { data: d.dataInstanceType, client: d.clientInstanceType },
      replication: d.replication,
      ycsbVersion: YCSB_VERSION,
      ycsbLabVersion: a.run.ycsbLabVersion,
      // A plan's repeats are phases of this one run (phase.repeat below); the run itself is not a repeat of another.
      repeat: 0,
      startedAt: a.run.startedAt,
      source: { kind: "measured" },
      ...(a.run.standIn ? { standIn: a.run.standIn } : {}),
      ...(a.run.provenance ? { provenance: a.run.provenance } : {}),
    },
    phase: {
      name: a.phase.name,
      index: a.phase.index,
      kind,
      ...(a.phase.workload ? { workload: a.phase.workload } : {}),
      properties: a.properties,
      threadsPerClient: a.phase.threadsPerClient,
      ...(a.phase.target !== undefined ? { target: a.phase.target } : {}),
      clients: d.clients,
      repeat: a.phase.repeat,
      ...(a.phase.capacity ? { capacity: a.phase.capacity } : {}),
      ...(a.phase.operationCount !== undefined
        ? { operationCount: a.phase.operationCount, operationCountPer: a.phase.operationCountPer ?? "total" }
        : {}),
    },
    client: { index: a.clientIndex, count: d.clients, ...(a.run.host ? { host: a.run.host } : {}) },
    startedAt: a.startedAt,
    finishedAt: a.finishedAt,
    result: a.output,
    hdrLogs: a.hdrLogs,
    ...(a.hdrHistograms && Object.keys(a.hdrHistograms).length > 0 ? { hdrHistograms: a.hdrHistograms } : {}),
    resources: a.resources.map((r) => ({ ...r, cpuPct: Math.max(0, r.cpuPct), stealPct: Math.max(0, r.stealPct) })),
    validity: a.validity,
  };
}

/**
 * The histograms the contract accepts (model/result-checks.ts histogramProblems): each of a group YCSB printed, and
 * agreeing with what it printed. A YCSB stopped mid-phase (the run ended early, or a node died) has written HDR logs
 * but printed no summary; sent as they are, its histograms would get the whole document refused and the client would
 * lose the phase it measured. Those are left out and named in a warning; their HDR logs are still stored (hdrLogs).
 */
export function acceptedHistograms(
  histograms: Record<string, string>,
  operations: ClientOutput["operations"],
): { histograms: Record<string, string>; warnings: string[] } {
  const refused = new Map<string, string>();
  for (const p of histogramProblems(histograms, undefined, operations)) {
    // "/hdrHistograms/<group>" (a JSON pointer: "~1" is "/", "~0" is "~")
    const group = p.path.split("/")[2]?.replace(/~1/g, "/").replace(/~0/g, "~");
    if (group !== undefined && !refused.has(group)) refused.set(group, p.message);
  }
  if (refused.size === 0) return { histograms, warnings: [] };
  const kept = Object.fromEntries(Object.entries(histograms).filter(([group]) => !refused.has(group)));
  const warnings = [...refused].map(
    ([group, why]) => `hdr histogram ${group} left out of the document (${why}); its HDR log is stored`,
  );
  return { histograms: kept, warnings };
}
