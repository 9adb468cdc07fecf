import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Engine } from "../../model/engine.js";
import type { Preset } from "../../model/presets.js";
import type { StudyServerSide } from "../../model/scenario.js";
import { processAlive, stopDetached } from "../boot/processes.js";

/**
 * A database engine run on this machine for development and tests: real servers, started detached so that
 * `ycsb-lab local status` and `local down` work from another process through the state file
 * `.local/engines/<engine>/state.json`.
 */
export interface LocalEngine {
  engine: Engine;
  /** The YCSB binding: its Maven module under runner/bindings and its site.ycsb.DB class. */
  binding: { module: string; dbClass: string };
  /** Set when a stand-in server runs instead of the engine (FerretDB, CouchbaseMock): recorded as result `run.standIn`. */
  standIn?: string;
  /** Start `nodes` nodes with the preset's server side, wait until ready, prepare the YCSB schema. */
  up(opts: LocalUpOptions): Promise<LocalEngineState>;
  /** What runs now, checked against the real processes and servers. */
  status(state: LocalEngineState): Promise<LocalEngineStatus>;
  /** Stop every process the state names (only those), and wait for them to exit. */
  down(state: LocalEngineState): Promise<void>;
  /** The YCSB `-p` properties that reach the running engine (hosts, ports, database names). */
  connectionProperties(state: LocalEngineState): Record<string, string>;
  /** (Re)create the YCSB schema, e.g. for another fieldcount; optional where YCSB creates it itself. */
  prepareSchema?(state: LocalEngineState, opts: SchemaOptions): Promise<void>;
  /** Stop and start the servers again keeping their data (a study's restart between batches); optional. */
  restart?(state: LocalEngineState, log?: (line: string) => void): Promise<LocalEngineState>;
}

export interface LocalUpOptions {
  nodes: number;
  preset: Preset;
  /** The engine's own folder: data, logs and state live under it. */
  dataDir: string;
  /** Progress lines for the user (stderr in the CLI). */
  log?: (line: string) => void;
  /** A study's own values over the preset (model/scenario.ts studyServerSide): e.g. seed 004's window and LCS. */
  study?: StudyServerSide;
}

export interface SchemaOptions {
  preset: Preset;
  /** A study's own values over the preset (seed 004 throughput: LeveledCompactionStrategy). */
  study?: StudyServerSide;
  /** YCSB fieldcount. @default 10 */
  fieldCount?: number;
  /** The load's own preset (seed 000): its server side holds until the plan's settle after the load. @default preset */
  loadPreset?: Preset;
}

/** One process of a node, started detached (runner/boot/processes.ts DetachedProcess). */
export interface LocalProcessState {
  /** The runtime's name for it (e.g. "namenode"), also its log file: <logDir>/<name>.log. */
  name: string;
  pid: number;
  /** A string found in /proc/<pid>/cmdline of this process, so a recycled pid is never signalled. */
  commandMarker: string;
}

export interface LocalNodeState {
  index: number;
  address: string;
  ports: Record<string, number>;
  /** Folder of the node's logs: each process's output (<name>.log) and the engine's own logs. */
  logDir: string;
  /** Every process the node runs, in start order (HBase's first node: namenode, zookeeper, ..., regionserver). */
  processes: LocalProcessState[];
}

export interface LocalEngineState {
  engine: Engine;
  preset: Preset;
  dataDir: string;
  startedAt: string;
  nodes: LocalNodeState[];
  /** Engine-specific facts (e.g. the schema's field count). */
  details?: Record<string, unknown>;
}

export interface LocalNodeStatus {
  index: number;
  address: string;
  /** Each process of the node and whether it still runs. */
  processes: Array<{ name: string; pid: number; alive: boolean }>;
  /** Every process of the node runs. */
  alive: boolean;
  detail?: string;
}

export interface LocalEngineStatus {
  engine: Engine;
  preset: Preset;
  ready: boolean;
  nodes: LocalNodeStatus[];
  /** Why it is not ready (empty when ready). */
  reasons: string[];
}

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Where local engines keep data, logs and state: `<repo>/.local/engines` unless YCSB_LAB_LOCAL_DIR says otherwise. */
export function localEnginesDir(): string {
  return process.env.YCSB_LAB_LOCAL_DIR ?? join(REPO_ROOT, ".local", "engines");
}

