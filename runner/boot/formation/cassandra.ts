import { cassandraConnectionProperties } from "../../../engines/cassandra/binding.js";
import { cassandraReadiness, GOSSIP_QUERY, type GossipRow } from "../../../engines/cassandra/readiness.js";
import { CQL_PORT } from "../../../engines/cassandra/runtime.js";
import { cassandraSchemaStatements } from "../../../engines/cassandra/schema.js";
import { presetFor, SERVER_PRESET_SWITCH } from "../../../model/presets.js";
import { bindingClasspathDir, ycsbCoreDir } from "../../java-artifacts.js";
import { queryCql, runCql } from "../../local/cassandra-cql.js";
import type { Formation } from "./types.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Cassandra: every node NORMAL in every node's gossip, on one schema version (engines/cassandra/readiness.ts), then
 * the keyspace and table (engines/cassandra/schema.ts) through our CQL tool on the binding's driver: no cqlsh, no
 * Python on the instance.
 */
export const formCassandra: Formation = async ({ ctx, log, timeoutMs }) => {
  const tools = { bindingDir: await bindingClasspathDir("cassandra"), ycsbCoreDir: ycsbCoreDir() };
  const hosts = ctx.nodeIps;
  const deadline = Date.now() + timeoutMs;
  await awaitRing(tools, hosts, deadline, timeoutMs, log);
  // A load under its own preset (seed 000) starts on its server side; the plan's settle after the load switches.
  const loadFirst = ctx.loadPreset !== ctx.preset && SERVER_PRESET_SWITCH.cassandra !== undefined;
  const statements = cassandraSchemaStatements({
    preset: ctx.preset,
    replicationFactor: ctx.replication,
    fieldCount: ctx.fieldCount,
    ...(ctx.study?.cassandra ? { study: ctx.study.cassandra } : {}),
    ...(loadFirst ? { durableWrites: presetFor("cassandra", ctx.loadPreset).server.durableWrites } : {}),
  });
  for (const statement of statements) {
    try {
      await queryCql({ ...tools, hosts, port: CQL_PORT, statements: [statement] });
    } catch (err) {
      // The statement applied, but the nodes did not agree on the new schema within the driver's wait (a busy or
      // large cluster): wait for one schema version in every node's gossip, as the ring's readiness does, then go on.
      if (!/schema not in agreement/.test((err as Error).message)) throw err;
      log(`schema change not yet agreed by every node; waiting for one schema version: ${statement.slice(0, 80)}`);
      await awaitRing(tools, hosts, deadline, timeoutMs, log);
    }
  }
  return {
    engine: "cassandra",
    nodes: hosts.length,
    preset: ctx.preset,
    connection: cassandraConnectionProperties({ hosts, port: CQL_PORT }),
    steps: [`${hosts.length} node(s) NORMAL on one schema version`, ...statements.map((s) => `cql: ${s}`)],
  };
};

type CqlTools = { bindingDir: string; ycsbCoreDir: string };

/**
 * Why the ring is not ready yet, from every node's own gossip (engines/cassandra/readiness.ts); empty when every
 * node is NORMAL in every view on one schema version. `ycsb-lab local status` asks the same.
 */
export async function ringReasons(tools: CqlTools, hosts: string[]): Promise<string[]> {
  const result = await runCql({
    ...tools,
    hosts,
    port: CQL_PORT,
    statements: [GOSSIP_QUERY],
    eachNode: true,
    timeoutMs: 60_000,
  });
  const rows: GossipRow[] = result.rows.map((r) => ({
    node: String(r._node),
    address: String(r.address),
    status: (r.status as string | null) ?? null,
    status_with_port: (r.status_with_port as string | null) ?? null,
    rpc_ready: (r.rpc_ready as string | null) ?? null,
    schema: (r.schema as string | null) ?? null,
  }));
  const reasons = cassandraReadiness(hosts, rows).reasons;
  // A node that did not answer at all: the CQL tool's own complaint says why.
  if (reasons.length > 0 && result.exitCode !== 0)
    reasons.push(`cql: ${result.stderr.trim().split("\n").slice(-2).join(" ").trim()}`);
  return reasons;
}

/** Every node NORMAL in every node's gossip, on one schema version (engines/cassandra/readiness.ts). */
export async function awaitRing(
  tools: CqlTools,
  hosts: string[],
  deadline: number,
  timeoutMs: number,
  log: (l: string) => void,
): Promise<void> {
  let reasons: string[] = ["not asked yet"];
  let lastLogged = "";
  while (Date.now() < deadline) {
    reasons = await ringReasons(tools, hosts);
    if (reasons.length === 0) break;
    const summary = reasons.slice(0, 3).join("; ");
    if (summary !== lastLogged)
      log(`waiting for the ring: ${summary}${reasons.length > 3 ? ` (+${reasons.length - 3} more)` : ""}`);
    lastLogged = summary;
    await sleep(2000);
  }
  if (reasons.length > 0)
    throw new Error(`the ring did not form in ${Math.round(timeoutMs / 1000)} s: ${reasons.join("; ")}`);
}
