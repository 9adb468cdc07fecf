import type { ClusterDescription } from "../model/cluster-description.js";
import type { Engine } from "../model/engine.js";
import type { Preset } from "../model/presets.js";
import type { StudyServerSide } from "../model/scenario.js";
import type { EnginePorts, MongoTopology, NodeContext } from "./node-context.js";

/**
 * What a data node does after its OS packages, as data (DESIGN.md "One boot path"): which artifacts make up the
 * engine, which files its configuration is, which processes it runs and how each one shows it serves. Pure: the
 * boot command (runner/boot) carries it out, on an EC2 instance and in a rehearsal alike.
 */

/** Absolute folders of one data node, resolved by the boot command (a rehearsal roots them in its own folder). */
export interface NodePaths {
  /** Where the engine's artifacts are unpacked (e.g. the Cassandra tarball: lib/, conf/). */
  install: string;
  /** The configuration files ycsb-lab renders. */
  conf: string;
  /** The data volume's mount point. */
  data: string;
  /** The log volume's mount point (commitlog, journal); the data volume when the preset keeps them together. */
  log: string;
  /** Process logs and pid files. */
  run: string;
}

/** An engine distribution: fetched from `url`, checked, unpacked under `into` (relative to NodePaths.install). */
export interface EngineArtifact {
  name: string;
  url: string;
  /** Where the checksum is published beside the artifact (Apache: <url>.sha512). */
  checksumUrl: string;
  checksum: "sha512";
  into: string;
  /** Leading path components the archive wraps its files in (apache-cassandra-5.0.4/...). */
  stripComponents: number;
}

export interface ProcessSpec {
  /** Short name, also its log file: <run>/<name>.log. */
  name: string;
  /** Executable and arguments ("java" resolves on PATH, like on the instance). */
  argv: string[];
  env?: Record<string, string>;
  cwd: string;
  /** TCP endpoints the process opens once it serves: the node's own readiness. */
  listens: Array<{ host: string; port: number }>;
  /** Start only after these endpoints accept connections (e.g. a joining node waits for the one before it). */
  after?: Array<{ host: string; port: number; what: string }>;
  /** A one-shot step run to completion before the process starts (e.g. formatting HDFS once). */
  prepare?: { argv: string[]; env?: Record<string, string>; skipIfExists: string };
}

export interface FileSpec {
  path: string;
  content: string;
}

/** One engine's data-node knowledge for the boot path. */
export interface EngineRuntime {
  engine: Engine;
  ports: EnginePorts;
  wantsLogVolume(preset: Preset): boolean;
  /** The distribution of a version as the vendor publishes it (what a rehearsal swaps for local artifacts). */
  artifacts(version: string): EngineArtifact[];
  /** Folders the node needs before its processes start (data, log, ...). */
  directories(ctx: NodeContext, paths: NodePaths): string[];
  /** What a reset's wipe empties (the database's files, never the configuration or logs). */
  dataDirectories(ctx: NodeContext, paths: NodePaths): string[];
  files(ctx: NodeContext, paths: NodePaths): FileSpec[];
  processes(ctx: NodeContext, paths: NodePaths): ProcessSpec[];
  roles(ctx: NodeContext): string[];
}

/** The node's view of its cluster, from the run's cluster description (model/cluster-description.ts). */
export function nodeContextOf(d: ClusterDescription, index: number, paths: Pick<NodePaths, "data" | "log">): NodeContext {
  const node = d.nodes[index];
  if (!node) throw new Error(`node index ${index}: the cluster has nodes 0..${d.nodes.length - 1}`);
  return {
    engine: d.engine as Engine,
    version: d.version,
    preset: d.preset as Preset,
    loadPreset: d.loadPreset as Preset,
    nodeIps: d.nodes.map((n) => n.address),
    index,
    replication: d.replication,
    recordCount: d.recordCount,
    fieldCount: d.fieldCount,
    runId: d.runId,
    region: d.region,
    readyMarkerUrl: "",
    adminPasswordParameter: `${d.parameterPath}admin-password`,
    memoryGiB: node.memoryGiB,
    vcpus: node.vcpus,
    dataDir: paths.data,
    ...(paths.log !== paths.data ? { logDir: paths.log } : {}),
    mongoTopology: (d.mongoTopology ?? "sharded") as MongoTopology,
    serverSettings: d.serverSettings,
    ...(d.study && Object.keys(d.study).length > 0 ? { study: d.study as StudyServerSide } : {}),
  };
}
