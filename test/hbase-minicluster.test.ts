import { execFile } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HBASE_COLUMN_FAMILY, HBASE_TABLE } from "../engines/hbase/schema.js";
import { ycsbKey } from "../engines/ycsb-keys.js";
import { type LocalEngineState, readState } from "../runner/local/engine.js";
import { hbaseLocalEngine, LOCAL_REGIONS_PER_NODE, miniClusterClasspath } from "../runner/local/hbase.js";
import {
  deterministicValue,
  expectCleanWorkloadA,
  returnCount,
  runYcsb,
  testLocalDir,
  ycsbClasspath,
} from "./support/engine-ycsb.js";

// A real HBase 2.5 mini cluster (HDFS + ZooKeeper + master + region server), real YCSB 0.17.0 and our binding;
// the table is then read with HBase's own client (TableCheck), not through the binding.
const RECORDS = 400;
const OPERATIONS = 400;
const FIELD_LENGTH = 100;

interface TableReport {
  durability: string;
  regions: { start: string; rows: number }[];
  rows: number;
  value?: string | null;
}

describe("hbase binding on a local HBase 2.5 mini cluster", () => {
  let local: Awaited<ReturnType<typeof testLocalDir>> | undefined;
  let dataDir: string;
  let state: LocalEngineState;
  let classpath: string[];

  const tableCheck = async (...get: string[]): Promise<TableReport> => {
    const dir = await miniClusterClasspath();
    const port = String(state.nodes[0]!.ports.zookeeper);
    const { stdout } = await promisify(execFile)(
      "java",
      [
        "-Dlog4j.configuration=ycsblab-minicluster-log4j.properties",
        "-cp",
        join(dir, "*"),
        "io.ycsblab.bindings.hbase.minicluster.TableCheck",
        port,
        HBASE_TABLE,
        ...get,
      ],
      { maxBuffer: 1 << 22 },
    );
    return JSON.parse(stdout.trim().split("\n").pop()!) as TableReport;
  };
  const integrity = { dataintegrity: "true", fieldlengthdistribution: "constant", fieldlength: String(FIELD_LENGTH) };

  beforeAll(async () => {
    local = await testLocalDir("hbase");
    dataDir = local.dataDir;
    classpath = await ycsbClasspath("hbase");
    // A port file left by an earlier cluster must not pass for the new one's.
    await mkdir(join(dataDir, "node-0"), { recursive: true });
    await writeFile(join(dataDir, "node-0", "zookeeper.port"), "1\n");
    state = await hbaseLocalEngine.up({ nodes: 1, preset: "durable", dataDir });
  });

  afterAll(async () => {
    if (state) await hbaseLocalEngine.down(state);
    await local?.remove();
  });

  it("is up with the pre-split table of engines/hbase/schema.ts and the preset's table durability", async () => {
    // The state file `local status` / `local down` read in another process.
    expect(await readState("hbase")).toEqual(state);
    expect(state.nodes[0]!.ports.zookeeper).not.toBe(1);
    const status = await hbaseLocalEngine.status(state);
    expect(status.reasons).toEqual([]);
    expect(status.ready).toBe(true);
    expect(hbaseLocalEngine.standIn).toBeUndefined();
    // The server loaded the hbase-site.xml rendered by engines/hbase/config.ts (durable: hsync the WAL).
    const serverLog = await readFile(join(state.nodes[0]!.logDir, "stdout.log"), "utf8");
    expect(serverLog).toContain("hbase-minicluster: hbase.wal.hsync=true");
    const report = await tableCheck();
    expect(report.durability).toBe("FSYNC_WAL");
    expect(report.regions).toHaveLength(LOCAL_REGIONS_PER_NODE);
    expect(report.rows).toBe(0);
  });

  it("loads every record through the buffered mutator; YCSB's keys spread over every pre-split region", async () => {
    const { output, stderr } = await runYcsb({
      engine: "hbase",
      preset: "durable",
      classpath,
      dbClass: hbaseLocalEngine.binding.dbClass,
      phase: "load",
      connection: hbaseLocalEngine.connectionProperties(state),
      records: RECORDS,
      extra: { ...integrity, "hbase.usebufferedmutator": "true" },
    });
    expect(stderr).toContain("durability=FSYNC_WAL bufferedMutator=true family=data");
    expect(returnCount(output, "INSERT")).toBe(RECORDS);
    const key = ycsbKey(11);
    const report = await tableCheck("--get", key, HBASE_COLUMN_FAMILY, "field3");
    expect(report.rows).toBe(RECORDS);
    expect(report.value).toBe(deterministicValue(key, "field3", FIELD_LENGTH));
    // Equal shares by construction: each region holds 100 of 400 hashed keys, give or take sampling noise.
    for (const region of report.regions) expect(region.rows).toBeGreaterThan(RECORDS / LOCAL_REGIONS_PER_NODE / 2);
  });

  it("runs workload A: every read and update OK and verified, row count unchanged", async () => {
    const { output } = await runYcsb({
      engine: "hbase",
      preset: "durable",
      classpath,
      dbClass: hbaseLocalEngine.binding.dbClass,
      phase: "run",
      connection: hbaseLocalEngine.connectionProperties(state),
      records: RECORDS,
      operations: OPERATIONS,
      extra: integrity,
    });
    expectCleanWorkloadA(output, OPERATIONS);
    expect((await tableCheck()).rows).toBe(RECORDS);
  });

  it("stops the mini cluster and reports it gone", async () => {
    await hbaseLocalEngine.down(state);
    const status = await hbaseLocalEngine.status(state);
    expect(status.ready).toBe(false);
    expect(status.reasons.join(" ")).toMatch(/not running/);
    expect(await readState("hbase")).toBeUndefined();
  });
});
