import { execFile } from "node:child_process";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { MONGODB_BINDING, mongodbConnectionProperties } from "../../engines/mongodb/binding.js";
import { FERRETDB_VERSION, ferretdbArgs, MONGODB_STAND_IN } from "../../engines/mongodb/stand-in.js";
import { freePort, startProcess, tcpOpen, waitUntil } from "../boot/processes.js";
import {
  type LocalEngine,
  type LocalEngineState,
  type LocalUpOptions,
  nodeAlive,
  removeState,
  stopNode,
  writeState,
} from "./engine.js";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

export { FERRETDB_VERSION, ferretdbArgs, MONGODB_STAND_IN };

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
    const binary = await ferretdbBinary();
    const dataDir = join(opts.dataDir, "node-0", "data");
    const logDir = join(opts.dataDir, "node-0", "logs");
    // Every `local up` starts empty, like the other engines: YCSB's load expects no records.
    await rm(dataDir, { recursive: true, force: true });
    await mkdir(dataDir, { recursive: true });
    const listenPort = await freePort();
    const spec = { name: "stdout", argv: [binary, ...ferretdbArgs(dataDir, listenPort)], cwd: dataDir, listens: [] };
    const pid = startProcess(spec, logDir, { detached: true }).pid!;
    const node = {
      index: 0,
      pid,
      address: "127.0.0.1",
      ports: { mongodb: listenPort },
      logDir,
      commandMarker: `--sqlite-url=file:${dataDir}/`,
    };
    const state: LocalEngineState = {
      engine: "mongodb",
      preset: opts.preset,
      dataDir: opts.dataDir,
      startedAt: new Date().toISOString(),
      nodes: [node],
      details: { standIn: MONGODB_STAND_IN, ferretdbVersion: FERRETDB_VERSION, backend: "sqlite" },
    };
    // Written before the wait, so `local down` can stop a server that never became ready.
    await writeState(state);
    try {
      await waitUntil(`FerretDB on 127.0.0.1:${listenPort} (log: ${logDir}/stdout.log)`, 60_000, async () => {
        if (!(await nodeAlive(node))) throw new Error(`FerretDB exited during start; see ${logDir}/stdout.log`);
        return tcpOpen("127.0.0.1", listenPort);
      });
    } catch (err) {
      await stopNode(node, 5_000);
      await removeState("mongodb");
      throw err;
    }
    log(`mongodb: FerretDB up on 127.0.0.1:${listenPort}`);
    return state;
  },

  async status(state) {
    const node = state.nodes[0];
    const alive = node ? await nodeAlive(node) : false;
    const listening = alive && node ? await tcpOpen(node.address, port(state)) : false;
    const reasons = [
      ...(!node ? ["state names no FerretDB node"] : []),
      ...(node && !alive ? [`FerretDB (pid ${node.pid}) is not running`] : []),
      ...(alive && !listening ? [`FerretDB does not accept connections on port ${port(state)}`] : []),
    ];
    return {
      engine: "mongodb",
      preset: state.preset,
      ready: reasons.length === 0,
      nodes: state.nodes.map((n) => ({
        index: n.index,
        address: `${n.address}:${n.ports.mongodb}`,
        pid: n.pid,
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
    return mongodbConnectionProperties({ hosts: [`127.0.0.1:${port(state)}`] });
  },
};
