import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ycsbKey } from "../../../engines/ycsb-keys.js";
import { couchbaseLocalEngine, mockDocument } from "../../../runner/local/couchbase.js";
import { type LocalEngineState, readState } from "../../../runner/local/engine.js";
import {
  deterministicValue,
  expectCleanWorkloadA,
  returnCount,
  runYcsb,
  testLocalDir,
  ycsbClasspath,
} from "../../support/engine-ycsb.js";

// Real YCSB 0.17.0 + our binding on the Couchbase Java SDK 3 against CouchbaseMock (the stand-in); documents are
// read back through the mock's control API, not through the SDK.
const RECORDS = 200;
const OPERATIONS = 300;
const FIELD_LENGTH = 100;

describe("couchbase binding on the CouchbaseMock stand-in", () => {
  let local: Awaited<ReturnType<typeof testLocalDir>> | undefined;
  let dataDir: string;
  let state: LocalEngineState;
  let classpath: string[];
  const integrity = { dataintegrity: "true", fieldlengthdistribution: "constant", fieldlength: String(FIELD_LENGTH) };
  const ycsb = (phase: "load" | "run", extra: Record<string, string>, operations = OPERATIONS) =>
    runYcsb({
      engine: "couchbase",
      preset: "throughput",
      classpath,
      dbClass: couchbaseLocalEngine.binding.dbClass,
      phase,
      connection: couchbaseLocalEngine.connectionProperties(state),
      records: RECORDS,
      operations,
      threads: 2,
      extra,
    });

  beforeAll(async () => {
    local = await testLocalDir("couchbase");
    dataDir = local.dataDir;
    classpath = await ycsbClasspath("couchbase");
    state = await couchbaseLocalEngine.up({ nodes: 1, preset: "throughput", dataDir });
  });

  afterAll(async () => {
    if (state) await couchbaseLocalEngine.down(state);
    await local?.remove();
  });

  it("says it is a stand-in and refuses presets that need synchronous durability", async () => {
    // The state file `local status` / `local down` read in another process.
    expect(await readState("couchbase")).toEqual(state);
    const status = await couchbaseLocalEngine.status(state);
    expect(status.reasons).toEqual([]);
    expect(status.ready).toBe(true);
    expect(status.nodes[0]?.detail).toMatch(/CouchbaseMock .* standing in for Couchbase/);
    expect(state.details?.standIn).toBe(couchbaseLocalEngine.standIn);
    await expect(couchbaseLocalEngine.up({ nodes: 1, preset: "durable", dataDir })).rejects.toThrow(
      /couchbase\.durability=persistToMajority.*only the "throughput" preset runs on it/,
    );
  });

  it("runs the rehearsal's stand-in from engines/couchbase/runtime.ts: on node 1's address, REST on a free port", async () => {
    const [node, ...others] = state.nodes;
    expect(others).toEqual([]);
    expect(node?.processes.map((p) => p.name)).toEqual(["couchbase-mock"]);
    // Not 8091: the mock binds its REST port on every address, where a rehearsal's mock serves 8091.
    expect(node?.ports.rest).not.toBe(8091);
    const cmdline = (await readFile(`/proc/${node!.processes[0]!.pid}/cmdline`, "utf8")).split("\u0000");
    expect(cmdline.join(" ")).toContain(`--host ${node!.address} --port ${node!.ports.rest} --nodes 1`);
    // The mock's KV port, read from its cluster map, is what the binding reaches.
    expect(Object.keys(node!.ports).filter((k) => k.startsWith("kv"))).toEqual(["kv0"]);
    const host = node!.address;
    expect(couchbaseLocalEngine.connectionProperties(state)["couchbase.connectionString"]).toBe(
      `couchbase://${host}:${node!.ports.kv0}`,
    );
  });

  it("loads every record; the mock holds YCSB's exact value for each key", async () => {
    const { output, stderr } = await ycsb("load", integrity);
    expect(stderr).toContain("durability=NONE scan=none");
    expect(returnCount(output, "INSERT")).toBe(RECORDS);
    const missing: string[] = [];
    for (let i = 0; i < RECORDS; i++) if (!(await mockDocument(state, ycsbKey(i)))) missing.push(ycsbKey(i));
    expect(missing).toEqual([]);
    expect(await mockDocument(state, ycsbKey(RECORDS))).toBeUndefined();
    const key = ycsbKey(3);
    expect((await mockDocument(state, key))?.field3).toBe(deterministicValue(key, "field3", FIELD_LENGTH));
  });

  it("runs workload A: every read and sub-document update OK and verified", async () => {
    const { output } = await ycsb("run", integrity);
    expectCleanWorkloadA(output, OPERATIONS);
  });

  it("answers SCAN with NOT_IMPLEMENTED, as seed 000 reported ('Range scan is not supported')", async () => {
    const { output, stderr } = await ycsb(
      "run",
      { readproportion: "0", updateproportion: "0", scanproportion: "1" },
      50,
    );
    expect(returnCount(output, "SCAN", "NOT_IMPLEMENTED")).toBe(50);
    expect(returnCount(output, "SCAN")).toBe(0);
    expect(stderr).toContain("Range scan is not supported");
  });

  it("passes the durability level to the server: the mock rejects synchronous durability, YCSB counts errors", async () => {
    const { output, stderr } = await ycsb("load", {
      "couchbase.durability": "majority",
      recordcount: "10005",
      insertstart: "10000",
      insertcount: "5",
    });
    expect(returnCount(output, "INSERT", "ERROR")).toBeGreaterThan(0);
    expect(returnCount(output, "INSERT")).toBe(0);
    expect(stderr).toMatch(/Synchronous Durability is currently not available/);
  });

  it("stops the mock and reports it gone", async () => {
    await couchbaseLocalEngine.down(state);
    const status = await couchbaseLocalEngine.status(state);
    expect(status.ready).toBe(false);
    expect(status.reasons.join(" ")).toMatch(/not running/);
    expect(await readState("couchbase")).toBeUndefined();
  });
});
