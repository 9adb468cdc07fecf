import { ENGINES, type Engine, isEngine } from "./engine.js";
import {
  type CassandraServerSide,
  DURABILITY_PRESETS,
  isPreset,
  PRESETS,
  type Preset,
  presetFor,
  type Source,
} from "./presets.js";
import { isWorkloadId } from "./workloads.js";
import { clientCountProblem, YCSB_MAX_COUNT } from "./ycsb-limits.js";

/**
 * A scenario is a study: which engines, node counts and presets it covers, on which machines, with which data and
 * workloads. One deployment (one `pulumi up`, one local run) is one cell of it: an engine, a node count and a preset,
 * resolved by `resolveDeployment` into concrete numbers that infra and the runner's plans both use.
 */
export type RequestDistribution = "zipfian" | "uniform" | "latest" | "hotspot";

export interface StorageSpec {
  /** "instance-store" uses the instance's local NVMe/SSD (seeds 000/001 used local instance storage). */
  kind: "instance-store" | "ebs";
  ebsType?: "gp3" | "io2";
  sizeGiB?: number;
  iops?: number;
  /** gp3 throughput, MiB/s (125 included). */
  throughputMiBs?: number;
}

export interface MachineSpec {
  /** The current EC2 type used. */
  instanceType: string;
  /** The type (or hardware) the study used, when it is retired or was bare metal. */
  original?: string;
}

/** Whether a scenario's operation count is each client's YCSB `operationcount` or the total over all clients. */
export type OperationCountPer = "client" | "total";

/**
 * A reset a study made between measurements: a plan phase (kind "reset") client 0 hands to the engine's actions.
 * After a reset that wipes the data the plan prepares the schema and loads again.
 */
export interface ResetSpec {
  /** Empty the database (drop the data set, remove the data files): the next phases prepare and load again. */
  wipeData: boolean;
  /** Restart the database server(s). */
  restartServer: boolean;
  /** Drop the data nodes' OS page cache. */
  dropCaches: boolean;
  /** The study's words, with the seed line they stand on. */
  source: string;
}

/**
 * Where a study reset: before each repeat after the first (a whole test again), before each workload after the
 * first, before each operation-count batch (seed 003's "batch of tests"), before each thread step (seeds 002, 004).
 */
export const RESET_POINTS = ["repeat", "workload", "operationCount", "step"] as const;
export type ResetPoint = (typeof RESET_POINTS)[number];

/** A study's own value of part of a preset's server side, with the line it stands on. */
export type CassandraRefinement = Partial<CassandraServerSide> & { source: string };

/** How the HBase table is pre-split (engines/hbase/schema.ts). */
export interface HBaseSplit {
  /** "HexStringSplit": HBase's RegionSplitter over 00000000..ffffffff (seed 001); "ycsb-keys": YCSB's hashed key space. */
  algorithm: "HexStringSplit" | "ycsb-keys";
  /** Regions per region server (seed 001: NUMREGIONS => node count, one each; one node: no split). */
  regionsPerNode: number;
  source: string;
}

/** The server settings a study set beyond the durability preset, as the engines render them. */
export interface StudyServerSide {
  cassandra?: Partial<CassandraServerSide>;
  hbaseSplit?: Omit<HBaseSplit, "source">;
}

/** Where the product departs from a study, and why (docs/runner.md's scenario table renders these). */
export interface Departure {
  what: string;
  why: string;
  /**
   * The scenario fields (paths such as "records.perNode" or "workloads.write-scan.maxExecutionTimeSec") whose value
   * differs from what the paper printed because of this departure (model/study-printed.ts; a test holds every such
   * field to a row).
   */
  fields?: string[];
}

/**
 * The presets a study ran one engine with (the first is the cell's default), with the line that says so; `offered`
 * are presets the study never set for it that a deployment may still choose: its results say so (Deployment
 * presetNote, recorded in every phase as ycsblab.presetNote).
 */
export interface EnginePresets {
  presets: Preset[];
  source: string;
  offered?: Preset[];
}

