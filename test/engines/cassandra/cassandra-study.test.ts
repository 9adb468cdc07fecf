import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolveDeployment, scenario } from "../../../model/index.js";
import { cassandraLocalEngine } from "../../../runner/local/cassandra.js";
import type { LocalEngineState } from "../../../runner/local/engine.js";
import { cql, isolateLocalEngines } from "./cassandra-helpers.js";

isolateLocalEngines("cassandra-study", "127.0.16");

/**
 * A real Cassandra 5.0 node started with a study's own values over its preset: seed 004's durable 10 ms window (as
 * 5.0's group mode) and its throughput table under LeveledCompactionStrategy; then restarted keeping its data, as
 * seed 003 restarted the server before each batch.
 */
const HOST = ["127.0.16.1"];
let state: LocalEngineState | undefined;
let dataDir: string | undefined;

afterAll(async () => {
  if (state) await cassandraLocalEngine.down(state);
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe.sequential("local Cassandra with a study's own values", () => {
  it("runs seed 004's 10 ms commitlog window, creates its LCS table, and keeps its data over a restart", async () => {
    const spec = scenario("usa-2015-durability");
    const durable = resolveDeployment(spec, { engine: "cassandra", preset: "durable" });
    dataDir = await mkdtemp(join(tmpdir(), "cassandra-study-"));
    state = await cassandraLocalEngine.up({ nodes: 1, preset: "durable", dataDir, study: durable.study });
    const settings = Object.fromEntries(
      (
        await cql(HOST, [
          "SELECT name, value FROM system_views.settings WHERE name IN ('commitlog_sync', 'commitlog_sync_group_window')",
        ])
      ).map((r) => [r.name, r.value]),
    );
    expect(settings).toEqual({ commitlog_sync: "group", commitlog_sync_group_window: "10ms" });

    const throughput = resolveDeployment(spec, { engine: "cassandra", preset: "throughput" });
    await cql(HOST, ["DROP TABLE IF EXISTS ycsb.usertable"]);
    await cassandraLocalEngine.prepareSchema!(state, { preset: "throughput", fieldCount: 2, study: throughput.study });
    const [table] = await cql(HOST, [
      "SELECT compaction FROM system_schema.tables WHERE keyspace_name = 'ycsb' AND table_name = 'usertable'",
    ]);
    expect(String((table?.compaction as Record<string, string> | undefined)?.class)).toMatch(
      /LeveledCompactionStrategy$/,
    );

    await cql(HOST, [
      "INSERT INTO ycsb.usertable (y_id, field0, field1) VALUES ('user1', 0x01, 0x02)",
      "INSERT INTO ycsb.usertable (y_id, field0, field1) VALUES ('user2', 0x03, 0x04)",
    ]);
    const before = state.nodes[0]!.processes[0]!.pid;
    state = await cassandraLocalEngine.restart!(state);
    expect(state.nodes[0]!.processes[0]!.pid).not.toBe(before);
    const [count] = await cql(HOST, ["SELECT COUNT(*) AS n FROM ycsb.usertable"]);
    expect(count?.n).toBe(2);
  }, 600_000);
});
