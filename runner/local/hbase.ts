import { HBASE_BINDING, hbaseConnectionProperties } from "../../engines/hbase/binding.js";
import { HBASE_PORTS, usertableSpec } from "../../engines/hbase/cluster-config.js";
import { engineRuntime } from "../../engines/runtimes.js";
import { ENGINE_VERSIONS } from "../../model/engine.js";
import { installArtifacts } from "../boot/engine-install.js";
import { formHBase } from "../boot/formation/hbase.js";
import { tcpOpen } from "../boot/processes.js";
import { runSetupScript } from "../java-artifacts.js";
import {
  type LocalEngine,
  type LocalEngineState,
  type LocalUpOptions,
  nodeAlive,
  notRunning,
  processesAlive,
  removeState,
  stopNode,
  writeState,
} from "./engine.js";
import { LOCAL_TUNING, type LocalCluster, localNodeContext, startLocalNodes } from "./node-engines.js";

/**
 * HBase 2.5 on HDFS on this machine, started as the boot command starts it (engines/hbase/runtime.ts through
 * runner/boot's NodeEngine): node 1 runs the namenode, ZooKeeper, a datanode, the master and a region server, every
 * other node a datanode and a region server, each daemon its own JVM from Maven Central jars laid out like the
 * tarballs (scripts/setup-hbase-artifacts.sh, as a rehearsal uses them); node N on loopback address <prefix>.N.
 * The pre-split table is created by the boot leader's own formation.
 */

/** Node 1 alone runs five JVMs; three nodes (nine JVMs) is what 2 cores start within the ready timeout. */
export const HBASE_LOCAL_MAX_NODES = 3;
const READY_TIMEOUT_MS = 300_000;

function clusterOf(opts: LocalUpOptions): LocalCluster {
  return {
    engine: "hbase",
    version: ENGINE_VERSIONS.hbase,
    nodes: opts.nodes,
    preset: opts.preset,
    // seed 000's HDFS kept one copy of each block (dfs.replication 1).
    replication: 1,
    dataDir: opts.dataDir,
    ...(opts.study ? { study: opts.study } : {}),
  };
}

/** Starts every node's daemons on empty folders; the state is written as each JVM starts. */
async function startDaemons(cluster: LocalCluster, base: LocalEngineState, log: (l: string) => void) {
  // scripts/setup-hbase-artifacts.sh prints the folder holding hadoop/ and hbase/ as the tarballs unpack.
  const artifacts = await runSetupScript("setup-hbase-artifacts.sh");
  const runtime = engineRuntime("hbase", LOCAL_TUNING);
  await installArtifacts(runtime.artifacts(cluster.version), `${cluster.dataDir}/engine`, artifacts);
  return startLocalNodes({
    runtime,
    cluster,
    ports: { zookeeper: HBASE_PORTS.zookeeper, regionserver: HBASE_PORTS.regionserver },
    timeoutMs: READY_TIMEOUT_MS,
    log,
    // Recorded as each JVM starts, so `local down` stops a node that never became ready.
    started: (started) => writeState({ ...base, nodes: started }),
  });
}

async function up(opts: LocalUpOptions): Promise<LocalEngineState> {
  const log = opts.log ?? (() => {});
  if (!Number.isInteger(opts.nodes) || opts.nodes < 1 || opts.nodes > HBASE_LOCAL_MAX_NODES)
    throw new Error(`nodes: local HBase runs 1 to ${HBASE_LOCAL_MAX_NODES} nodes, got ${opts.nodes}`);
  const cluster = clusterOf(opts);
  const table = usertableSpec(localNodeContext(cluster, 1));
  const base: LocalEngineState = {
    engine: "hbase",
    preset: opts.preset,
    dataDir: opts.dataDir,
    startedAt: new Date().toISOString(),
    nodes: [],
    details: {
      regionServers: opts.nodes,
      table: table.table,
      regions: table.splits.length + 1,
      tableDurability: table.durability,
    },
  };
  log("hbase: preparing Hadoop and HBase (Maven Central jars, cached after the first time)");
  let nodes: LocalEngineState["nodes"] = [];
  try {
    nodes = await startDaemons(cluster, base, log);
    const state = { ...base, nodes };
    await writeState(state);
    log(`hbase: waiting for ${opts.nodes} region server(s), then creating ${table.table}`);
    const formed = await formHBase({ ctx: localNodeContext(cluster, 1), log, timeoutMs: READY_TIMEOUT_MS });
    for (const step of formed.steps) log(`hbase: ${step}`);
    return state;
  } catch (err) {
    // Leave nothing running when start-up fails (startLocalNodes stops what it started); the logs stay.
    await Promise.all(nodes.map((n) => stopNode(n, 10_000)));
    await removeState("hbase");
    throw err;
  }
}

export const hbaseLocalEngine: LocalEngine = {
  engine: "hbase",
  binding: { ...HBASE_BINDING },

  up,

  async status(state) {
    const leader = state.nodes[0];
    const nodes = await Promise.all(
      state.nodes.map(async (n) => ({
        index: n.index,
        address: n.address,
        processes: processesAlive(n),
        alive: await nodeAlive(n),
        detail: `HBase 2.5 on HDFS: ${n.processes.map((p) => p.name).join(", ")}`,
      })),
    );
    const zookeeper = leader ? await tcpOpen(leader.address, HBASE_PORTS.zookeeper) : false;
    const reasons = [
      ...(!leader ? ["state names no HBase node"] : []),
      ...nodes.filter((n) => !n.alive).map((n) => `node ${n.index} (${n.address}): ${notRunning(n.processes)}`),
      ...(leader && !zookeeper
        ? [`ZooKeeper does not accept connections on ${leader.address}:${HBASE_PORTS.zookeeper}`]
        : []),
    ];
    return { engine: "hbase", preset: state.preset, ready: reasons.length === 0, nodes, reasons };
  },

  async down(state) {
    // Region servers and datanodes first (reverse start order within a node), the leader's daemons last.
    await Promise.all(state.nodes.slice(1).map((n) => stopNode(n, 60_000)));
    for (const node of state.nodes.slice(0, 1)) await stopNode(node, 60_000);
    await removeState("hbase");
  },

  connectionProperties(state) {
    const leader = state.nodes[0];
    if (!leader) throw new Error(`${state.dataDir}: hbase state names no node`);
    return hbaseConnectionProperties({ zookeeperQuorum: leader.address, zookeeperPort: HBASE_PORTS.zookeeper });
  },
};