export interface ScenarioWorkload {
  workload: string;
  /** YCSB operationcount of this workload: per client or in total, as the scenario's `operationCountPer` says. */
  operationCount?: number;
  /** YCSB maxexecutiontime in seconds. */
  maxExecutionTimeSec?: number;
  /** Extra YCSB properties for this workload only. */
  properties?: Record<string, string>;
}

export interface ThreadSpec {
  /** Threads per data node, spread over the clients (seed 001: 128; seed 000: 256). */
  perDataNode?: number;
  /** Threads per client, when the study fixed it per client instead. */
  perClient?: number;
  /** Threads per client during the load phase (seed 000: 40). */
  loadPerClient?: number;
  /** Load threads per client a study set for one engine at some sizes (seed 001: MongoDB at 32 nodes, 20). */
  loadOverrides?: { engine: Engine; nodes: number[]; perClient: number; source: string }[];
  /** A thread sweep: each workload runs at each of these thread counts per client (seed 003: 1..512). */
  sweep?: number[];
  /** Step up threads per client until throughput stops rising (seeds 002, 004). */
  stepUp?: { start: number; factor: number; max: number; minGainPct: number };
}

export interface ScenarioSpec {
  name: string;
  title: string;
  sources: Source[];
  engines: Engine[];
  /** The node counts the study covered; a deployment picks one. */
  nodeCounts: number[];
  presets: Preset[];
  dataNode: MachineSpec & { storage: StorageSpec };
  clientNode: MachineSpec;
  /** Client fleet size: a fixed count, or one client per `dataNodesPerClient` data nodes, rounded up. */
  clients: { count: number } | { dataNodesPerClient: number };
  replication: number;
  records: {
    /** Records per data node (seed 001: 15M, seed 000: 500M). */
    perNode?: number;
    /** Total records regardless of node count (seeds 003, 004). */
    total?: number;
    fieldCount: number;
    fieldLengthBytes: number;
  };
  requestDistribution?: RequestDistribution;
  threads: ThreadSpec;
  workloads: ScenarioWorkload[];
  /**
   * Whether `operationCount`/`operationCounts` is each client's YCSB operationcount ("client": YCSB counts per
   * client, so N clients run N times the number) or the total, split over the clients ("total").
   */
  operationCountPer: OperationCountPer;
  /** Extra YCSB properties for every phase (seed 004: readallfields=true, writeallfields=false). */
  properties?: Record<string, string>;
  /** Warm-up before each measured step, discarded (seed 002: 1 minute). */
  warmupSec?: number;
  /**
   * Wait for the engine to settle after load and between workloads (seed 000: no pending compactions; seed 002: "Wait
   * for the database to finish rebalancing" after each load).
   */
  settle?: { waitForCompactions: boolean; waitForRebalance?: boolean; minSec?: number };
  /** Repeat each workload run (seed 000: 3 runs on different days; seed 003: 3 repeats). */
  repeats: number;
  /**
   * What a repeat repeats: "test" runs the whole sequence again (load and every workload: seeds 000/001 repeated the
   * test on new instances, 002 its tests); "measurement" runs each measured phase again at once (seed 003: "Each
   * test with a certain combination of workload, number of operations and number of client threads was repeated
   * three times"). Default "test".
   */
  repeatScope?: "test" | "measurement";
  /** Resets between repeats, workloads, batches and steps, each a plan phase the runner executes. */
  resets?: Partial<Record<ResetPoint, ResetSpec>>;
  /** Every place the scenario departs from its study, and why. */
  departures?: Departure[];
  /** Operation-count sweep: each workload is run once per count (seed 003: 1k, 10k, 100k, 1M). */
  operationCounts?: number[];
  /** The load phase may run with its own preset (seed 000 allowed non-durable writes for the load only). */
  loadPreset?: Preset;
  /** Server settings a study changed beyond the preset (seed 003: Cassandra request timeouts). */
  serverSettings?: Partial<Record<Engine, Record<string, string>>>;
  /**
   * The presets each engine ran with in the study, where they differ from `presets`; the first is the engine's
   * default (seed 002: Cassandra with its commit log disabled, Couchbase on its defaults; seed 004: Couchbase had
   * "no equivalent" balanced option).
   */
  enginePresets?: Partial<Record<Engine, EnginePresets>>;
  /** A study's own values of a preset's server side (seed 004: LCS, a 10 ms batch window; seed 000: 2 ms). */
  presetServer?: { cassandra?: Partial<Record<Preset, CassandraRefinement>> };
  /** The HBase pre-split the study printed (seed 001). */
  hbaseSplit?: HBaseSplit;
  /**
   * Where the study kept the commit log / journal: the presets, per engine, for which it used a device of its own
   * (seed 004: balanced only; seed 002: MongoDB's journal always); every other cell keeps it on the data device (seeds
   * 000/001: the instance's local SSD). Unset: the preset's own choice (model/presets.ts).
   */
  logDevice?: { presets: Partial<Record<Engine, Preset[]>>; source: string };
  /** Default cell for a stack or local run that names none. */
  defaults: { engine: Engine; nodes: number; preset: Preset };
}

