import type { NodeContext } from "../node-context.js";
import {
  type EngineRuntime,
  type NodePaths,
  type NodeTuning,
  refuseServerSettings,
  type StandInRuntime,
} from "../runtime.js";
import { COUCHBASE_REST_PORT, couchbaseDataPaths } from "./formation.js";
import { COUCHBASE_STAND_IN, couchbaseMockArgs, mockPresetRefusal } from "./stand-in.js";

/** The Community Edition build of each series ycsb-lab installs (https://www.couchbase.com/downloads/). */
export const COUCHBASE_BUILDS: Record<string, string> = { "7.6": "7.6.2" };

export function couchbaseBuild(version: string): string {
  const build = COUCHBASE_BUILDS[version] ?? (/^\d+\.\d+\.\d+$/.test(version) ? version : undefined);
  if (!build)
    throw new Error(
      `version: no Couchbase build known for "${version}" (known: ${Object.keys(COUCHBASE_BUILDS).join(", ")})`,
    );
  return build;
}

/** The system user the package creates and runs the server as: it must own the data path. */
export const COUCHBASE_USER = "couchbase";
/** The package's install prefix, where the server keeps its own logs. */
export const COUCHBASE_HOME = "/opt/couchbase";

/**
 * CouchbaseMock in place of the cluster: one JVM on the first node, advertising the node's address, serving every
 * node of the cluster (`--nodes`, their KV ports it picks itself): the mock cannot spread a bucket over JVMs. It binds
 * its REST port on every address whatever `--host` says (CouchbaseMock 1.5.25's CouchbaseMock.start binds
 * `new InetSocketAddress(port)`; its KV ports bind `--host`), so a machine shared with other clusters gives it a
 * port of its own (standInPort).
 */
export function couchbaseStandIn(tuning: NodeTuning = {}): StandInRuntime {
  return {
    label: COUCHBASE_STAND_IN,
    // A rehearsal boots each data node apart: one mock cannot be formed across them.
    refusal: (ctx: NodeContext) => {
      if (ctx.nodeIps.length > 1)
        return `the mock stands in for one node here; this run has ${ctx.nodeIps.length} data nodes (rehearse Couchbase's stand-in with 1 node)`;
      return (
        mockPresetRefusal(ctx.preset) ?? (ctx.loadPreset !== ctx.preset ? mockPresetRefusal(ctx.loadPreset) : undefined)
      );
    },
    directories: (_ctx, paths: NodePaths) => [paths.run],
    // The mock keeps its bucket in memory: a restart empties it.
    dataDirectories: () => [],
    processes: (ctx, paths, jar) => {
      if (ctx.index > 0) return [];
      const ip = ctx.nodeIps[0]!;
      const port = tuning.standInPort ?? COUCHBASE_REST_PORT;
      const heapMb = Math.min(512, tuning.maxHeapMb ?? 512);
      return [
        {
          name: "couchbase-mock",
          argv: ["java", `-Xmx${heapMb}m`, ...couchbaseMockArgs(jar, port, ctx.nodeIps.length, ip)],
          cwd: paths.run,
          listens: [{ host: ip, port }],
        },
      ];
    },
  };
}

/**
 * Couchbase Server 7.6 Community from the vendor's .deb: the package installs and runs the server as its own systemd
 * service, which the boot command starts and supervises by its REST health; the leader forms the cluster through
 * the REST API (runner/boot/formation/couchbase.ts).
 */
export function couchbaseRuntime(tuning: NodeTuning = {}): EngineRuntime {
  return {
    engine: "couchbase",
    ports: {
      // SDK bootstrap, management and KV (https://docs.couchbase.com/server/current/install/install-ports.html).
      client: [
        { from: 8091, to: 8097, description: "Couchbase REST and services" },
        { from: 11210, to: 11210, description: "Couchbase KV" },
      ],
      cluster: [
        { from: 4369, to: 4369, description: "erlang port mapper" },
        { from: 8091, to: 8097, description: "Couchbase REST and services" },
        { from: 9100, to: 9105, description: "indexer" },
        { from: 11209, to: 11210, description: "KV" },
        { from: 21100, to: 21100, description: "node-to-node" },
      ],
    },
    // Couchbase has no commitlog of its own to move (seed 004 placed nothing on a second device for it).
    wantsLogVolume: () => false,
    runsAs: COUCHBASE_USER,
    artifacts: (version) => {
      const build = couchbaseBuild(version);
      const name = `couchbase-server-community_${build}-linux_amd64.deb`;
      const url = `https://packages.couchbase.com/releases/${build}/${name}`;
      return [
        {
          name,
          url,
          checksumUrl: `${url}.sha256`,
          checksum: "sha256",
          kind: "deb",
          into: "couchbase",
          stripComponents: 0,
        },
      ];
    },
    directories: (ctx, paths) => {
      const p = couchbaseDataPaths(paths.data);
      return [p.data, p.index];
    },
    dataDirectories: (_ctx, paths) => {
      const p = couchbaseDataPaths(paths.data);
      return [p.data, p.index];
    },
    files: () => [],
    processes: (ctx) => [
      {
        kind: "service",
        name: "couchbase-server",
        unit: "couchbase-server",
        health: { url: `http://127.0.0.1:${COUCHBASE_REST_PORT}/ui/index.html` },
        listens: [{ host: ctx.nodeIps[ctx.index]!, port: COUCHBASE_REST_PORT }],
        logFile: `${COUCHBASE_HOME}/var/lib/couchbase/logs/error.log`,
      },
    ],
    roles: (ctx) => (ctx.index === 0 ? ["cluster-init", "data"] : ["server-add", "data"]),
    checkServerSettings: refuseServerSettings,
    standIn: couchbaseStandIn(tuning),
  };
}
