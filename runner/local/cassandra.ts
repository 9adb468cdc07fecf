import { spawn } from "node:child_process";
import { closeSync, openSync, readdirSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { join } from "node:path";
import {
  CASSANDRA_BINDING,
  cassandraConnectionProperties,
  cassandraNodeCommand,
  cassandraReadiness,
  cassandraSchemaStatements,
  GOSSIP_QUERY,
  type GossipRow,
  renderCassandraYaml,
  renderLogbackXml,
} from "../../engines/cassandra/index.js";
import { presetFor } from "../../model/presets.js";
import type { StudyServerSide } from "../../model/scenario.js";
import { bindingClasspathDir, runSetupScript, ycsbCoreDir } from "../java-artifacts.js";
import { queryCql, runCql } from "./cassandra-cql.js";
import {
  engineDir,
  type LocalEngine,
  type LocalEngineState,
  type LocalEngineStatus,
  type LocalNodeState,
  type LocalUpOptions,
  loopbackAddress,
  nodeAlive,
  removeState,
  type SchemaOptions,
  stopNode,
  writeState,
} from "./engine.js";

/**
 * Apache Cassandra 5.0 on this machine, from the cassandra-all jar (scripts/setup-cassandra.sh): one JVM per
 * node, node N on loopback address 127.0.0.N (see loopbackAddress) with the same ports, each booted with the cassandra.yaml that
 * engines/cassandra renders (the one AWS user-data uses too).
 */

export const CASSANDRA_LOCAL_MAX_NODES = 3;
const CQL_PORT = 9042;
const STORAGE_PORT = 7000;
const CLUSTER_NAME = "ycsb-lab-local";
/** Three nodes at this heap fit the 2-core / 24 GB development machine with room for YCSB. */
const HEAP = "768m";
const READY_TIMEOUT_MS = 240_000;

const address = (index: number): string => loopbackAddress(index);

export function nodeDir(dataDir: string, index: number): string {
  return join(dataDir, `node-${index}`);
}

async function cassandraLibDir(): Promise<string> {
  return runSetupScript("setup-cassandra.sh");
}

function jammJar(libDir: string): string {
  const jar = readdirSync(libDir).find((f) => /^jamm-.*\.jar$/.test(f));
  if (!jar)
    throw new Error(`no jamm jar in ${libDir}: Cassandra needs it as -javaagent (re-run scripts/setup-cassandra.sh)`);
  return join(libDir, jar);
}

function portOpen(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 1000 });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}

