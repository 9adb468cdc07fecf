/**
 * Captures the Cassandra readiness fixtures in test/fixtures/cassandra from a real local 3-node cluster:
 * every node's system_views.gossip_info (as CqlTool prints it, one JSON row per line) once the ring is
 * ready, and again after node 3 was stopped. Run: npx tsx scripts/capture-cassandra-fixtures.ts
 */
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { GOSSIP_QUERY } from "../engines/cassandra/index.js";
import { bindingClasspathDir, ycsbCoreDir } from "../runner/java-artifacts.js";
import { cassandraLocalEngine } from "../runner/local/cassandra.js";
import { runCql } from "../runner/local/cassandra-cql.js";
import { engineDir, stopNode } from "../runner/local/engine.js";

const out = fileURLToPath(new URL("../test/fixtures/cassandra/", import.meta.url));
const state = await cassandraLocalEngine.up({
  nodes: 3,
  preset: "balanced",
  dataDir: engineDir("cassandra"),
  log: console.error,
});
try {
  const base = {
    bindingDir: await bindingClasspathDir("cassandra"),
    ycsbCoreDir: ycsbCoreDir(),
    hosts: state.nodes.map((n) => n.address),
  };
  const capture = async (file: string) => {
    const { rows } = await runCql({ ...base, statements: [GOSSIP_QUERY], eachNode: true });
    await writeFile(`${out}${file}`, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
    console.error(`wrote ${file}: ${rows.length} rows`);
  };
  await capture("gossip-3-nodes-ready.jsonl");
  await stopNode(state.nodes[2]!);
  await capture("gossip-3-nodes-node3-stopped.jsonl");
} finally {
  await cassandraLocalEngine.down(state);
}
