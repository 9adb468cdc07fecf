import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { COUCHBASE_BINDING, couchbaseConnectionProperties } from "../../engines/couchbase/binding.js";
import { kvPortsOf } from "../../engines/couchbase/formation.js";
import { COUCHBASE_BUCKET } from "../../engines/couchbase/schema.js";
import {
  COUCHBASE_MOCK_VERSION,
  COUCHBASE_STAND_IN,
  MOCK_BUCKET_PASSWORD,
  mockPresetRefusal,
} from "../../engines/couchbase/stand-in.js";
import { engineRuntime } from "../../engines/runtimes.js";
import { ENGINE_VERSIONS } from "../../model/engine.js";
import { waitUntil } from "../boot/processes.js";
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
import { type LocalCluster, localTuningWithFreePort, startLocalNodes } from "./node-engines.js";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

export { COUCHBASE_MOCK_VERSION, COUCHBASE_STAND_IN };

/** Fetches the mock jar once into .cache/couchbase-mock; a second call touches no network. */
export async function couchbaseMockJar(): Promise<string> {
  const { stdout } = await promisify(execFile)("bash", [join(REPO_ROOT, "scripts", "setup-couchbase-mock.sh")], {
    env: { ...process.env, COUCHBASE_MOCK_VERSION },
    maxBuffer: 1 << 20,
  });
  const jar = stdout.trim().split("\n").pop();
  if (!jar) throw new Error("scripts/setup-couchbase-mock.sh printed no jar path");
  return jar;
}

/** KV ports of the bucket's nodes, from the mock's REST cluster map (the same document Couchbase Server serves). */
export async function kvPorts(host: string, restPort: number): Promise<number[]> {
  const auth = Buffer.from(`${COUCHBASE_BUCKET}:${MOCK_BUCKET_PASSWORD}`).toString("base64");
  const response = await fetch(`http://${host}:${restPort}/pools/default/buckets/${COUCHBASE_BUCKET}`, {
    headers: { authorization: `Basic ${auth}` },
  });
  if (!response.ok) throw new Error(`CouchbaseMock REST: HTTP ${response.status}`);
  return kvPortsOf((await response.json()) as Parameters<typeof kvPortsOf>[0]);
}

/** The stored document of `key`, read through the mock's control API (not through the SDK), or undefined. */
export async function mockDocument(state: LocalEngineState, key: string): Promise<Record<string, unknown> | undefined> {
  const node = mockNode(state);
  const url = `http://${node.address}:${node.ports.rest}/mock/keyinfo?Key=${encodeURIComponent(key)}&Bucket=${COUCHBASE_BUCKET}`;
  const body = (await (await fetch(url)).json()) as { status: string; payload?: { Cache?: { Value?: string } }[] };
  const value = body.payload?.find((p) => p.Cache?.Value !== undefined)?.Cache?.Value;
  return value === undefined ? undefined : (JSON.parse(value) as Record<string, unknown>);
}

/** The node whose JVM serves every mock node (the first): its address and REST port. */
function mockNode(state: LocalEngineState): LocalEngineState["nodes"][number] {
  const node = state.nodes[0];
  if (!node?.ports.rest) throw new Error(`${state.dataDir}: couchbase state has no REST port`);
  return node;
}

/**
 * Starts the mock from the stand-in a rehearsal runs (engines/couchbase/runtime.ts couchbaseStandIn) through the
 * boot's NodeEngine: one JVM on node 1's loopback address serving `nodes` mock nodes, REST on a free port.
 */
