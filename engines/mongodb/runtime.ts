import { type Preset, presetFor } from "../../model/presets.js";
import type { NodeContext } from "../node-context.js";
import {
  type EngineRuntime,
  type NodePaths,
  type NodeTuning,
  type ProcessSpec,
  refuseServerSettings,
  type StandInRuntime,
} from "../runtime.js";
import { mongodConf, mongosConf } from "./formation.js";
import { FERRETDB_VERSION, ferretdbArgs, MONGODB_STAND_IN } from "./stand-in.js";
import { CONFIG_SERVER_PORT, MONGOS_PORT, type MongoProcess, mongoProcesses } from "./topology.js";

/** The release of each series ycsb-lab installs: the vendor's Debian 12 build of it exists on fastdl.mongodb.org. */
export const MONGODB_BUILDS: Record<string, string> = { "8.0": "8.0.17" };

export function mongodbBuild(version: string): string {
  const build = MONGODB_BUILDS[version] ?? (/^\d+\.\d+\.\d+$/.test(version) ? version : undefined);
  if (!build)
    throw new Error(
      `version: no MongoDB build known for "${version}" (known: ${Object.keys(MONGODB_BUILDS).join(", ")})`,
    );
  return build;
}

/**
 * The tarball's runtime libraries on Debian 12 (MongoDB docs, "Install MongoDB Community on Debian using .tgz Tarball";
 * Debian 12 names the LDAP library libldap-2.5-0). A rehearsal installs them from Debian's mirror too, so a wrong
 * name fails there, not on AWS.
 */
export const MONGODB_OS_PACKAGES = [
  "libcurl4",
  "libgssapi-krb5-2",
  "libldap-2.5-0",
  "libwrap0",
  "libsasl2-2",
  "libsasl2-modules",
  "libsasl2-modules-gssapi-mit",
  "openssl",
  "liblzma5",
];

/** Where the node keeps what: one dbPath per mongod on the data volume, its journal on the log volume when the preset says so. */
export function mongodbDirs(paths: NodePaths) {
  return {
    bin: `${paths.install}/mongodb/bin`,
    dbPath: (p: MongoProcess) => `${paths.data}/mongodb/${p.name}`,
    journal: (p: MongoProcess) => `${paths.log}/mongodb/${p.name}/journal`,
    conf: (p: MongoProcess) => `${paths.conf}/${p.name}.conf`,
  };
}

const nodeProcesses = (ctx: NodeContext) =>
  mongoProcesses(ctx.mongoTopology, ctx.nodeIps.length, ctx.replication, ctx.index);

/** FerretDB in place of the whole cluster: one server on the address and port clients would use (the mongos port). */
export const mongodbStandIn: StandInRuntime = {
  label: MONGODB_STAND_IN,
  refusal: (ctx) =>
    ctx.nodeIps.length > 1
      ? `FerretDB ${FERRETDB_VERSION} is one server with no replica sets or sharding; this run has ${ctx.nodeIps.length} data nodes (rehearse MongoDB's stand-in with 1 node)`
      : undefined,
  directories: (_ctx, paths) => [`${paths.data}/ferretdb`, `${paths.run}`],
  dataDirectories: (_ctx, paths) => [`${paths.data}/ferretdb`],
  processes: (ctx, paths, artifact): ProcessSpec[] => {
    const ip = ctx.nodeIps[ctx.index]!;
    return [
      {
        name: "ferretdb",
        argv: [artifact, ...ferretdbArgs(`${paths.data}/ferretdb`, MONGOS_PORT, ip)],
        cwd: paths.run,
        listens: [{ host: ip, port: MONGOS_PORT }],
      },
    ];
  },
};

/**
 * MongoDB 8.0 from the vendor's Debian 12 tarball: the mongod and mongos processes of engines/mongodb/topology.ts
 * (seed 000/001: a config server on the first node, a shard and a router on every node; seed 002: per-shard replica
 * sets), each run by the boot command with the configuration engines/mongodb renders.
 */
export function mongodbRuntime(_tuning: NodeTuning = {}): EngineRuntime {
  return {
    engine: "mongodb",
    ports: {
      client: [{ from: MONGOS_PORT, to: MONGOS_PORT, description: "mongos" }],
      cluster: [{ from: 27017, to: 27030, description: "mongod, mongos, config server, shard members" }],
    },
    wantsLogVolume: (preset: Preset) => presetFor("mongodb", preset).server.journalOwnVolume,
    osPackages: MONGODB_OS_PACKAGES,
    artifacts: (version) => {
      const name = `mongodb-linux-x86_64-debian12-${mongodbBuild(version)}.tgz`;
      const url = `https://fastdl.mongodb.org/linux/${name}`;
      return [{ name, url, checksumUrl: `${url}.sha256`, checksum: "sha256", into: "mongodb", stripComponents: 1 }];
    },
    directories: (ctx, paths) => {
      const d = mongodbDirs(paths);
      const mongods = nodeProcesses(ctx).filter((p) => p.kind === "mongod");
      // Seed 004 / seed 002 MongoDB section 1: the journal on its own device, where the preset puts it.
      const journals = paths.log !== paths.data ? mongods.filter((p) => p.role !== "arbiter").map(d.journal) : [];
      return [...mongods.map(d.dbPath), ...journals, paths.conf, paths.run];
    },
    dataDirectories: (ctx, paths) => {
      const d = mongodbDirs(paths);
      const mongods = nodeProcesses(ctx).filter((p) => p.kind === "mongod");
      return [
        ...mongods.map(d.dbPath),
        ...(paths.log !== paths.data ? mongods.filter((p) => p.role !== "arbiter").map(d.journal) : []),
      ];
    },
    links: (ctx, paths) => {
      if (paths.log === paths.data) return [];
      const d = mongodbDirs(paths);
      // mongod keeps its journal in <dbPath>/journal; the link puts it on the log volume (MongoDB production notes).
      return nodeProcesses(ctx)
        .filter((p) => p.kind === "mongod" && p.role !== "arbiter")
        .map((p) => ({ path: `${d.dbPath(p)}/journal`, target: d.journal(p) }));
    },
    files: (ctx, paths) => {
      const d = mongodbDirs(paths);
      return nodeProcesses(ctx).map((p) => ({
        path: d.conf(p),
        content: p.kind === "mongod" ? mongodConf(ctx, p, d.dbPath(p)) : mongosConf(ctx),
      }));
    },
    processes: (ctx, paths) => {
      const d = mongodbDirs(paths);
      const ip = ctx.nodeIps[ctx.index]!;
      return nodeProcesses(ctx).map((p): ProcessSpec => {
        if (p.kind === "mongod")
          return {
            name: p.name,
            argv: [`${d.bin}/mongod`, "--config", d.conf(p)],
            cwd: paths.run,
            listens: [{ host: ip, port: p.port }],
          };
        return {
          name: p.name,
          argv: [`${d.bin}/mongos`, "--config", d.conf(p)],
          cwd: paths.run,
          // mongos serves once the config server's replica set exists, which the leader's formation initiates: the
          // boot does not wait for its port (the formation does), or the leader would wait for itself.
          listens: [],
          after: [{ host: ctx.nodeIps[0]!, port: CONFIG_SERVER_PORT, what: "the config server on node 0" }],
        };
      });
    },
    roles: (ctx) => nodeProcesses(ctx).map((p) => p.role),
    checkServerSettings: refuseServerSettings,
    standIn: mongodbStandIn,
  };
}
