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
  couchbaseMockArgs,
  MOCK_BUCKET_PASSWORD,
  mockPresetRefusal,
} from "../../engines/couchbase/stand-in.js";
import { freePort, startProcess, waitUntil } from "../boot/processes.js";
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

export { COUCHBASE_MOCK_VERSION, COUCHBASE_STAND_IN, couchbaseMockArgs };

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
export async function kvPorts(restPort: number): Promise<number[]> {
  const auth = Buffer.from(`${COUCHBASE_BUCKET}:${MOCK_BUCKET_PASSWORD}`).toString("base64");
  const response = await fetch(`http://127.0.0.1:${restPort}/pools/default/buckets/${COUCHBASE_BUCKET}`, {
    headers: { authorization: `Basic ${auth}` },
  });
  if (!response.ok) throw new Error(`CouchbaseMock REST: HTTP ${response.status}`);
  return kvPortsOf((await response.json()) as Parameters<typeof kvPortsOf>[0]);
}

/** The stored document of `key`, read through the mock's control API (not through the SDK), or undefined. */
export async function mockDocument(state: LocalEngineState, key: string): Promise<Record<string, unknown> | undefined> {
  const restPort = state.nodes[0]?.ports.rest;
  const url = `http://127.0.0.1:${restPort}/mock/keyinfo?Key=${encodeURIComponent(key)}&Bucket=${COUCHBASE_BUCKET}`;
  const body = (await (await fetch(url)).json()) as { status: string; payload?: { Cache?: { Value?: string } }[] };
  const value = body.payload?.find((p) => p.Cache?.Value !== undefined)?.Cache?.Value;
  return value === undefined ? undefined : (JSON.parse(value) as Record<string, unknown>);
}

function restPort(state: LocalEngineState): number {
  const port = state.nodes[0]?.ports.rest;
  if (!port) throw new Error(`${state.dataDir}: couchbase state has no REST port`);
  return port;
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
    const jar = await couchbaseMockJar();
    const logDir = join(opts.dataDir, "node-0", "logs");
    const rest = await freePort();
    const spec = { name: "stdout", argv: ["java", ...couchbaseMockArgs(jar, rest, opts.nodes)], cwd: opts.dataDir };
    const pid = startProcess({ ...spec, listens: [] }, logDir, { detached: true }).pid!;
    const node = {
      index: 0,
      pid,
      address: "127.0.0.1",
      ports: { rest } as Record<string, number>,
      logDir,
      commandMarker: `--port\u0000${rest}\u0000`,
    };
    const state: LocalEngineState = {
      engine: "couchbase",
      preset: opts.preset,
      dataDir: opts.dataDir,
      startedAt: new Date().toISOString(),
      nodes: [node],
      details: { standIn: COUCHBASE_STAND_IN, mockVersion: COUCHBASE_MOCK_VERSION, kvNodes: opts.nodes },
    };
    // Written before the wait, so `local down` can stop a mock that never became ready.
    await writeState(state);
    let ports: number[] = [];
    try {
      await waitUntil(`CouchbaseMock on 127.0.0.1:${rest} (log: ${logDir}/stdout.log)`, 60_000, async () => {
        if (!(await nodeAlive(node))) throw new Error(`CouchbaseMock exited during start; see ${logDir}/stdout.log`);
        ports = await kvPorts(rest).catch(() => []);
        return ports.length === opts.nodes;
      });
    } catch (err) {
      await stopNode(node, 5_000);
      await removeState("couchbase");
      throw err;
    }
    for (const [i, port] of ports.entries()) node.ports[`kv${i}`] = port;
    await writeState(state);
    log(`couchbase: CouchbaseMock up, REST 127.0.0.1:${rest}, KV ${ports.join(", ")}`);
    return state;
  },

  async status(state) {
    const node = state.nodes[0];
    const alive = node ? await nodeAlive(node) : false;
    const ports = alive ? await kvPorts(restPort(state)).catch(() => []) : [];
    const reasons = [
      ...(!node ? ["state names no CouchbaseMock process"] : []),
      ...(node && !alive ? [`CouchbaseMock (pid ${node.pid}) is not running`] : []),
      ...(alive && ports.length === 0 ? ["CouchbaseMock serves no cluster map for the ycsb bucket"] : []),
    ];
    return {
      engine: "couchbase",
      preset: state.preset,
      ready: reasons.length === 0,
      nodes: state.nodes.map((n) => ({
        index: n.index,
        address: `${n.address}:${n.ports.rest} (REST)`,
        pid: n.pid,
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
      .map(([, port]) => `127.0.0.1:${port}`);
    if (kv.length === 0) throw new Error(`${state.dataDir}: couchbase state has no KV ports`);
    return couchbaseConnectionProperties({
      connectionString: `couchbase://${kv.join(",")}`,
      username: COUCHBASE_BUCKET,
      password: MOCK_BUCKET_PASSWORD,
    });
  },
};
