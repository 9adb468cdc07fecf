import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { MONGODB_BINDING, mongodbConnectionProperties } from "../../engines/mongodb/binding.js";
import { FERRETDB_VERSION, MONGODB_STAND_IN } from "../../engines/mongodb/stand-in.js";
import { MONGOS_PORT } from "../../engines/mongodb/topology.js";
import { engineRuntime } from "../../engines/runtimes.js";
import { ENGINE_VERSIONS } from "../../model/engine.js";
import { tcpOpen } from "../boot/processes.js";
import {
  type LocalEngine,
  type LocalEngineState,
  type LocalUpOptions,
  nodeAlive,
  pidsOf,
  processesAlive,
  removeState,
  stopNode,
  writeState,
} from "./engine.js";
import { LOCAL_TUNING, type LocalCluster, startLocalNodes } from "./node-engines.js";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Builds FerretDB once into .cache/ferretdb (Go module proxy); a second call touches no network. */
export async function ferretdbBinary(): Promise<string> {
  const { stdout } = await promisify(execFile)("bash", [join(REPO_ROOT, "scripts", "setup-ferretdb.sh")], {
    env: { ...process.env, FERRETDB_VERSION },
    maxBuffer: 1 << 20,
  });
  const path = stdout.trim().split("\n").pop();
  if (!path) throw new Error("scripts/setup-ferretdb.sh printed no binary path");
  return path;
}

function port(state: LocalEngineState): number {
  const value = state.nodes[0]?.ports.mongodb;
  if (!value) throw new Error(`${state.dataDir}: mongodb state has no port`);
  return value;
}

export const mongodbLocalEngine: LocalEngine = {
  engine: "mongodb",
  binding: { ...MONGODB_BINDING },
  standIn: MONGODB_STAND_IN,

  async up(opts: LocalUpOptions): Promise<LocalEngineState> {
    if (opts.nodes !== 1)
      throw new Error(`nodes: the MongoDB stand-in (FerretDB) runs a single node, got ${opts.nodes}`);
    const log = opts.log ?? (() => {});
    log(`mongodb: ${MONGODB_STAND_IN}; the preset's server side (mongod.conf) does not apply, its write concern does`);
    const cluster: LocalCluster = {
      engine: "mongodb",
      version: ENGINE_VERSIONS.mongodb,
      nodes: 1,
      preset: opts.preset,
      replication: 1,
      dataDir: opts.dataDir,
    };
    // The stand-in a rehearsal runs (engines/mongodb/runtime.ts mongodbStandIn), started as the boot starts it.
    const runtime = engineRuntime("mongodb", LOCAL_TUNING);
    const standIn = { runtime: runtime.standIn!, artifact: await ferretdbBinary() };
    const base: LocalEngineState = {
      engine: "mongodb",
      preset: opts.preset,
      dataDir: opts.dataDir,
      startedAt: new Date().toISOString(),
      nodes: [],
      details: { standIn: MONGODB_STAND_IN, ferretdbVersion: FERRETDB_VERSION, backend: "sqlite" },
    };
    let nodes: LocalEngineState["nodes"];
    try {
      // Every `local up` starts empty (the node's folder is emptied): YCSB's load expects no records.
      nodes = await startLocalNodes({
        runtime,
        standIn,
        cluster,
        ports: { mongodb: MONGOS_PORT },
        timeoutMs: 60_000,
        log,
        // Recorded as soon as it starts, so `local down` can stop a server that never became ready.
        started: (started) => writeState({ ...base, nodes: started }),
      });
    } catch (err) {
      await removeState("mongodb");
      throw err;
    }
    const state: LocalEngineState = { ...base, nodes };
    await writeState(state);
    log(`mongodb: FerretDB up on ${nodes[0]!.address}:${MONGOS_PORT}`);
    return state;
  },

  async status(state) {
    const node = state.nodes[0];
    const alive = node ? await nodeAlive(node) : false;
    const listening = alive && node ? await tcpOpen(node.address, port(state)) : false;
    const reasons = [
      ...(!node ? ["state names no FerretDB node"] : []),
      ...(node && !alive ? [`FerretDB (${pidsOf(node)}) is not running`] : []),
      ...(alive && !listening ? [`FerretDB does not accept connections on port ${port(state)}`] : []),
    ];
    return {
      engine: "mongodb",
      preset: state.preset,
      ready: reasons.length === 0,
      nodes: state.nodes.map((n) => ({
        index: n.index,
        address: `${n.address}:${n.ports.mongodb}`,
        processes: processesAlive(n),
        alive,
        detail: MONGODB_STAND_IN,
      })),
      reasons,
    };
  },

  async down(state) {
    for (const node of state.nodes) await stopNode(node, 10_000);
    await removeState("mongodb");
  },

  connectionProperties(state) {
    return mongodbConnectionProperties({ hosts: [`${state.nodes[0]?.address ?? "127.0.0.1"}:${port(state)}`] });
  },
};
