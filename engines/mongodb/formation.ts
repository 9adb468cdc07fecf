import type { NodeContext } from "../node-context.js";
import { MIN_CACHE_GB, renderMongodConfig, wiredTigerCacheGB } from "./config.js";
import {
  CONFIG_REPLICA_SET,
  CONFIG_SERVER_PORT,
  MONGOS_PORT,
  type MongoProcess,
  mongoProcesses,
  shardMembers,
  shardName,
} from "./topology.js";

/**
 * What MongoDB's formation is made of, as data: each process's configuration and the documents the leader sends
 * (replica set initiation, shards to add). The leader's boot command (runner/boot/formation/mongodb.ts) sends them
 * with the driver; the sharding of usertable comes from engines/mongodb/schema.ts.
 */

/**
 * mongod.conf of one process: the engine engineer's renderer, on the node's address, logging to the supervisor,
 * with its share of the node's memory for WiredTiger's cache (engines/mongodb/config.ts wiredTigerCacheGB).
 */
export function mongodConf(ctx: NodeContext, p: MongoProcess, dbPath: string): string {
  const mongods = mongoProcesses(ctx.mongoTopology, ctx.nodeIps.length, ctx.replication, ctx.index).filter(
    (m) => m.kind === "mongod",
  );
  const cache = wiredTigerCacheGB(
    ctx.memoryGiB,
    mongods.map((m) => m.role),
  );
  return renderMongodConfig(ctx.preset, {
    cacheSizeGB: cache[p.role] ?? MIN_CACHE_GB,
    dbPath,
    port: p.port,
    bindIp: ctx.nodeIps[ctx.index]!,
    clusterRole: p.role === "configsvr" ? "configsvr" : "shardsvr",
    ...(p.replicaSet ? { replicaSet: p.replicaSet } : {}),
    log: "stdout",
  }).yaml;
}

/** mongos.conf: the router of every node (seed 000), reading the cluster from the config server on the first node. */
export function mongosConf(ctx: NodeContext): string {
  return [
    "net:",
    `  port: ${MONGOS_PORT}`,
    `  bindIp: ${JSON.stringify(ctx.nodeIps[ctx.index])}`,
    "sharding:",
    `  configDB: "${CONFIG_REPLICA_SET}/${ctx.nodeIps[0]}:${CONFIG_SERVER_PORT}"`,
    "",
  ].join("\n");
}

export interface ReplicaSetInitiation {
  /** A member to send replSetInitiate to (the one meant to be primary). */
  host: string;
  config: {
    _id: string;
    configsvr?: boolean;
    members: Array<{ _id: number; host: string; arbiterOnly?: boolean; priority?: number }>;
  };
}

/** The replSetInitiate documents the leader sends: the config server's, then every shard's. */
export function replicaSetInitiations(ctx: NodeContext): ReplicaSetInitiation[] {
  const n = ctx.nodeIps.length;
  const out: ReplicaSetInitiation[] = [
    {
      host: `${ctx.nodeIps[0]}:${CONFIG_SERVER_PORT}`,
      config: {
        _id: CONFIG_REPLICA_SET,
        configsvr: true,
        members: [{ _id: 0, host: `${ctx.nodeIps[0]}:${CONFIG_SERVER_PORT}` }],
      },
    },
  ];
  for (let k = 0; k < n; k++) {
    const members = shardMembers(ctx.mongoTopology, n, ctx.replication, k).map((m, i) => ({
      _id: i,
      host: `${ctx.nodeIps[m.node]}:${m.port}`,
      ...(m.role === "arbiter" ? { arbiterOnly: true } : {}),
      // The primary of shard k stays on node k, so every node leads exactly one shard (seed 002 appendix D).
      ...(m.role === "shard-primary" ? { priority: 2 } : m.role === "shard-secondary" ? { priority: 1 } : {}),
    }));
    out.push({ host: members[0]!.host, config: { _id: shardName(k), members } });
  }
  return out;
}

/** `addShard` arguments, one per shard: "<replica set>/<data-bearing members>" (arbiters are not named). */
export function shardsToAdd(initiations: ReplicaSetInitiation[]): Array<{ name: string; connection: string }> {
  return initiations
    .filter((i) => !i.config.configsvr)
    .map((i) => ({
      name: i.config._id,
      connection: `${i.config._id}/${i.config.members
        .filter((m) => !m.arbiterOnly)
        .map((m) => m.host)
        .join(",")}`,
    }));
}

/** Every mongod of the cluster, "host:port", for the leader to wait on before it initiates anything. */
export function allMongods(initiations: ReplicaSetInitiation[]): string[] {
  return [...new Set(initiations.flatMap((i) => i.config.members.map((m) => m.host)))];
}

/** The mongos routers clients use: one per node (seed 000). */
export const mongosHosts = (ctx: NodeContext): string[] => ctx.nodeIps.map((ip) => `${ip}:${MONGOS_PORT}`);