const LOOPBACK_PREFIX = /^127\.(\d{1,3})\.(\d{1,3})$/;

/**
 * Address of local node `index` (1-based): `<prefix>.<index>` with prefix YCSB_LAB_LOOPBACK_PREFIX, default
 * "127.0.0". Test suites that run beside a developer's engines pick another prefix (and YCSB_LAB_LOCAL_DIR),
 * so the two never share an address, a port or a state file. Always loopback: never any other network.
 */
export function loopbackAddress(index: number): string {
  const prefix = process.env.YCSB_LAB_LOOPBACK_PREFIX ?? "127.0.0";
  const m = LOOPBACK_PREFIX.exec(prefix);
  if (!m || Number(m[1]) > 255 || Number(m[2]) > 255) {
    throw new Error(`YCSB_LAB_LOOPBACK_PREFIX: must be a loopback prefix like 127.0.0, got "${prefix}"`);
  }
  if (!Number.isInteger(index) || index < 1 || index > 254) throw new Error(`node index must be 1..254, got ${index}`);
  return `${prefix}.${index}`;
}

export function engineDir(engine: Engine): string {
  return join(localEnginesDir(), engine);
}

export function stateFile(engine: Engine): string {
  return join(engineDir(engine), "state.json");
}

export async function readState(engine: Engine): Promise<LocalEngineState | undefined> {
  let text: string;
  try {
    text = await readFile(stateFile(engine), "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  const state = JSON.parse(text) as LocalEngineState;
  if (state.engine !== engine || !Array.isArray(state.nodes))
    throw new Error(`${stateFile(engine)}: not a ${engine} state file`);
  for (const node of state.nodes as Array<LocalNodeState & { pid?: number; commandMarker?: string }>) {
    // A state file of an earlier version names one process per node: `local down` still stops it.
    if (!Array.isArray(node.processes) && node.pid !== undefined && node.commandMarker !== undefined)
      node.processes = [{ name: "server", pid: node.pid, commandMarker: node.commandMarker }];
    if (!Array.isArray(node.processes))
      throw new Error(`${stateFile(engine)}: node ${node.index} names no processes: delete the file`);
  }
  return state;
}

export async function writeState(state: LocalEngineState): Promise<void> {
  const file = stateFile(state.engine);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(`${file}.tmp`, `${JSON.stringify(state, null, 2)}\n`);
  await rename(`${file}.tmp`, file);
}

export async function removeState(engine: Engine): Promise<void> {
  await rm(stateFile(engine), { force: true });
}

/** Each process of the node and whether it runs and is still the one started (runner/boot/processes.ts). */
export function processesAlive(node: Pick<LocalNodeState, "processes">): LocalNodeStatus["processes"] {
  return node.processes.map((p) => ({ name: p.name, pid: p.pid, alive: processAlive(p) }));
}

/** True when the node runs every process it started (and at least one), none of them a recycled pid. */
export async function nodeAlive(node: Pick<LocalNodeState, "processes">): Promise<boolean> {
  return node.processes.length > 0 && node.processes.every((p) => processAlive(p));
}

/** "master (pid 14) is not running" for each process of a node that no longer runs. */
export function notRunning(processes: { name: string; pid: number; alive: boolean }[]): string {
  const gone = processes.filter((p) => !p.alive).map((p) => `${p.name} (pid ${p.pid})`);
  return gone.length === 0 ? "runs no process" : `${gone.join(", ")} ${gone.length === 1 ? "is" : "are"} not running`;
}

/** The node's processes as `local up` and `local status` print them: "namenode pid 12, master pid 14". */
export function pidsOf(node: { processes: ReadonlyArray<{ name: string; pid: number }> }): string {
  return node.processes.map((p) => `${p.name} pid ${p.pid}`).join(", ");
}

/**
 * Stops every process of the node (those still ours) in reverse start order, the one supervisor's stop for each:
 * SIGTERM, SIGKILL after `graceMs` (an HBase node's region server before its master, its datanode before the
 * namenode, as HBase's stop-hbase.sh and Hadoop's stop-dfs.sh order them).
 */
export async function stopNode(node: Pick<LocalNodeState, "processes">, graceMs = 30_000): Promise<void> {
  for (const p of [...node.processes].reverse()) await stopDetached(p, graceMs);
}
