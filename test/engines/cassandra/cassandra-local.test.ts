import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DURABILITY_PRESETS, PRESETS } from "../../../model/presets.js";
import { readState } from "../../../runner/local/engine.js";
import { parseYcsbOutput } from "../../../runner/ycsb-output/index.js";
import { cli, cql, isolateLocalEngines, ycsbDeterministicValue } from "./cassandra-helpers.js";

isolateLocalEngines("cassandra-local", "127.0.21");

/**
 * One real Cassandra 5.0 node per preset, driven through the CLI as a user would (local up, ycsb, status,
 * down), checked against the server itself through the driver.
 */
const HOST = ["127.0.21.1"];
const RECORDS = 500;
const OPERATIONS = 2000;
/** dataintegrity makes YCSB write values derived from key and field, so the test can recompute them. */
const INTEGRITY = ["-p", "dataintegrity=true", "-p", "fieldcount=4", "-p", "fieldlength=40"];

/** Workload A on the loaded table: every operation OK, values verified by YCSB and read back from the table. */
async function runWorkloadA(): Promise<void> {
  const run = await cli([
    "ycsb",
    "--engine",
    "cassandra",
    "--workload",
    "a",
    "--",
    "-p",
    `recordcount=${RECORDS}`,
    "-p",
    `operationcount=${OPERATIONS}`,
    "-threads",
    "4",
    "-s",
    ...INTEGRITY,
  ]);
  expect(run.code, run.stderr).toBe(0);
  const out = parseYcsbOutput(run.stdout, run.stderr);
  const reads = out.operations.READ?.returns.OK ?? 0;
  const updates = out.operations.UPDATE?.returns.OK ?? 0;
  expect(reads).toBeGreaterThan(0);
  expect(updates).toBeGreaterThan(0);
  expect(reads + updates).toBe(OPERATIONS);
  expect(out.operations).not.toHaveProperty("READ-FAILED");
  expect(out.operations).not.toHaveProperty("UPDATE-FAILED");
  // With dataintegrity YCSB checks every read value against the key: all must verify.
  expect(out.operations.VERIFY?.returns).toEqual({ OK: reads });

  const rows = await cql(HOST, ["SELECT y_id, field0, field3 FROM ycsb.usertable LIMIT 20"]);
  expect(rows).toHaveLength(20);
  for (const row of rows) {
    const key = String(row.y_id);
    expect(key).toMatch(/^user\d+$/);
    expect(row.field0).toBe(ycsbDeterministicValue(key, "field0", 40));
    expect(row.field3).toBe(ycsbDeterministicValue(key, "field3", 40));
  }
  const [count] = await cql(HOST, ["SELECT COUNT(*) AS n FROM ycsb.usertable"]);
  expect(count?.n).toBe(RECORDS);

  // Workload E: scans from a start key's token (and a few inserts) through the same binding.
  const scan = await cli([
    "ycsb",
    "--engine",
    "cassandra",
    "--workload",
    "e",
    "--",
    "-p",
    `recordcount=${RECORDS}`,
    "-p",
    "operationcount=300",
    "-p",
    "maxscanlength=10",
    "-threads",
    "2",
    ...INTEGRITY,
  ]);
  expect(scan.code, scan.stderr).toBe(0);
  const scanOps = parseYcsbOutput(scan.stdout, scan.stderr).operations;
  expect(scanOps.SCAN?.count).toBeGreaterThan(0);
  expect(scanOps.SCAN?.returns).toEqual({ OK: scanOps.SCAN?.count });
  expect((scanOps.SCAN?.count ?? 0) + (scanOps.INSERT?.returns.OK ?? 0)).toBe(300);
}

describe.sequential("local Cassandra: presets, YCSB load + workload A, CLI", () => {
  beforeAll(async () => {
    await cli(["local", "down", "--engine", "cassandra"]);
  });
  afterAll(async () => {
    await cli(["local", "down", "--engine", "cassandra"]);
  });

  it("refuses a ycsb run when no engine runs, and bad options, with clear errors", async () => {
    const none = await cli(["ycsb", "--engine", "cassandra", "--", "-load"]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(
      'no local cassandra is running: start one with "ycsb-lab local up --engine cassandra"',
    );
    const bad = await cli(["local", "up", "--engine", "cassandra", "--preset", "fast"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--preset: unknown preset "fast"');
  });

  for (const preset of PRESETS) {
    const extra = preset === "balanced" ? "; workload A and E verified against the table" : "";
    it(`preset ${preset}: the server runs its commitlog_sync and durable_writes, and YCSB writes through our binding${extra}`, async () => {
      const up = await cli(["local", "up", "--engine", "cassandra", "--preset", preset]);
      expect(up.code, up.stderr).toBe(0);
      expect(up.stdout).toContain(`cassandra: 1 node(s) ready, preset ${preset}`);
      try {
        const server = DURABILITY_PRESETS.cassandra[preset].server;
        const [keyspace] = await cql(HOST, [
          "SELECT durable_writes FROM system_schema.keyspaces WHERE keyspace_name = 'ycsb'",
        ]);
        expect(keyspace?.durable_writes).toBe(server.durableWrites);
        const settings = await cql(HOST, [
          "SELECT name, value FROM system_views.settings WHERE name IN ('commitlog_sync', 'commitlog_sync_period')",
        ]);
        const setting = Object.fromEntries(settings.map((r) => [r.name, r.value]));
        expect(setting.commitlog_sync).toBe(server.commitlogSync);
        if (server.commitlogSync === "periodic")
          expect(setting.commitlog_sync_period).toBe(`${server.commitlogSyncPeriodMs}ms`);

        const status = await cli(["local", "status", "--engine", "cassandra", "--json"]);
        expect(status.code, status.stdout).toBe(0);
        expect(JSON.parse(status.stdout)[0]).toMatchObject({ engine: "cassandra", ready: true, preset, reasons: [] });

        const load = await cli([
          "ycsb",
          "--engine",
          "cassandra",
          "--workload",
          "a",
          "--",
          "-load",
          "-p",
          `recordcount=${RECORDS}`,
          "-threads",
          "4",
          ...INTEGRITY,
        ]);
        expect(load.code, load.stderr).toBe(0);
        // The binding read the preset's client side (model/presets.ts) and says so once.
        expect(load.stderr).toContain(`read CL ONE, write CL ONE, preset ${preset}`);
        expect(parseYcsbOutput(load.stdout, load.stderr).operations.INSERT?.returns).toEqual({ OK: RECORDS });
        const [count] = await cql(HOST, ["SELECT COUNT(*) AS n FROM ycsb.usertable"]);
        expect(count?.n).toBe(RECORDS);
        // One preset also runs workload A (each further preset would only add minutes).
        if (preset === "balanced") await runWorkloadA();
      } finally {
        const down = await cli(["local", "down", "--engine", "cassandra"]);
        expect(down.stdout).toContain("cassandra: stopped 1 node(s)");
      }
      expect(await readState("cassandra")).toBeUndefined();
    }, 400_000);
  }
});
