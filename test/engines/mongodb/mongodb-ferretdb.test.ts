import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MONGODB_COLLECTION, MONGODB_DATABASE } from "../../../engines/mongodb/schema.js";
import { ycsbKey } from "../../../engines/ycsb-keys.js";
import { type LocalEngineState, readState } from "../../../runner/local/engine.js";
import { mongodbLocalEngine } from "../../../runner/local/mongodb.js";
import { localNodePaths } from "../../../runner/local/node-engines.js";
import { rebalanceWait } from "../../../runner/mongodb-balancer.js";
import {
  deterministicValue,
  expectCleanWorkloadA,
  returnCount,
  runYcsb,
  testLocalDir,
  ycsbClasspath,
} from "../../support/engine-ycsb.js";

// Real YCSB 0.17.0 + our MongoDB binding against FerretDB (the MongoDB stand-in), checked through an independent driver.
const RECORDS = 300;
const OPERATIONS = 400;
const FIELD_LENGTH = 100;

describe("mongodb binding on the FerretDB stand-in", () => {
  let local: Awaited<ReturnType<typeof testLocalDir>> | undefined;
  let dataDir: string;
  let state: LocalEngineState;
  let classpath: string[];
  let client: MongoClient;

  beforeAll(async () => {
    local = await testLocalDir("mongodb");
    dataDir = local.dataDir;
    classpath = await ycsbClasspath("mongodb");
    // Leftovers of an earlier server must not survive `up`: YCSB's load expects an empty database.
    const ferretdbData = join(localNodePaths(dataDir, 1).data, "ferretdb");
    await mkdir(ferretdbData, { recursive: true });
    await writeFile(join(ferretdbData, "ycsb.sqlite"), "stale");
    state = await mongodbLocalEngine.up({ nodes: 1, preset: "durable", dataDir });
    const url = mongodbLocalEngine.connectionProperties(state)["mongodb.url"]!;
    client = new MongoClient(url, { serverSelectionTimeoutMS: 10_000 });
    await client.connect();
  });

  afterAll(async () => {
    await client?.close();
    if (state) await mongodbLocalEngine.down(state);
    await local?.remove();
  });

  const collection = () => client.db(MONGODB_DATABASE).collection<{ _id: string }>(MONGODB_COLLECTION);
  const integrity = { dataintegrity: "true", fieldlengthdistribution: "constant", fieldlength: String(FIELD_LENGTH) };

  it("says it is a stand-in wherever its status shows", async () => {
    // The state file `local status` / `local down` read in another process.
    expect(await readState("mongodb")).toEqual(state);
    const status = await mongodbLocalEngine.status(state);
    expect(status.ready).toBe(true);
    expect(status.reasons).toEqual([]);
    expect(status.nodes[0]?.detail).toMatch(/FerretDB .* standing in for MongoDB/);
    expect(mongodbLocalEngine.standIn).toMatch(/FerretDB/);
    expect(state.details?.standIn).toBe(mongodbLocalEngine.standIn);
  });

  it("loads every record with batched inserts, under YCSB's own keys and values", async () => {
    const { output, stderr } = await runYcsb({
      engine: "mongodb",
      preset: "durable",
      classpath,
      dbClass: mongodbLocalEngine.binding.dbClass,
      phase: "load",
      connection: mongodbLocalEngine.connectionProperties(state),
      records: RECORDS,
      extra: { ...integrity, "mongodb.batchsize": "25" },
    });
    // The durable preset's write concern (model/presets.ts) reached the binding.
    expect(stderr).toContain('writeConcern={"w": 1, "j": true}');
    // YCSB counts a buffered insert as BATCHED_OK and the insert that sends the batch as OK (4 threads x 75 / 25).
    expect(returnCount(output, "INSERT", "BATCHED_OK") + returnCount(output, "INSERT")).toBe(RECORDS);
    expect(returnCount(output, "INSERT")).toBe(12);
    expect(output.operations["INSERT-FAILED"]).toBeUndefined();

    expect(await collection().countDocuments()).toBe(RECORDS);
    const ids = (
      await collection()
        .find({}, { projection: { _id: 1 } })
        .toArray()
    )
      .map((d) => d._id)
      .sort();
    const expected = Array.from({ length: RECORDS }, (_, i) => ycsbKey(i)).sort();
    expect(ids).toEqual(expected);

    const key = ycsbKey(7);
    const doc = await collection().findOne({ _id: key });
    const field3 = doc?.["field3" as keyof typeof doc] as unknown as { buffer: Uint8Array } | undefined;
    expect(Buffer.from(field3!.buffer).toString("latin1")).toBe(deterministicValue(key, "field3", FIELD_LENGTH));
  });

  it("runs workload A: every read and update OK, reads verified by YCSB, record count unchanged", async () => {
    const { output } = await runYcsb({
      engine: "mongodb",
      preset: "durable",
      classpath,
      dbClass: mongodbLocalEngine.binding.dbClass,
      phase: "run",
      connection: mongodbLocalEngine.connectionProperties(state),
      records: RECORDS,
      operations: OPERATIONS,
      extra: integrity,
    });
    expectCleanWorkloadA(output, OPERATIONS);
    expect(await collection().countDocuments()).toBe(RECORDS);
  });

  it("a rebalance wait (seed 002 step 2) asks the stand-in for its balancer and is told there is none", async () => {
    const url = mongodbLocalEngine.connectionProperties(state)["mongodb.url"]!;
    const note = await rebalanceWait("mongodb", url);
    expect(note).toMatch(/^rebalance wait: no balancer answers balancerCollectionStatus \(.+\): nothing to wait for$/);
  });

  it("stops only its own FerretDB and reports it gone", async () => {
    await mongodbLocalEngine.down(state);
    const status = await mongodbLocalEngine.status(state);
    expect(status.ready).toBe(false);
    expect(status.reasons.join(" ")).toMatch(/not running/);
    expect(await readState("mongodb")).toBeUndefined();
  });
});
