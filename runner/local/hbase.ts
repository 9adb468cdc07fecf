import { execFile } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { HBASE_BINDING, hbaseConnectionProperties } from "../../engines/hbase/binding.js";
import { hbaseSiteProperties, renderHBaseSiteXml } from "../../engines/hbase/config.js";
import { HBASE_JDK17_FLAGS } from "../../engines/hbase/jvm.js";
import { type HBaseTableSpec, hbaseTableSpec } from "../../engines/hbase/schema.js";
import { startProcess, tcpOpen, waitUntil } from "../boot/processes.js";
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

export { HBASE_JDK17_FLAGS };

/** Regions per region server locally: more than one so the pre-split of engines/hbase/schema.ts is exercised. */
export const LOCAL_REGIONS_PER_NODE = 4;

/** Builds runner/bindings/hbase-minicluster (hbase-testing-util from Maven Central, cached in ~/.m2) and returns its classpath folder. */
export async function miniClusterClasspath(): Promise<string> {
  const { stdout } = await promisify(execFile)(
    "bash",
    [join(REPO_ROOT, "scripts", "build-bindings.sh"), "hbase-minicluster"],
    {
      maxBuffer: 1 << 22,
    },
  );
  const dir = stdout.trim().split("\n").pop();
  if (!dir) throw new Error("scripts/build-bindings.sh printed no classpath folder for hbase-minicluster");
  return dir;
}

/** The mini cluster's java command line (pure): the site file infra renders, the table the schema module specifies. */
export function miniClusterArgs(opts: {
  classpath: string;
  dataDir: string;
  siteFile: string;
  portFile: string;
  regionServers: number;
  table: HBaseTableSpec;
}): string[] {
  const { table } = opts;
  return [
    "-Xmx2g",
    ...HBASE_JDK17_FLAGS,
    "-Dlog4j.configuration=ycsblab-minicluster-log4j.properties",
    `-Dtest.build.data.basedirectory=${opts.dataDir}`,
    "-cp",
    join(opts.classpath, "*"),
    "io.ycsblab.bindings.hbase.minicluster.MiniClusterMain",
    "--site",
    opts.siteFile,
    "--port-file",
    opts.portFile,
    "--region-servers",
    String(opts.regionServers),
    "--table",
    table.table,
    "--family",
    table.family,
    "--durability",
    table.durability,
    "--compression",
    table.compression,
    ...table.splits.flatMap((s) => ["--split", s]),
  ];
}

async function readPort(file: string): Promise<number | undefined> {
  try {
    const port = Number((await readFile(file, "utf8")).trim());
    return Number.isInteger(port) && port > 0 ? port : undefined;
  } catch {
    return undefined;
  }
}

function zookeeperPort(state: LocalEngineState): number {
  const port = state.nodes[0]?.ports.zookeeper;
  if (!port) throw new Error(`${state.dataDir}: hbase state has no ZooKeeper port`);
  return port;
}

export const hbaseLocalEngine: LocalEngine = {
  engine: "hbase",
  binding: { ...HBASE_BINDING },

  async up(opts: LocalUpOptions): Promise<LocalEngineState> {
    const log = opts.log ?? (() => {});
    if (!Number.isInteger(opts.nodes) || opts.nodes < 1 || opts.nodes > 4) {
      throw new Error(`nodes: the HBase mini cluster runs 1..4 region servers in one JVM, got ${opts.nodes}`);
    }
    const classpath = await miniClusterClasspath();
    const nodeDir = join(opts.dataDir, "node-0");
    const logDir = join(nodeDir, "logs");
    const confDir = join(nodeDir, "conf");
    await mkdir(confDir, { recursive: true });
    const siteFile = join(confDir, "hbase-site.xml");
    // The very renderer infra uses for hbase-site.xml on AWS, without the cluster layout.
    await writeFile(siteFile, renderHBaseSiteXml(hbaseSiteProperties(opts.preset)));
    const table = hbaseTableSpec({ preset: opts.preset, nodes: opts.nodes, regionsPerNode: LOCAL_REGIONS_PER_NODE });
    const portFile = join(nodeDir, "zookeeper.port");
    // A port file left by an earlier cluster would pass for this one's; the mini cluster writes a fresh one when ready.
    await rm(portFile, { force: true });
    await rm(join(nodeDir, "data"), { recursive: true, force: true });
    const args = miniClusterArgs({
      classpath,
      dataDir: join(nodeDir, "data"),
      siteFile,
      portFile,
      regionServers: opts.nodes,
      table,
    });
    log(`hbase: starting a mini cluster (HDFS, ZooKeeper, master, ${opts.nodes} region server(s)); about 40 s`);
    const pid = startProcess({ name: "stdout", argv: ["java", ...args], cwd: nodeDir, listens: [] }, logDir, {
      detached: true,
    }).pid!;
    const node = {
      index: 0,
      pid,
      address: "127.0.0.1",
      ports: {} as Record<string, number>,
      logDir,
      commandMarker: `--port-file\u0000${portFile}`,
    };
    const state: LocalEngineState = {
      engine: "hbase",
      preset: opts.preset,
      dataDir: opts.dataDir,
      startedAt: new Date().toISOString(),
      nodes: [node],
      details: {
        regionServers: opts.nodes,
        table: table.table,
        regions: table.splits.length + 1,
        tableDurability: table.durability,
      },
    };
    // Written before the wait, so `local down` can stop a cluster that never became ready.
    await writeState(state);
    try {
      await waitUntil(
        `HBase mini cluster (log: ${logDir}/stdout.log)`,
        240_000,
        async () => {
          if (!(await nodeAlive(node)))
            throw new Error(`HBase mini cluster exited during start; see ${logDir}/stdout.log`);
          return (await readPort(portFile)) !== undefined;
        },
        500,
      );
    } catch (err) {
      await stopNode(node, 10_000);
      await removeState("hbase");
      throw err;
    }
    node.ports.zookeeper = (await readPort(portFile))!;
    await writeState(state);
    log(
      `hbase: ready, ZooKeeper on 127.0.0.1:${node.ports.zookeeper}, table ${table.table} in ${table.splits.length + 1} regions`,
    );
    return state;
  },

  async status(state) {
    const node = state.nodes[0];
    const alive = node ? await nodeAlive(node) : false;
    const port = node?.ports.zookeeper;
    const listening = alive && port ? await tcpOpen("127.0.0.1", port) : false;
    const reasons = [
      ...(!node ? ["state names no mini cluster process"] : []),
      ...(node && !alive ? [`HBase mini cluster (pid ${node.pid}) is not running`] : []),
      ...(alive && !listening ? [`ZooKeeper does not accept connections on port ${port}`] : []),
    ];
    return {
      engine: "hbase",
      preset: state.preset,
      ready: reasons.length === 0,
      nodes: state.nodes.map((n) => ({
        index: n.index,
        address: `${n.address}:${n.ports.zookeeper} (ZooKeeper)`,
        pid: n.pid,
        alive,
        detail: `HBase 2.5 mini cluster, ${String(state.details?.regionServers ?? 1)} region server(s), table durability ${String(state.details?.tableDurability)}`,
      })),
      reasons,
    };
  },

  async down(state) {
    for (const node of state.nodes) await stopNode(node, 60_000);
    await removeState("hbase");
  },

  connectionProperties(state) {
    return hbaseConnectionProperties({ zookeeperQuorum: "127.0.0.1", zookeeperPort: zookeeperPort(state) });
  },
};
