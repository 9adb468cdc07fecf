import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientProperties } from "../../../model/presets.js";
import { WORKLOADS } from "../../../model/workloads.js";
import { bindingClasspathDir, ycsbCoreDir } from "../../../runner/java-artifacts.js";
import { cassandraLocalEngine } from "../../../runner/local/cassandra.js";
import { engineDir, type LocalEngineState, nodeAlive, readState } from "../../../runner/local/engine.js";
import { parseYcsbOutput } from "../../../runner/ycsb-output/index.js";
import { buildYcsbCommand, spawnYcsb } from "../../../runner/ycsb-process.js";
import { cli, cql, isolateLocalEngines } from "./cassandra-helpers.js";

isolateLocalEngines("cassandra-cluster", "127.0.22");

/** A real three-node Cassandra 5.0 ring on its own loopback addresses: it forms, replicates (RF 3) and serves YCSB. */
const RECORDS = 600;
const OPERATIONS = 1500;

describe.sequential("local Cassandra, three nodes", () => {
  let state: LocalEngineState;
  const hosts = ["127.0.22.1", "127.0.22.2", "127.0.22.3"];

  beforeAll(async () => {
    await cli(["local", "down", "--engine", "cassandra"]);
    state = await cassandraLocalEngine.up({ nodes: 3, preset: "balanced", dataDir: engineDir("cassandra") });
  }, 400_000);

  afterAll(async () => {
    const current = await readState("cassandra");
    if (current) await cassandraLocalEngine.down(current);
    if (state) for (const node of state.nodes) expect(await nodeAlive(node)).toBe(false);
  }, 300_000);

  it("forms a ring: every node up and normal, each knowing the two others", async () => {
    const status = await cassandraLocalEngine.status(state);
    expect(status).toMatchObject({ ready: true, reasons: [] });
    expect(status.nodes.map((n) => [n.address, n.alive])).toEqual(hosts.map((h) => [h, true]));
    const peers = await cql(hosts, ["SELECT peer FROM system.peers_v2"]);
    expect(peers).toHaveLength(2);
    const [keyspace] = await cql(hosts, [
      "SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = 'ycsb'",
    ]);
    expect((keyspace?.replication as Record<string, string> | undefined)?.replication_factor).toBe("3");
  });

  it("serves a YCSB load and workload A through our binding, replicated to all three", async () => {
    const base = {
      dbClass: cassandraLocalEngine.binding.dbClass,
      ycsbCoreDir: ycsbCoreDir(),
      bindingDirs: [await bindingClasspathDir("cassandra")],
      properties: {
        ...WORKLOADS.a.properties,
        ...clientProperties("cassandra", "balanced"),
        ...cassandraLocalEngine.connectionProperties(state),
        recordcount: String(RECORDS),
        operationcount: String(OPERATIONS),
      },
      threads: 6,
    };
    const load = await spawnYcsb(buildYcsbCommand({ ...base, phase: "load" }));
    expect(load.exitCode, load.stderr).toBe(0);
    expect(load.stderr).toContain("connected to 3 node(s)");
    expect(parseYcsbOutput(load.stdout, load.stderr).operations.INSERT?.returns).toEqual({ OK: RECORDS });

    const run = await spawnYcsb(buildYcsbCommand({ ...base, phase: "run" }));
    expect(run.exitCode, run.stderr).toBe(0);
    const ops = parseYcsbOutput(run.stdout, run.stderr).operations;
    expect((ops.READ?.returns.OK ?? 0) + (ops.UPDATE?.returns.OK ?? 0)).toBe(OPERATIONS);
    expect(Object.keys(ops).filter((g) => g.endsWith("-FAILED"))).toEqual([]);

    // Consistency ALL answers only if all three replicas hold every row.
    const [count] = await cql(hosts, ["SELECT COUNT(*) AS n FROM ycsb.usertable"], {
      "cassandra.readconsistencylevel": "ALL",
    });
    expect(count?.n).toBe(RECORDS);
  }, 300_000);

  it("reports a stopped node by name through local status", async () => {
    const { stopNode } = await import("../../../runner/local/engine.js");
    await stopNode(state.nodes[2]!);
    const status = await cli(["local", "status", "--engine", "cassandra"]);
    expect(status.code).toBe(1);
    expect(status.stdout).toContain("cassandra: NOT ready, 3 node(s), preset balanced");
    expect(status.stdout).toContain("node 3 (127.0.22.3): cassandra (pid ");
  }, 300_000);
});
