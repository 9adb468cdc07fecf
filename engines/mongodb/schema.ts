import { hashedKeySplitPoints } from "../ycsb-keys.js";

/** Seed 000: `sh.shardCollection("ycsb.usertable", {_id: 1})`. */
export const MONGODB_DATABASE = "ycsb";
export const MONGODB_COLLECTION = "usertable";

/** One command for `db.adminCommand(...)` on a mongos, in the order it must run. */
export type MongoAdminCommand = Record<string, unknown>;

/**
 * Sharding and chunk pre-split for a sharded cluster (seed 000): enable sharding, shard on {_id: 1}, then for
 * every shard after the first split at its first key and move that chunk to it. The first chunk
 * (MinKey .. first split) stays on shards[0], the database's primary shard.
 */
export function mongoShardingCommands(shards: string[]): MongoAdminCommand[] {
  if (shards.length === 0) throw new Error("shards: at least one shard name is required");
  if (new Set(shards).size !== shards.length) throw new Error(`shards: names must be unique, got ${shards.join(", ")}`);
  const namespace = `${MONGODB_DATABASE}.${MONGODB_COLLECTION}`;
  const commands: MongoAdminCommand[] = [
    { enableSharding: MONGODB_DATABASE, primaryShard: shards[0] },
    { shardCollection: namespace, key: { _id: 1 } },
  ];
  hashedKeySplitPoints(shards.length).forEach((middle, i) => {
    commands.push({ split: namespace, middle: { _id: middle } });
    commands.push({ moveChunk: namespace, find: { _id: middle }, to: shards[i + 1] });
  });
  return commands;
}
