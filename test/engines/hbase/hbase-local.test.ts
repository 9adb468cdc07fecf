import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REGIONS_PER_SERVER } from "../../../engines/hbase/cluster-config.js";
import { HBASE_MAIN_CLASSES } from "../../../engines/hbase/runtime.js";
import { HBASE_COLUMN_FAMILY, HBASE_TABLE } from "../../../engines/hbase/schema.js";
import { ycsbKey } from "../../../engines/ycsb-keys.js";
import { processAlive } from "../../../runner/boot/processes.js";
import { bindingClasspathDir } from "../../../runner/java-artifacts.js";
import { type LocalEngineState, readState } from "../../../runner/local/engine.js";
import { hbaseLocalEngine } from "../../../runner/local/hbase.js";
import {
  deterministicValue,
  expectCleanWorkloadA,
  returnCount,
  runYcsb,
  testLocalDir,
  ycsbClasspath,
} from "../../support/engine-ycsb.js";

// A real 2-node HBase 2.5 on HDFS started by `local up` from engines/hbase/runtime.ts (namenode, ZooKeeper, datanode,
// master and region server JVMs on node 1, a datanode and a region server on node 2, as on an instance), real YCSB
// 0.17.0 and our binding; the table is then read with HBase's own client (TableCheck), not through the binding.
// Loopback 127.0.14.x.
const RECORDS = 400;
const OPERATIONS = 400;
const FIELD_LENGTH = 100;
const NODES = 2;

interface TableReport {
  durability: string;
  regions: { start: string; rows: number }[];
  rows: number;
  value?: string | null;
}

describe("hbase binding on a local 2-node HBase 2.5 of separate daemons", () => {
  let local: Awaited<ReturnType<typeof testLocalDir>> | undefined;
  let dataDir: string;
  let state: LocalEngineState;
  let classpath: string[];

  const prefix = process.env.YCSB_LAB_LOOPBACK_PREFIX;
  const tableCheck = async (...get: string[]): Promise<TableReport> => {
    const dir = await bindingClasspathDir("hbase-minicluster");
    const zookeeper = `${state.nodes[0]!.address}:${state.nodes[0]!.ports.zookeeper}`;
    const { stdout } = await promisify(execFile)(
      "java",
      [
        "-Dlog4j.configuration=ycsblab-minicluster-log4j.properties",
        "-cp",
        join(dir, "*"),
        "io.ycsblab.bindings.hbase.minicluster.TableCheck",
        zookeeper,
        HBASE_TABLE,
        ...get,
      ],
      { maxBuffer: 1 << 22 },
    );
    return JSON.parse(stdout.trim().split("\n").pop()!) as TableReport;
  };
  const integrity = { dataintegrity: "true", fieldlengthdistribution: "constant", fieldlength: String(FIELD_LENGTH) };

  beforeAll(async () => {
    process.env.YCSB_LAB_LOOPBACK_PREFIX = "127.0.14";
    local = await testLocalDir("hbase");
    dataDir = local.dataDir;
    classpath = await ycsbClasspath("hbase");
    state = await hbaseLocalEngine.up({ nodes: NODES, preset: "durable", dataDir });
  }, 600_000);

  afterAll(async () => {
    if (state) await hbaseLocalEngine.down(state);
    await local?.remove();
    if (prefix === undefined) delete process.env.YCSB_LAB_LOOPBACK_PREFIX;
    else process.env.YCSB_LAB_LOOPBACK_PREFIX = prefix;
  }, 180_000);

  it("records every daemon of every node, each running its own main class", async () => {
    // The state file `local status` / `local down` read in another process.
    expect(await readState("hbase")).toEqual(state);
    expect(state.nodes.map((n) => n.address)).toEqual(["127.0.14.1", "127.0.14.2"]);
    expect(state.nodes.map((n) => n.processes.map((p) => p.name))).toEqual([
      ["namenode", "zookeeper", "datanode", "master", "regionserver"],
      ["datanode", "regionserver"],
    ]);
    for (const p of state.nodes.flatMap((n) => n.processes)) {
      expect(processAlive(p), p.name).toBe(true);
      const cmdline = await readFile(`/proc/${p.pid}/cmdline`, "utf8");
      expect(cmdline).toContain(HBASE_MAIN_CLASSES[p.name as keyof typeof HBASE_MAIN_CLASSES]);
    }
    const status = await hbaseLocalEngine.status(state);
    expect(status.reasons).toEqual([]);
    expect(status.ready).toBe(true);
    expect(hbaseLocalEngine.standIn).toBeUndefined();
  });

  it("is formed with the pre-split table of engines/hbase/cluster-config.ts and the preset's table durability", async () => {
    // Each daemon read the files the runtime rendered for the preset (durable: hsync the WAL).
    const site = await readFile(join(dataDir, "node-2", "conf", "hbase-site.xml"), "utf8");
    expect(site).toMatch(/<name>hbase\.wal\.hsync<\/name>\s*<value>true<\/value>/);
    const regionserverLog = await readFile(join(state.nodes[1]!.logDir, "regionserver.log"), "utf8");
    expect(regionserverLog).toMatch(/regionserver\.HRegionServer/);
    const report = await tableCheck();
    expect(report.durability).toBe("FSYNC_WAL");
    expect(report.regions).toHaveLength(REGIONS_PER_SERVER * NODES);
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
    // Every pre-split region holds some of the hashed keys (20 regions, 20 keys each on average).
    for (const region of report.regions) expect(region.rows).toBeGreaterThan(0);
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

  it("stops every daemon of every node and reports them gone", async () => {
    await hbaseLocalEngine.down(state);
    for (const p of state.nodes.flatMap((n) => n.processes)) expect(processAlive(p), p.name).toBe(false);
    const status = await hbaseLocalEngine.status(state);
    expect(status.ready).toBe(false);
    expect(status.reasons.join(" ")).toMatch(
      /node 2 \(127\.0\.14\.2\): datanode \(pid \d+\), regionserver \(pid \d+\) are not running/,
    );
    expect(await readState("hbase")).toBeUndefined();
  });
});
