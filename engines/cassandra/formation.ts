import type { NodeContext } from "../node-context.js";
import { renderCassandraYaml } from "./config.js";
import { renderCassandraSchema } from "./schema.js";
import { initialTokens } from "./tokens.js";

/** vnodes per node: Cassandra 5.0's default num_tokens. */
export const VNODES = 16;

/** Seeds: the first three nodes (Cassandra docs: 2-3 seeds per datacenter); seed 000 used the first node only. */
export function cassandraSeeds(nodeIps: string[]): string[] {
  return nodeIps.slice(0, 3);
}

/** The Cassandra engineer's cassandra.yaml (proven by a local server), plus the study's own server settings (seed 003). */
export function cassandraYaml(ctx: NodeContext): string {
  const logDir = ctx.logDir ?? ctx.dataDir;
  const ip = ctx.nodeIps[ctx.index]!;
  const base = renderCassandraYaml({
    clusterName: `ycsb-lab-${ctx.runId}`,
    seeds: cassandraSeeds(ctx.nodeIps),
    listenAddress: ip,
    rpcAddress: ip,
    dataDir: `${ctx.dataDir}/cassandra/data`,
    commitlogDir: `${logDir}/cassandra/commitlog`,
    hintsDir: `${ctx.dataDir}/cassandra/hints`,
    savedCachesDir: `${ctx.dataDir}/cassandra/saved_caches`,
    preset: ctx.preset,
    ...(ctx.study?.cassandra ? { study: ctx.study.cassandra } : {}),
    // A new, empty ring: tokens chosen up front and nothing to stream, so every node joins at once.
    initialTokens: initialTokens(ctx.nodeIps.length, VNODES, ctx.index),
    autoBootstrap: false,
  });
  const extra = Object.entries(ctx.serverSettings);
  for (const [key] of extra) {
    if (!/^[a-z_]+$/.test(key)) throw new Error(`serverSettings.cassandra: "${key}" is not a cassandra.yaml key`);
    // The preset owns the commitlog and the renderer the layout: a study setting may not silently override either.
    if (new RegExp(`^${key}:`, "m").test(base))
      throw new Error(`serverSettings.cassandra: "${key}" is already set by the renderer`);
  }
  return base + extra.map(([k, v]) => `${k}: ${JSON.stringify(v)}\n`).join("");
}

/** The YCSB keyspace and table (engines/cassandra/schema.ts), durable_writes per preset (seed 004). */
export function cassandraSchemaCql(ctx: NodeContext): string {
  return renderCassandraSchema({
    preset: ctx.preset,
    replicationFactor: ctx.replication,
    fieldCount: ctx.fieldCount,
    ...(ctx.study?.cassandra ? { study: ctx.study.cassandra } : {}),
  });
}

/** Study settings are checked by rendering them into a cassandra.yaml (the renderer refuses what it cannot take). */
export function checkCassandraServerSettings(settings: Record<string, string>): string[] {
  const probe: NodeContext = {
    engine: "cassandra",
    version: "",
    preset: "balanced",
    loadPreset: "balanced",
    nodeIps: ["127.0.0.1"],
    index: 0,
    replication: 1,
    recordCount: 1,
    fieldCount: 1,
    runId: "check",
    region: "",
    readyMarkerUrl: "",
    adminPasswordParameter: "",
    memoryGiB: 1,
    vcpus: 1,
    dataDir: "/data",
    mongoTopology: "sharded",
    serverSettings: settings,
  };
  try {
    cassandraYaml(probe);
    return [];
  } catch (e) {
    return [(e as Error).message.replace(/^serverSettings\.cassandra: /, "")];
  }
}
