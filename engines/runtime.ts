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

/**
 * An engine distribution as its vendor publishes it, checked against the digest published beside it. A tarball is
 * unpacked under `into` (relative to NodePaths.install); a Debian package is installed with the OS package manager
 * and brings its own service (ServiceSpec).
 */
export interface EngineArtifact {
  name: string;
  url: string;
  /** Where the digest is published beside the artifact (Apache: <url>.sha512; MongoDB, Couchbase: <url>.sha256). */
  checksumUrl: string;
  checksum: "sha512" | "sha256";
  /** @default "tarball" */
  kind?: "tarball" | "deb";
  into: string;
  /** Leading path components the archive wraps its files in (apache-cassandra-5.0.4/...); 0 for a package. */
  stripComponents: number;
}

export interface ProcessSpec {
  kind?: "process";
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

/**
 * A server its own package runs as a systemd service (Couchbase's .deb): the boot command starts the unit and
 * supervises it by its health endpoint instead of as a child process.
 */
export interface ServiceSpec {
  kind: "service";
  name: string;
  /** The systemd unit the package installs. */
  unit: string;
  /** Answered below HTTP 500 while the server runs (401 included: it serves, and wants credentials). */
  health: { url: string };
  listens: Array<{ host: string; port: number }>;
  after?: Array<{ host: string; port: number; what: string }>;
  /** The server's own log, whose tail a failure uploads. */
  logFile: string;
}

export type ServerSpec = ProcessSpec | ServiceSpec;

/**
 * What serves instead of the engine where the engine cannot be installed (a rehearsal on a development machine,
 * DESIGN.md): a stand-in that speaks the engine's protocol, named in every status and in every result.
 */
export interface StandInRuntime {
  /** The stand-in as every status, marker and result names it (run.standIn). */
  label: string;
  /** Why this run cannot be served by the stand-in (too many nodes, a preset it cannot honour), or undefined. */
  refusal(ctx: NodeContext): string | undefined;
  directories(ctx: NodeContext, paths: NodePaths): string[];
  /** What a reset's wipe empties. */
  dataDirectories(ctx: NodeContext, paths: NodePaths): string[];
  /** `artifact` is the stand-in's own artifact (a binary, a jar) the rehearsal names (YCSB_LAB_STAND_IN). */
  processes(ctx: NodeContext, paths: NodePaths, artifact: string): ProcessSpec[];
}

export interface FileSpec {
  path: string;
  content: string;
}

/** How the boot command may tune a node beyond its machine (a rehearsal shares one machine between nodes). */
export interface NodeTuning {
  /** Cap on any engine JVM's heap. */
  maxHeapMb?: number;
  /** A loopback ring settles in a second; a real network keeps Cassandra's 30 s ring delay. */
  fastGossip?: boolean;
  /**
   * Every node of the cluster runs on this one machine, each on its own loopback address. A server that identifies
   * its peers by the source address of their connections sees them all as 127.0.0.1 (HDFS's namenode does), so
   * such a peer needs a port of its own per node.
   */
  sharedHost?: boolean;
  /**
   * The port of a stand-in that binds every address whatever host it is given (CouchbaseMock's REST port): a free
   * one where other clusters share the machine; else the engine's own (Couchbase: 8091).
   */
  standInPort?: number;
}

/** One engine's data-node knowledge for the boot path. */
export interface EngineRuntime {
  engine: Engine;
  ports: EnginePorts;
  wantsLogVolume(preset: Preset): boolean;
  /** Debian packages the engine needs beyond the JDK every instance has (e.g. the libraries mongod links). */
  osPackages?: string[];
  /** The system user owning the engine's folders when its package creates its own (couchbase). @default "ycsb-lab" */
  runsAs?: string;
  /** The distribution of a version as the vendor publishes it (what a rehearsal swaps for local artifacts). */
  artifacts(version: string): EngineArtifact[];
  /** Folders the node needs before its processes start (data, log, ...). */
  directories(ctx: NodeContext, paths: NodePaths): string[];
  /** What a reset's wipe empties (the database's files, never the configuration or logs). */
  dataDirectories(ctx: NodeContext, paths: NodePaths): string[];
  files(ctx: NodeContext, paths: NodePaths): FileSpec[];
  /** Symbolic links made before the processes start (MongoDB's journal on the log volume). */
  links?(ctx: NodeContext, paths: NodePaths): Array<{ path: string; target: string }>;
  processes(ctx: NodeContext, paths: NodePaths): ServerSpec[];
  /** The processes this node runs, e.g. ["namenode", "datanode"]: for tags and docs. */
  roles(ctx: NodeContext): string[];
  /** Problems with a study's server settings (empty when fine). */
  checkServerSettings(settings: Record<string, string>): string[];
  /** What may serve instead of the engine in a rehearsal (YCSB_LAB_STAND_IN); absent when nothing can. */
  standIn?: StandInRuntime;
}

/** For engines whose renderers take no study settings: each one is refused, never ignored silently. */
export const refuseServerSettings = (settings: Record<string, string>): string[] =>
  Object.keys(settings).map((k) => `"${k}" is not applied for this engine`);

/** The node's view of its cluster, from the run's cluster description (model/cluster-description.ts). */
export function nodeContextOf(
  d: ClusterDescription,
  index: number,
  paths: Pick<NodePaths, "data" | "log">,
): NodeContext {
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