/** Bytes a YCSB key takes: "user" + up to 19 digits of a hashed long. */
export const YCSB_KEY_BYTES = 23;

export function recordBytes(spec: Pick<ScenarioSpec, "records">): number {
  return spec.records.fieldCount * spec.records.fieldLengthBytes + YCSB_KEY_BYTES;
}

export interface DeploymentChoice {
  engine?: Engine;
  nodes?: number;
  preset?: Preset;
  /** Multiplies record and operation counts (never below 1) for cheap trials of the same scenario. */
  scale?: number;
  /** Overrides the client count the scenario derives. */
  clients?: number;
  /** Fewer (or more) repeats than the study made, for a cheap trial of the pipeline (results say how many ran). */
  repeats?: number;
}

/** One cell of a scenario with every number resolved. */
export interface Deployment {
  scenario: string;
  engine: Engine;
  nodes: number;
  preset: Preset;
  loadPreset: Preset;
  clients: number;
  replication: number;
  recordCount: number;
  recordBytes: number;
  fieldCount: number;
  fieldLengthBytes: number;
  threadsPerClient: number;
  loadThreadsPerClient: number;
  scale: number;
  dataInstanceType: string;
  clientInstanceType: string;
  /** The study's settings beyond the preset, for this engine and preset (engines render them). */
  study: StudyServerSide;
  /** The commit log / journal on a device of its own (scenario.logDevice, else the preset's choice). */
  ownLogDevice: boolean;
  /** Set when the preset is one the study never ran this engine with (EnginePresets.offered), saying so. */
  presetNote?: string;
}