async function tail(file: string, lines = 20): Promise<string> {
  try {
    return (await readFile(file, "utf8")).trim().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function startNode(
  index: number,
  nodes: number,
  opts: LocalUpOptions,
  libDir: string,
  keepData = false,
): Promise<LocalNodeState> {
  const dir = nodeDir(opts.dataDir, index);
  // A restart keeping the data (seed 003 restarted the server before each batch) starts on the node's own folders.
  if (!keepData) await rm(dir, { recursive: true, force: true });
  for (const sub of ["data", "commitlog", "hints", "saved_caches", "cdc_raw"])
    await mkdir(join(dir, sub), { recursive: true });
  const yamlFile = join(dir, "cassandra.yaml");
  const logbackFile = join(dir, "logback.xml");
  await writeFile(
    yamlFile,
    renderCassandraYaml({
      clusterName: CLUSTER_NAME,
      seeds: [address(1)],
      listenAddress: address(index),
      rpcAddress: address(index),
      dataDir: join(dir, "data"),
      commitlogDir: join(dir, "commitlog"),
      hintsDir: join(dir, "hints"),
      savedCachesDir: join(dir, "saved_caches"),
      cdcDir: join(dir, "cdc_raw"),
      nativeTransportPort: CQL_PORT,
      storagePort: STORAGE_PORT,
      preset: opts.preset,
      ...(opts.study?.cassandra ? { study: opts.study.cassandra } : {}),
      // An empty new ring has nothing to stream, so every node may join without bootstrapping.
      autoBootstrap: nodes === 1,
    }),
  );
  await writeFile(logbackFile, renderLogbackXml(dir));
  const out = openSync(join(dir, "stdout.log"), "w");
  // A fresh local ring: no need to wait 30 s for gossip to settle (DESIGN.md: CQL up in seconds).
  const child = spawn(
    "java",
    cassandraNodeCommand({
      libDir,
      jammJar: jammJar(libDir),
      yamlFile,
      logbackFile,
      dir,
      heap: HEAP,
      ringDelayMs: 1000,
    }),
    {
      detached: true,
      stdio: ["ignore", out, out],
      cwd: dir,
    },
  );
  closeSync(out);
  child.unref();
  if (child.pid === undefined) throw new Error(`cassandra node ${index}: java did not start`);
  return {
    index,
    pid: child.pid,
    address: address(index),
    ports: { cql: CQL_PORT, storage: STORAGE_PORT },
    logDir: dir,
    commandMarker: yamlFile,
  };
}

async function waitForCql(node: LocalNodeState, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    if (!(await nodeAlive(node))) {
      throw new Error(
        `cassandra node ${node.index} (${node.address}) exited during start-up:\n${await tail(join(node.logDir, "system.log"))}\n${await tail(join(node.logDir, "stdout.log"), 5)}`,
      );
    }
    if (await portOpen(node.address, CQL_PORT)) return;
    await sleep(500);
  }
  throw new Error(
    `cassandra node ${node.index} (${node.address}): CQL port ${CQL_PORT} not open in time; see ${node.logDir}/system.log`,
  );
}

interface Tools {
  bindingDir: string;
  coreDir: string;
}

async function tools(): Promise<Tools> {
  return { bindingDir: await bindingClasspathDir("cassandra"), coreDir: ycsbCoreDir() };
}

/** Every node's view of the ring; `error` carries the CQL tool's complaint when a node did not answer. */
async function gossipViews(state: LocalEngineState, t: Tools): Promise<{ rows: GossipRow[]; error?: string }> {
  const result = await runCql({
    bindingDir: t.bindingDir,
    ycsbCoreDir: t.coreDir,
    hosts: state.nodes.map((n) => n.address),
    statements: [GOSSIP_QUERY],
    eachNode: true,
    timeoutMs: 60_000,
  });
  const rows = result.rows.map((r) => ({
    node: String(r._node),
    address: String(r.address),
    status: (r.status as string | null) ?? null,
    status_with_port: (r.status_with_port as string | null) ?? null,
    rpc_ready: (r.rpc_ready as string | null) ?? null,
    schema: (r.schema as string | null) ?? null,
  }));
  const error = result.exitCode === 0 ? undefined : result.stderr.trim().split("\n").slice(-2).join(" ").trim();
  return { rows, error };
}

async function readiness(state: LocalEngineState, t: Tools): Promise<string[]> {
  const views = await gossipViews(state, t);
  const { reasons } = cassandraReadiness(
    state.nodes.map((n) => n.address),
    views.rows,
  );
  if (reasons.length > 0 && views.error) reasons.push(`cql: ${views.error}`);
  return reasons;
}

async function prepareSchema(state: LocalEngineState, opts: SchemaOptions, t?: Tools): Promise<void> {
  const { bindingDir, coreDir } = t ?? (await tools());
  await queryCql({
    bindingDir,
    ycsbCoreDir: coreDir,
    hosts: state.nodes.map((n) => n.address),
    statements: cassandraSchemaStatements({
      preset: opts.preset,
      replicationFactor: Math.min(state.nodes.length, 3),
      fieldCount: opts.fieldCount,
      ...((opts.study ?? studyOf(state))?.cassandra ? { study: (opts.study ?? studyOf(state))!.cassandra } : {}),
      ...(opts.loadPreset && opts.loadPreset !== opts.preset
        ? { durableWrites: presetFor("cassandra", opts.loadPreset).server.durableWrites }
        : {}),
    }),
  });
}

export const cassandraLocalEngine: LocalEngine = {
  engine: "cassandra",
  binding: { ...CASSANDRA_BINDING },

  async up(opts) {
    const log = opts.log ?? (() => {});
    if (!Number.isInteger(opts.nodes) || opts.nodes < 1 || opts.nodes > CASSANDRA_LOCAL_MAX_NODES) {
      throw new Error(`nodes: local Cassandra runs 1 to ${CASSANDRA_LOCAL_MAX_NODES} nodes, got ${opts.nodes}`);
    }
    log("cassandra: preparing cassandra-all and the binding (cached after the first time)");
    const [libDir, t] = await Promise.all([cassandraLibDir(), tools()]);
    const state: LocalEngineState = {
      engine: "cassandra",
      preset: opts.preset,
      dataDir: opts.dataDir,
      startedAt: new Date().toISOString(),
      nodes: [],
      // Kept so a restart renders the same files and a later prepare the same table.
      ...(opts.study ? { details: { study: opts.study } } : {}),
    };
    const deadline = Date.now() + READY_TIMEOUT_MS;
    try {
      // The seed first: the others gossip with it as they start.
      log(`cassandra: starting node 1 on ${address(1)}`);
      state.nodes.push(await startNode(1, opts.nodes, opts, libDir));
      await writeState(state);
      await waitForCql(state.nodes[0]!, deadline);
      for (let i = 2; i <= opts.nodes; i++) {
        log(`cassandra: starting node ${i} on ${address(i)}`);
        state.nodes.push(await startNode(i, opts.nodes, opts, libDir));
        await writeState(state);
      }
      for (const node of state.nodes.slice(1)) await waitForCql(node, deadline);
      log(`cassandra: waiting for ${opts.nodes} node(s) to be up and normal`);
      let reasons: string[] = [];
      while (Date.now() < deadline) {
        reasons = await readiness(state, t);
        if (reasons.length === 0) break;
        await sleep(1000);
      }
      if (Date.now() >= deadline)
        throw new Error(`cassandra: cluster not ready in ${READY_TIMEOUT_MS / 1000} s: ${reasons.join("; ")}`);
      log(`cassandra: preparing keyspace ycsb (preset ${opts.preset})`);
      await prepareSchema(state, { preset: opts.preset, ...(opts.study ? { study: opts.study } : {}) }, t);
      return state;
    } catch (err) {
      // Leave nothing running when start-up fails; the logs stay for inspection.
      for (const node of state.nodes) await stopNode(node, 10_000);
      await removeState("cassandra");
      throw err;
    }
  },

  async status(state): Promise<LocalEngineStatus> {
    const nodes = await Promise.all(
      state.nodes.map(async (n) => ({ index: n.index, address: n.address, pid: n.pid, alive: await nodeAlive(n) })),
    );
    const reasons = nodes
      .filter((n) => !n.alive)
      .map((n) => `node ${n.index} (${n.address}): process ${n.pid} is not running`);
    if (reasons.length === 0) {
      reasons.push(...(await readiness(state, await tools())));
    }
    return { engine: "cassandra", preset: state.preset, ready: reasons.length === 0, nodes, reasons };
  },

  async down(state) {
    // Cassandra nodes flush on SIGTERM; all at once so a three-node ring stops in one grace period.
    await Promise.all(state.nodes.map((n) => stopNode(n)));
    await removeState("cassandra");
  },

  connectionProperties(state) {
    return cassandraConnectionProperties({
      hosts: state.nodes.map((n) => n.address),
      port: state.nodes[0]?.ports.cql ?? CQL_PORT,
    });
  },

  prepareSchema: (state, opts) => prepareSchema(state, opts),

  async restart(state, log = () => {}) {
    // Stop every node (they flush on SIGTERM), then start each on its own folders again and wait until ready.
    await Promise.all(state.nodes.map((n) => stopNode(n)));
    const [libDir, t] = await Promise.all([cassandraLibDir(), tools()]);
    const opts = {
      nodes: state.nodes.length,
      preset: state.preset,
      dataDir: state.dataDir,
      log,
      ...(studyOf(state) ? { study: studyOf(state) } : {}),
    };
    const next: LocalEngineState = { ...state, startedAt: new Date().toISOString(), nodes: [] };
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (const node of state.nodes) {
      log(`cassandra: restarting node ${node.index} on ${node.address}`);
      next.nodes.push(await startNode(node.index, state.nodes.length, opts, libDir, true));
      await writeState(next);
      await waitForCql(next.nodes.at(-1)!, deadline);
    }
    let reasons: string[] = [];
    while (Date.now() < deadline) {
      reasons = await readiness(next, t);
      if (reasons.length === 0) return next;
      await sleep(1000);
    }
    throw new Error(`cassandra: not ready ${READY_TIMEOUT_MS / 1000} s after the restart: ${reasons.join("; ")}`);
  },
};

/** The study's values a running cluster was started with (state details). */
function studyOf(state: LocalEngineState): StudyServerSide | undefined {
  return state.details?.study as StudyServerSide | undefined;
}

export function defaultCassandraDataDir(): string {
  return engineDir("cassandra");
}
