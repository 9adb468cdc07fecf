import type { Preset } from "../../model/presets.js";
import { presetFor } from "../../model/presets.js";

export interface MongodLayout {
  /** @default "/mnt/mongodb/data" */
  dbPath?: string;
  /** @default 27017 */
  port?: number;
  /** @default "0.0.0.0"; the boot path binds the node's own address (the security group restricts who connects). */
  bindIp?: string;
  /** Seed 000 ran every data node as a shard server; the first node also ran the config server. @default none */
  clusterRole?: "shardsvr" | "configsvr";
  /** Replica set name, required by MongoDB >= 3.6 for shard and config servers. */
  replicaSet?: string;
  /** A log file, or "stdout" when the boot command supervises mongod and keeps its output. @default "/var/log/mongodb/mongod.log" */
  log?: string;
  /** storage.wiredTiger.engineConfig.cacheSizeGB. @default mongod's own (half of RAM less 1 GB) */
  cacheSizeGB?: number;
}

/** The least WiredTiger cache mongod accepts (configuration options reference: cacheSizeGB, minimum 0.25). */
export const MIN_CACHE_GB = 0.25;

/**
 * WiredTiger's cache for each mongod of a node that runs several (seed 002's layout: 2-3 per node, plus the config
 * server on the first): together they take what one mongod would by default, half of (RAM - 1 GB) (MongoDB manual,
 * "WiredTiger Storage Engine", memory use), so they fit in memory with swap off. Members without data worth
 * caching (arbiters, the config server) get the minimum; data-bearing members share the rest equally.
 */
export function wiredTigerCacheGB(memoryGiB: number, roles: string[]): Record<string, number> {
  const budget = Math.max(MIN_CACHE_GB, 0.5 * (memoryGiB - 1));
  const small = roles.filter((r) => r === "arbiter" || r === "configsvr").length;
  const data = roles.length - small;
  const each =
    data === 0
      ? MIN_CACHE_GB
      : Math.max(MIN_CACHE_GB, Math.floor(((budget - small * MIN_CACHE_GB) / data) * 100) / 100);
  return Object.fromEntries(roles.map((r) => [r, r === "arbiter" || r === "configsvr" ? MIN_CACHE_GB : each]));
}

export interface MongodConfig {
  /** mongod.conf (YAML) text. */
  yaml: string;
  /** When the preset puts the journal on its own volume: mount it here (mongod keeps it in <dbPath>/journal). */
  journalMountPath?: string;
}

/** systemLog: a file, or nothing (mongod logs to stdout). */
export function systemLogLines(log: string): string[] {
  return log === "stdout"
    ? []
    : ["systemLog:", "  destination: file", `  path: ${JSON.stringify(log)}`, "  logAppend: true"];
}

/**
 * mongod.conf for a preset. MongoDB >= 6.1 always journals (`--nojournal` was removed), so the throughput
 * preset differs only on the client side (write concern j:false, model/presets.ts).
 */
export function renderMongodConfig(preset: Preset, layout: MongodLayout = {}): MongodConfig {
  const server = presetFor("mongodb", preset).server;
  const dbPath = layout.dbPath ?? "/mnt/mongodb/data";
  const lines = [
    `# ycsb-lab mongod.conf, durability preset ${preset}`,
    "storage:",
    `  dbPath: ${JSON.stringify(dbPath)}`,
    "  wiredTiger:",
    "    engineConfig:",
    "      journalCompressor: snappy",
    ...(layout.cacheSizeGB !== undefined ? [`      cacheSizeGB: ${layout.cacheSizeGB}`] : []),
    // storage.journal.commitIntervalMs: https://www.mongodb.com/docs/manual/reference/configuration-options/
    `  journal:\n    commitIntervalMs: ${server.journalCommitIntervalMs}`,
    "net:",
    `  port: ${layout.port ?? 27017}`,
    `  bindIp: ${JSON.stringify(layout.bindIp ?? "0.0.0.0")}`,
    ...systemLogLines(layout.log ?? "/var/log/mongodb/mongod.log"),
  ];
  if (layout.clusterRole) {
    if (!layout.replicaSet)
      throw new Error(
        `replicaSet: a ${layout.clusterRole === "shardsvr" ? "shard" : "config"} server needs a replica set name`,
      );
    lines.push("sharding:", `  clusterRole: ${layout.clusterRole}`);
  }
  if (layout.replicaSet) lines.push("replication:", `  replSetName: ${JSON.stringify(layout.replicaSet)}`);
  return {
    yaml: `${lines.join("\n")}\n`,
    ...(server.journalOwnVolume ? { journalMountPath: `${dbPath}/journal` } : {}),
  };
}
