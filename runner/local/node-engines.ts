import { readFile, rm } from "node:fs/promises";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import type { NodeContext } from "../../engines/node-context.js";
import type { EngineRuntime, NodePaths, NodeTuning, StandInRuntime } from "../../engines/runtime.js";
import type { Engine } from "../../model/engine.js";
import type { Preset } from "../../model/presets.js";
import type { StudyServerSide } from "../../model/scenario.js";
import { NodeEngine } from "../boot/node-engine.js";
import { freePort } from "../boot/processes.js";
import { type LocalNodeState, loopbackAddress } from "./engine.js";

/**
 * Engines on this machine started the way the boot command starts them on an instance and in a rehearsal: the
 * engine's runtime (engines/<engine>/runtime.ts) lays out and starts each node through the one NodeEngine and its
 * supervisor (runner/boot), detached so that `local status` and `local down` work from another process. What
 * differs is only where things are: node N on loopback address <prefix>.N, its folders under the engine's folder.
 */

/** Every node shares this machine (2 cores, 24 GB): a capped heap, a fast loopback ring, ports of their own. */
export const LOCAL_TUNING: NodeTuning = { maxHeapMb: 768, fastGossip: true, sharedHost: true };

/**
 * LOCAL_TUNING with a free port for a stand-in that binds every address (CouchbaseMock's REST port): its own
 * 8091 would collide with a rehearsal's or another checkout's on this machine.
 */
export async function localTuningWithFreePort(): Promise<NodeTuning> {
  return { ...LOCAL_TUNING, standInPort: await freePort() };
}

/** The folders of local node `index` (1-based): configuration, data and logs under `<dataDir>/node-<index>`. */
export function localNodePaths(dataDir: string, index: number): NodePaths {
  const dir = join(dataDir, `node-${index}`);
  return {
    install: join(dataDir, "engine"),
    conf: join(dir, "conf"),
    data: join(dir, "data"),
    log: join(dir, "data"),
    run: dir,
  };
}

/** What a local cluster is: engine, size and server side; the rest of a node's context follows from it. */
export interface LocalCluster {
  engine: Engine;
  version: string;
  nodes: number;
  preset: Preset;
  study?: StudyServerSide;
  /** Copies of each record (Cassandra: min(nodes, 3) as ycsb-lab's keyspace does locally). */
  replication: number;
  dataDir: string;
}

/** Node `index`'s (1-based) view of the local cluster, as a cluster description gives it on an instance. */
export function localNodeContext(c: LocalCluster, index: number): NodeContext {
  const paths = localNodePaths(c.dataDir, index);
  return {
    engine: c.engine,
    version: c.version,
    preset: c.preset,
    loadPreset: c.preset,
    nodeIps: Array.from({ length: c.nodes }, (_, i) => loopbackAddress(i + 1)),
    index: index - 1,
    replication: c.replication,
    recordCount: 0,
    fieldCount: 10,
    runId: "local",
    region: "",
    readyMarkerUrl: "",
    adminPasswordParameter: "",
    memoryGiB: totalmem() / 2 ** 30,
    vcpus: cpus().length,
    dataDir: paths.data,
    mongoTopology: "sharded",
    serverSettings: {},
    ...(c.study ? { study: c.study } : {}),
  };
}

async function tail(file: string, lines = 20): Promise<string> {
  try {
    return (await readFile(file, "utf8")).trim().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

export interface LocalStart {
  runtime: EngineRuntime;
  /** What serves instead of the engine where it cannot be installed here, and its artifact (as in a rehearsal). */
  standIn?: { runtime: StandInRuntime; artifact: string };
  cluster: LocalCluster;
  /** The ports each node's state records (what connection properties read back). */
  ports: Record<string, number>;
  /** Start on the nodes' own folders again (a restart keeping the data); else each node's folder starts empty. */
  keepData?: boolean;
  timeoutMs: number;
  log: (line: string) => void;
  /** Called with the nodes started so far as each one's process starts (to record them before they serve). */
  started?: (nodes: LocalNodeState[]) => Promise<void>;
}

/**
 * Lays out and starts every node (all at once, each process after the endpoints its runtime says it waits for)
 * until each serves; returns the state of each node that runs a process (CouchbaseMock's other nodes live in the
 * first node's JVM). When one fails, stops every process started and throws with the failing log's tail.
 */
export async function startLocalNodes(s: LocalStart): Promise<LocalNodeState[]> {
  const engines: NodeEngine[] = [];
  for (let index = 1; index <= s.cluster.nodes; index++) {
    const paths = localNodePaths(s.cluster.dataDir, index);
    if (!s.keepData) await rm(paths.run, { recursive: true, force: true });
    const ctx = localNodeContext(s.cluster, index);
    const log = (line: string) => s.log(`${s.cluster.engine} node ${index}: ${line}`);
    const timeouts = { startMs: s.timeoutMs, waitMs: s.timeoutMs };
    const engine = new NodeEngine(s.runtime, ctx, paths, undefined, log, timeouts, s.standIn, true);
    engine.layOut();
    engines.push(engine);
  }
  let recorded = Promise.resolve();
  for (const engine of engines)
    engine.onStarted(() => {
      const nodes = engines.flatMap((e, i) => (e.supervised.length > 0 ? [nodeState(e, i + 1, s)] : []));
      recorded = recorded.then(() => s.started?.(nodes)).catch(() => undefined);
    });
  const started = await Promise.allSettled(engines.map((e) => e.start()));
  await recorded;
  const failed = started.findIndex((r) => r.status === "rejected");
  if (failed >= 0) {
    await Promise.all(engines.map((e) => e.stop(10_000)));
    const logFile = engines[failed]!.lastLog;
    const reason = (started[failed] as PromiseRejectedResult).reason as Error;
    throw new Error(
      `${s.cluster.engine} node ${failed + 1} (${loopbackAddress(failed + 1)}): ${reason.message}` +
        (logFile ? `\n${await tail(logFile)}` : ""),
    );
  }
  try {
    return engines.flatMap((e, i) => (e.supervised.length > 0 ? [nodeState(e, i + 1, s)] : []));
  } catch (err) {
    await Promise.all(engines.map((e) => e.stop(10_000)));
    throw err;
  }
}

function nodeState(engine: NodeEngine, index: number, s: LocalStart): LocalNodeState {
  const processes = engine.supervised.map((p) => {
    if (p.pid === undefined || p.commandLine === undefined)
      throw new Error(`${s.cluster.engine}: ${p.spec.name} is a service, which a local node cannot run`);
    // Its whole command line: a pid the kernel gave to another process since is never signalled.
    return { name: p.spec.name, pid: p.pid, commandMarker: p.commandLine };
  });
  return {
    index,
    address: loopbackAddress(index),
    ports: s.ports,
    logDir: localNodePaths(s.cluster.dataDir, index).run,
    processes,
  };
}
