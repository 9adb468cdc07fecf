import { dirname } from "node:path";
import {
  CASSANDRA_BINDING,
  CQL_PORT,
  cassandraConnectionProperties,
  STORAGE_PORT,
} from "../../engines/cassandra/index.js";
import { engineRuntime } from "../../engines/runtimes.js";
import { ENGINE_VERSIONS } from "../../model/engine.js";
import type { StudyServerSide } from "../../model/scenario.js";
import { installArtifacts } from "../boot/engine-install.js";
import { awaitRing, formCassandra, ringReasons } from "../boot/formation/cassandra.js";
import { bindingClasspathDir, runSetupScript, ycsbCoreDir } from "../java-artifacts.js";
import {
  engineDir,
  type LocalEngine,
  type LocalEngineState,
  type LocalEngineStatus,
  type LocalUpOptions,
  nodeAlive,
  notRunning,
  processesAlive,
  removeState,
  type SchemaOptions,
  stopNode,
  writeState,
} from "./engine.js";
import { LOCAL_TUNING, type LocalCluster, localNodeContext, startLocalNodes } from "./node-engines.js";

/**
 * Apache Cassandra 5.0 on this machine, started as the boot command starts it (engines/cassandra/runtime.ts through
 * runner/boot's NodeEngine): one JVM per node from the cassandra-all jars (scripts/setup-cassandra.sh, laid out like
 * the Apache tarball as a rehearsal uses them), node N on loopback address <prefix>.N (see loopbackAddress) with the
 * same ports. The ring forms and the keyspace is prepared by the boot leader's own formation.
 */

export const CASSANDRA_LOCAL_MAX_NODES = 3;
const READY_TIMEOUT_MS = 240_000;

const tools = async () => ({ bindingDir: await bindingClasspathDir("cassandra"), ycsbCoreDir: ycsbCoreDir() });

function clusterOf(opts: Pick<LocalUpOptions, "nodes" | "preset" | "dataDir" | "study">): LocalCluster {
  return {
    engine: "cassandra",
    version: ENGINE_VERSIONS.cassandra,
    nodes: opts.nodes,
    preset: opts.preset,
    replication: Math.min(opts.nodes, 3),
    dataDir: opts.dataDir,
    ...(opts.study ? { study: opts.study } : {}),
  };
}

/**
 * Starts every node (keeping its data or on empty folders), forms the ring as the boot leader does and prepares
 * the keyspace; the state is written as soon as the processes run, so `local down` finds them whatever follows.
 */
async function startRing(
  cluster: LocalCluster,
  base: LocalEngineState,
  log: (line: string) => void,
  restart: boolean,
): Promise<LocalEngineState> {
  // scripts/setup-cassandra.sh prints <cache>/<version>/lib: the folder stands for the unpacked tarball.
  const lib = await runSetupScript("setup-cassandra.sh");
  const runtime = engineRuntime("cassandra", LOCAL_TUNING);
  await installArtifacts(runtime.artifacts(cluster.version), `${cluster.dataDir}/engine`, dirname(lib));
  let nodes: LocalEngineState["nodes"] = [];
  try {
    nodes = await startLocalNodes({
      runtime,
      cluster,
      ports: { cql: CQL_PORT, storage: STORAGE_PORT },
      keepData: restart,
      timeoutMs: READY_TIMEOUT_MS,
      log,
      // Recorded as each JVM starts, so `local down` stops a node that never became ready.
      started: (started) => writeState({ ...base, startedAt: new Date().toISOString(), nodes: started }),
    });
    const state: LocalEngineState = { ...base, startedAt: new Date().toISOString(), nodes };
    await writeState(state);
    log(`cassandra: waiting for ${cluster.nodes} node(s) to be up and normal`);
    const hosts = nodes.map((n) => n.address);
    // A restart finds its keyspace (seed 003 restarted the server keeping its data): the ring is all it waits for.
    if (restart) await awaitRing(await tools(), hosts, Date.now() + READY_TIMEOUT_MS, READY_TIMEOUT_MS, log);
    else {
      log(`cassandra: preparing keyspace ycsb (preset ${cluster.preset})`);
      await formCassandra({ ctx: localNodeContext(cluster, 1), log, timeoutMs: READY_TIMEOUT_MS });
    }
    return state;
  } catch (err) {
    // Leave nothing running when start-up fails (startLocalNodes stops what it started); the logs stay.
    await Promise.all(nodes.map((n) => stopNode(n, 10_000)));
    await removeState("cassandra");
    throw err;
  }
}

async function prepareSchema(state: LocalEngineState, opts: SchemaOptions): Promise<void> {
  const study = opts.study ?? studyOf(state);
  const ctx = {
    ...localNodeContext(clusterOf({ ...state, nodes: state.nodes.length, ...(study ? { study } : {}) }), 1),
    preset: opts.preset,
    loadPreset: opts.loadPreset ?? opts.preset,
    fieldCount: opts.fieldCount ?? 10,
  };
  await formCassandra({ ctx, log: () => {}, timeoutMs: READY_TIMEOUT_MS });
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
    const base: LocalEngineState = {
      engine: "cassandra",
      preset: opts.preset,
      dataDir: opts.dataDir,
      startedAt: "",
      nodes: [],
      // Kept so a restart renders the same files and a later prepare the same table.
      ...(opts.study ? { details: { study: opts.study } } : {}),
    };
    return startRing(clusterOf(opts), base, log, false);
  },

  async status(state): Promise<LocalEngineStatus> {
    const nodes = await Promise.all(
      state.nodes.map(async (n) => ({
        index: n.index,
        address: n.address,
        processes: processesAlive(n),
        alive: await nodeAlive(n),
      })),
    );
    const reasons = nodes
      .filter((n) => !n.alive)
      .map((n) => `node ${n.index} (${n.address}): ${notRunning(n.processes)}`);
    if (reasons.length === 0) {
      reasons.push(
        ...(await ringReasons(
          await tools(),
          state.nodes.map((n) => n.address),
        )),
      );
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
    const study = studyOf(state);
    const cluster = clusterOf({ ...state, nodes: state.nodes.length, ...(study ? { study } : {}) });
    log(`cassandra: restarting ${state.nodes.length} node(s) on their data`);
    return startRing(cluster, state, log, true);
  },
};

/** The study's values a running cluster was started with (state details). */
function studyOf(state: LocalEngineState): StudyServerSide | undefined {
  return state.details?.study as StudyServerSide | undefined;
}

export function defaultCassandraDataDir(): string {
  return engineDir("cassandra");
}