async function startMock(opts: LocalUpOptions, log: (line: string) => void): Promise<LocalEngineState> {
  const tuning = await localTuningWithFreePort();
  const runtime = engineRuntime("couchbase", tuning);
  const standIn = { runtime: runtime.standIn!, artifact: await couchbaseMockJar() };
  const cluster: LocalCluster = {
    engine: "couchbase",
    version: ENGINE_VERSIONS.couchbase,
    nodes: opts.nodes,
    preset: opts.preset,
    replication: 1,
    dataDir: opts.dataDir,
  };
  const base: LocalEngineState = {
    engine: "couchbase",
    preset: opts.preset,
    dataDir: opts.dataDir,
    startedAt: new Date().toISOString(),
    nodes: [],
    details: { standIn: COUCHBASE_STAND_IN, mockVersion: COUCHBASE_MOCK_VERSION, kvNodes: opts.nodes },
  };
  const nodes = await startLocalNodes({
    runtime,
    standIn,
    cluster,
    ports: { rest: tuning.standInPort! },
    timeoutMs: 60_000,
    log,
    // Recorded as soon as it starts, so `local down` can stop a mock that never became ready.
    started: (started) => writeState({ ...base, nodes: started }),
  });
  const state = { ...base, nodes };
  await writeState(state);
  return state;
}

export const couchbaseLocalEngine: LocalEngine = {
  engine: "couchbase",
  binding: { ...COUCHBASE_BINDING },
  standIn: COUCHBASE_STAND_IN,

  async up(opts: LocalUpOptions): Promise<LocalEngineState> {
    const log = opts.log ?? (() => {});
    const refusal = mockPresetRefusal(opts.preset);
    if (refusal) throw new Error(`preset: ${refusal}`);
    if (!Number.isInteger(opts.nodes) || opts.nodes < 1 || opts.nodes > 4) {
      throw new Error(`nodes: CouchbaseMock runs 1..4 nodes in one JVM, got ${opts.nodes}`);
    }
    log(`couchbase: ${COUCHBASE_STAND_IN}; the bucket's server side (full eviction) does not apply`);
    let state: LocalEngineState;
    try {
      state = await startMock(opts, log);
    } catch (err) {
      await removeState("couchbase");
      throw err;
    }
    const node = mockNode(state);
    let ports: number[] = [];
    try {
      await waitUntil(`CouchbaseMock's cluster map on ${node.address}:${node.ports.rest}`, 60_000, async () => {
        if (!(await nodeAlive(node))) throw new Error(`CouchbaseMock exited during start; see ${node.logDir}`);
        ports = await kvPorts(node.address, node.ports.rest!).catch(() => []);
        return ports.length === opts.nodes;
      });
    } catch (err) {
      await stopNode(node, 5_000);
      await removeState("couchbase");
      throw err;
    }
    node.ports = { ...node.ports, ...Object.fromEntries(ports.map((port, i) => [`kv${i}`, port])) };
    await writeState(state);
    log(`couchbase: CouchbaseMock up, REST ${node.address}:${node.ports.rest}, KV ${ports.join(", ")}`);
    return state;
  },

  async status(state) {
    const node = state.nodes[0];
    const alive = node ? await nodeAlive(node) : false;
    const ports = alive ? await kvPorts(mockNode(state).address, mockNode(state).ports.rest!).catch(() => []) : [];
    const reasons = [
      ...(!node ? ["state names no CouchbaseMock process"] : []),
      ...(node && !alive ? [`CouchbaseMock (${pidsOf(node)}) is not running`] : []),
      ...(alive && ports.length === 0 ? ["CouchbaseMock serves no cluster map for the ycsb bucket"] : []),
    ];
    return {
      engine: "couchbase",
      preset: state.preset,
      ready: reasons.length === 0,
      nodes: state.nodes.map((n) => ({
        index: n.index,
        address: `${n.address}:${n.ports.rest} (REST)`,
        processes: processesAlive(n),
        alive,
        detail: COUCHBASE_STAND_IN,
      })),
      reasons,
    };
  },

  async down(state) {
    for (const node of state.nodes) await stopNode(node, 10_000);
    await removeState("couchbase");
  },

  connectionProperties(state) {
    const node = state.nodes[0];
    const kv = Object.entries(node?.ports ?? {})
      .filter(([name]) => name.startsWith("kv"))
      .map(([, port]) => `${node!.address}:${port}`);
    if (kv.length === 0) throw new Error(`${state.dataDir}: couchbase state has no KV ports`);
    return couchbaseConnectionProperties({
      connectionString: `couchbase://${kv.join(",")}`,
      username: COUCHBASE_BUCKET,
      password: MOCK_BUCKET_PASSWORD,
    });
  },
};