export class ScenarioError extends Error {
  constructor(
    /** The offending field, e.g. "nodes" or "dataNode.instanceType". */
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

const scaled = (n: number, scale: number) => Math.max(1, Math.round(n * scale));

export function clientCount(spec: ScenarioSpec, nodes: number): number {
  return "count" in spec.clients ? spec.clients.count : Math.ceil(nodes / spec.clients.dataNodesPerClient);
}

/**
 * The presets a scenario runs an engine under: the ones the study ran that engine with (enginePresets), else the
 * scenario's own, each only where the engine has it. `npm start` runs every one, so the durability view has
 * presets of one scenario to compare (quickstart: all three, about a minute each on one small node).
 */
export function scenarioPresets(spec: ScenarioSpec, engine: Engine): Preset[] {
  const listed = spec.enginePresets?.[engine]?.presets ?? spec.presets;
  return listed.filter((p) => DURABILITY_PRESETS[engine][p] !== undefined);
}

/** The records a scenario stores at `nodes` data nodes and scale 1 (its records.total, or records.perNode per node). */
export function baseRecordCount(spec: Pick<ScenarioSpec, "records">, nodes: number): number {
  return spec.records.total ?? (spec.records.perNode ?? 0) * nodes;
}

/** Resolve one deployment of a scenario; throws ScenarioError naming the field that is wrong. */
export function resolveDeployment(spec: ScenarioSpec, choice: DeploymentChoice = {}): Deployment {
  const engine = choice.engine ?? spec.defaults.engine;
  if (!isEngine(engine))
    throw new ScenarioError("engine", `unknown engine "${String(engine)}" (known: ${ENGINES.join(", ")})`);
  if (!spec.engines.includes(engine)) {
    throw new ScenarioError("engine", `scenario "${spec.name}" covers ${spec.engines.join(", ")}, not ${engine}`);
  }
  const own = spec.enginePresets?.[engine];
  const preset = choice.preset ?? own?.presets[0] ?? spec.defaults.preset;
  if (!isPreset(preset))
    throw new ScenarioError("preset", `unknown preset "${String(preset)}" (known: ${PRESETS.join(", ")})`);
  if (!DURABILITY_PRESETS[engine][preset])
    throw new ScenarioError("preset", `engine ${engine} has no preset "${preset}"`);
  if (own && !own.presets.includes(preset) && !own.offered?.includes(preset)) {
    throw new ScenarioError(
      "preset",
      `scenario "${spec.name}" ran ${engine} with ${own.presets.join(", ")} only, not ${preset} (${own.source})`,
    );
  }
  const presetNote =
    own && !own.presets.includes(preset) ? unstudiedPresetNote(spec.name, engine, preset, own) : undefined;
  const nodes = choice.nodes ?? spec.defaults.nodes;
  if (!Number.isInteger(nodes) || nodes < 1)
    throw new ScenarioError("nodes", `must be a whole number >= 1, got ${String(nodes)}`);
  const scale = choice.scale ?? 1;
  if (!(scale > 0 && scale <= 1)) throw new ScenarioError("scale", `must be in (0, 1], got ${String(scale)}`);
  const clients = choice.clients ?? clientCount(spec, nodes);
  if (!Number.isInteger(clients) || clients < 1)
    throw new ScenarioError("clients", `must be a whole number >= 1, got ${String(clients)}`);
  const baseRecords = baseRecordCount(spec, nodes);
  if (baseRecords < 1) throw new ScenarioError("records", "set records.perNode or records.total");
  const recordCount = scaled(baseRecords, scale);
  // Each client loads its share: YCSB's Client reads that count as an int (model/ycsb-limits.ts).
  const loadShare = Math.ceil(recordCount / clients);
  const tooMany = clientCountProblem(
    "insertcount",
    loadShare,
    `use at least ${Math.ceil(recordCount / YCSB_MAX_COUNT)} clients`,
  );
  if (tooMany)
    throw new ScenarioError(
      "clients",
      `scenario "${spec.name}" at ${nodes} node(s) with ${clients} client(s): ${tooMany}`,
    );
  if (spec.replication > nodes) {
    throw new ScenarioError(
      "replication",
      `replication ${spec.replication} needs at least as many nodes (got ${nodes})`,
    );
  }
  const t = spec.threads;
  // Seed 001: "128 client threads per data instance ... distributed across the client instances" (341 for 8 nodes / 3 clients).
  const threadsPerClient =
    t.perClient ??
    (t.perDataNode ? Math.floor((t.perDataNode * nodes) / clients) : (t.sweep?.[0] ?? t.stepUp?.start ?? 1));
  return {
    scenario: spec.name,
    engine,
    nodes,
    preset,
    loadPreset: spec.loadPreset ?? preset,
    clients,
    replication: spec.replication,
    recordCount,
    recordBytes: recordBytes(spec),
    fieldCount: spec.records.fieldCount,
    fieldLengthBytes: spec.records.fieldLengthBytes,
    threadsPerClient: Math.max(1, threadsPerClient),
    loadThreadsPerClient: Math.max(1, loadOverride(t, engine, nodes) ?? t.loadPerClient ?? threadsPerClient),
    scale,
    dataInstanceType: spec.dataNode.instanceType,
    clientInstanceType: spec.clientNode.instanceType,
    study: studyServerSide(spec, engine, preset),
    ownLogDevice: ownLogDevice(spec, engine, preset),
    ...(presetNote ? { presetNote } : {}),
  };
}

/** The load threads per client a study set for this engine at this size (ThreadSpec.loadOverrides), if any. */
function loadOverride(t: ThreadSpec, engine: Engine, nodes: number): number | undefined {
  return t.loadOverrides?.find((o) => o.engine === engine && o.nodes.includes(nodes))?.perClient;
}

/** What a result says of a preset the study never ran the engine with. */
function unstudiedPresetNote(scenario: string, engine: Engine, preset: Preset, own: EnginePresets): string {
  return `${scenario} ran ${engine} with ${own.presets.join(", ")}, not ${preset}: ${preset} is ycsb-lab's choice here (${own.source})`;
}

/** Whether the commit log / journal gets a device of its own in this cell (ScenarioSpec.logDevice). */
export function ownLogDevice(spec: Pick<ScenarioSpec, "logDevice">, engine: Engine, preset: Preset): boolean {
  if (spec.logDevice) return (spec.logDevice.presets[engine] ?? []).includes(preset);
  const server = presetFor(engine, preset).server as { commitlogOwnVolume?: boolean; journalOwnVolume?: boolean };
  return server.commitlogOwnVolume ?? server.journalOwnVolume ?? false;
}

/** The study's settings beyond the preset for one engine and preset (sources dropped: they are for people). */
export function studyServerSide(
  spec: Pick<ScenarioSpec, "presetServer" | "hbaseSplit">,
  engine: Engine,
  preset: Preset,
): StudyServerSide {
  const study: StudyServerSide = {};
  const cassandra = engine === "cassandra" ? spec.presetServer?.cassandra?.[preset] : undefined;
  if (cassandra) {
    const { source: _source, ...server } = cassandra;
    study.cassandra = server;
  }
  if (engine === "hbase" && spec.hbaseSplit) {
    const { source: _source, ...split } = spec.hbaseSplit;
    study.hbaseSplit = split;
  }
  return study;
}

/** Structural checks of a spec itself (not of a deployment); every problem names its field. */
export function checkScenario(spec: ScenarioSpec): ScenarioError[] {
  const errors: ScenarioError[] = [];
  if (!/^[a-z0-9][a-z0-9-]*$/.test(spec.name ?? ""))
    errors.push(new ScenarioError("name", "lower-case letters, digits and dashes"));
  if (!Array.isArray(spec.engines) || spec.engines.length === 0)
    errors.push(new ScenarioError("engines", "name at least one engine"));
  for (const e of spec.engines ?? [])
    if (!isEngine(e)) errors.push(new ScenarioError("engines", `unknown engine "${String(e)}"`));
  for (const n of spec.nodeCounts ?? []) {
    if (!Number.isInteger(n) || n < 1)
      errors.push(new ScenarioError("nodeCounts", `node count must be >= 1, got ${String(n)}`));
  }
  for (const p of spec.presets ?? [])
    if (!isPreset(p)) errors.push(new ScenarioError("presets", `unknown preset "${String(p)}"`));
  if (!spec.workloads?.length) errors.push(new ScenarioError("workloads", "name at least one workload"));
  spec.workloads?.forEach((w, i) => {
    if (!isWorkloadId(w.workload))
      errors.push(new ScenarioError(`workloads[${i}].workload`, `unknown workload "${w.workload}"`));
  });
  if (!(spec.records?.fieldCount >= 1)) errors.push(new ScenarioError("records.fieldCount", "must be >= 1"));
  if (!(spec.records?.fieldLengthBytes >= 1))
    errors.push(new ScenarioError("records.fieldLengthBytes", "must be >= 1"));
  if (!(spec.repeats >= 1)) errors.push(new ScenarioError("repeats", "must be >= 1"));
  if (spec.operationCountPer !== "client" && spec.operationCountPer !== "total") {
    errors.push(
      new ScenarioError("operationCountPer", `"client" or "total", got ${JSON.stringify(spec.operationCountPer)}`),
    );
  }
  if (spec.repeatScope !== undefined && spec.repeatScope !== "test" && spec.repeatScope !== "measurement") {
    errors.push(new ScenarioError("repeatScope", `"test" or "measurement", got ${JSON.stringify(spec.repeatScope)}`));
  }
  for (const point of Object.keys(spec.resets ?? {})) {
    if (!(RESET_POINTS as readonly string[]).includes(point))
      errors.push(new ScenarioError(`resets.${point}`, `unknown reset point (known: ${RESET_POINTS.join(", ")})`));
  }
  return errors;
}
