import { bindingClasspathDir, ycsbCoreDir } from "./java-artifacts.js";
import { queryCql } from "./local/cassandra-cql.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Seed 000's settle (lines 65-67: "checked for any ongoing compaction processes, and waited until those
 * completed"): Cassandra 4+ lists running compactions in system_views.sstable_tasks on every node. Shared by the
 * local engines and the cloud path (through the binding's CQL tool, from the client).
 */
export async function waitForCassandraCompactions(
  hosts: string[],
  log: (l: string) => void = () => {},
  pollMs = 5000,
): Promise<string> {
  const tools = { bindingDir: await bindingClasspathDir("cassandra"), ycsbCoreDir: ycsbCoreDir() };
  const started = Date.now();
  for (;;) {
    const rows = await queryCql({
      ...tools,
      hosts,
      eachNode: true,
      statements: ["SELECT keyspace_name, kind FROM system_views.sstable_tasks"],
    });
    if (rows.length === 0) return `no compactions pending after ${((Date.now() - started) / 1000).toFixed(0)} s`;
    log(`settle: ${rows.length} sstable task(s) still running, waiting`);
    await sleep(pollMs);
  }
}

/** Hands the keyspace to a preset's durable_writes (the settle after a load made under its own preset). */
export async function switchCassandraDurableWrites(
  hosts: string[],
  preset: import("../model/presets.js").Preset,
): Promise<string> {
  const { cassandraDurableWritesStatement } = await import("../engines/cassandra/schema.js");
  const statement = cassandraDurableWritesStatement(preset);
  await queryCql({
    bindingDir: await bindingClasspathDir("cassandra"),
    ycsbCoreDir: ycsbCoreDir(),
    hosts,
    statements: [statement],
  });
  return `server side of preset ${preset}: ${statement}`;
}
