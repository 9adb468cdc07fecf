import type { MongoTopology } from "../node-context.js";

/** One mongod or mongos process on a data node. */
export interface MongoProcess {
  kind: "mongod" | "mongos";
  /** Replica set (shard or config server) this mongod belongs to. */
  replicaSet?: string;
  role: "configsvr" | "shard-primary" | "shard-secondary" | "arbiter" | "router";
  port: number;
  /** Unique name on the node (systemd unit suffix, data directory). */
  name: string;
}

export const MONGOS_PORT = 27017;
export const SHARD_PORT = 27018;
export const CONFIG_SERVER_PORT = 27019;
/** Secondaries and arbiters of neighbouring shards (replica-set layout) listen from here up. */
export const EXTRA_MEMBER_BASE_PORT = 27020;
export const CONFIG_REPLICA_SET = "cfg";

export const shardName = (k: number) => `shard${k}`;

/** Members of shard k: data-bearing members on nodes k, k+1, ... (replication of them), and an arbiter when their count is even. */
export function shardMembers(
  topology: MongoTopology,
  nodes: number,
  replication: number,
  k: number,
): Array<{ node: number; port: number; role: MongoProcess["role"] }> {
  if (topology === "sharded") return [{ node: k, port: SHARD_PORT, role: "shard-primary" }];
  const members: Array<{ node: number; port: number; role: MongoProcess["role"] }> = [];
  for (let p = 0; p < replication; p++) {
    members.push({
      node: (k + p) % nodes,
      port: p === 0 ? SHARD_PORT : EXTRA_MEMBER_BASE_PORT + p - 1,
      role: p === 0 ? "shard-primary" : "shard-secondary",
    });
  }
  // Seed 002 appendix D: "master, slave and arbiter installed on each physical server" (an odd number of votes).
  if (replication % 2 === 0 && nodes > replication) {
    members.push({ node: (k + replication) % nodes, port: EXTRA_MEMBER_BASE_PORT + replication - 1, role: "arbiter" });
  }
  return members;
}

/**
 * The processes node `index` runs. Seeds 000/001 ("sharded"): the first node runs the config server; every node runs
 * one shard and a mongos. Seed 002 ("replica-set"): every node is primary of its shard, secondary of the previous one
 * and arbiter of the one before (with replication 2), plus a mongos.
 */
export function mongoProcesses(
  topology: MongoTopology,
  nodes: number,
  replication: number,
  index: number,
): MongoProcess[] {
  const processes: MongoProcess[] = [];
  if (index === 0)
    processes.push({
      kind: "mongod",
      replicaSet: CONFIG_REPLICA_SET,
      role: "configsvr",
      port: CONFIG_SERVER_PORT,
      name: "configsvr",
    });
  for (let k = 0; k < nodes; k++) {
    for (const m of shardMembers(topology, nodes, replication, k)) {
      if (m.node === index)
        processes.push({
          kind: "mongod",
          replicaSet: shardName(k),
          role: m.role,
          port: m.port,
          name: `${shardName(k)}-${m.port}`,
        });
    }
  }
  processes.push({ kind: "mongos", role: "router", port: MONGOS_PORT, name: "mongos" });
  return processes;
}
