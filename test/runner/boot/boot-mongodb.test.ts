import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MONGODB_STAND_IN } from "../../../engines/mongodb/stand-in.js";
import { ferretdbBinary } from "../../../runner/local/mongodb.js";
import { type BootProcess, BootRun, expectAllOk, startedPid } from "../../support/boot-run.js";

// The boot command of a MongoDB data node and a client, run as their user-data runs them, with FerretDB standing
// in for mongod (none can be installed here): the stand-in on the address and port clients use, the marker and
// every result naming it, a real YCSB client with our binding. Loopback 127.0.13.1x.
describe("boot path: MongoDB data node on its stand-in, and a client", () => {
  let run: BootRun;
  let node: BootProcess;
  let client: BootProcess;

  beforeAll(async () => {
    const ferretdb = await ferretdbBinary();
    run = await BootRun.create({
      engine: "mongodb",
      nodes: 1,
      preset: "durable",
      scale: 0.05,
      loopback: "127.0.13",
      firstHost: 11,
      dataEnv: { YCSB_LAB_STAND_IN: ferretdb },
    });
    node = run.start("data", 0);
    client = run.start("client", 0);
    await run.waitFor(
      "client-0 done",
      240_000,
      async () => ((await run.status("client-0"))?.stage === "done" ? true : undefined),
      client,
    );
  });

  afterAll(async () => {
    await run?.close();
  });

  it("boots the data node through every stage and says a stand-in serves", async () => {
    expect(await run.stages("data", 0)).toEqual(["booting", "installed", "started", "formed", "ready"]);
    const status = await run.status("node-0");
    expect(status?.stage).toBe("ready");
    expect(status?.rehearsal?.join("\n")).toMatch(/stand-in/);
    // One "running" per phase of the plan (prepare, load, a, b).
    expect(await run.stages("client", 0)).toEqual([
      "booting",
      "installed",
      "waiting",
      "ready",
      ...run.plan.phases.map(() => "running"),
      "done",
    ]);
  });

  it("publishes a marker with the stand-in's address, the collection it made, and the stand-in's name", async () => {
    const marker = await run.marker();
    expect(marker).toMatchObject({
      engine: "mongodb",
      nodes: 1,
      preset: "durable",
      standIn: MONGODB_STAND_IN,
      connection: { "mongodb.url": `mongodb://${run.nodeAddress(0)}:27017/ycsb` },
    });
    expect(marker?.steps.join("\n")).toMatch(/no replica sets, no config server, no sharding/);
    expect(marker?.steps).toContain("ycsb.usertable created");
  });

  it("stores every phase's result with all operations OK, each labelled with the stand-in", async () => {
    const results = await run.results();
    const records = run.cluster.recordCount;
    expect([...results.keys()]).toEqual(["1-load/client-0", "2-a/client-0", "3-b/client-0"]);
    const load = results.get("1-load/client-0")!;
    expect(load.result.operations.INSERT?.returns.OK).toBe(records);
    for (const key of ["2-a/client-0", "3-b/client-0"]) expectAllOk(results.get(key)!, ["READ", "UPDATE"]);
    for (const doc of results.values()) {
      expect(doc.run.standIn).toBe(MONGODB_STAND_IN);
      expect(doc.run.engine).toBe("mongodb");
    }
  });

  it("reports the data node failed, with the stand-in's log tail, when its server dies", async () => {
    process.kill(startedPid(node.output(), "ferretdb"), "SIGKILL");
    expect((await node.exited).code).toBe(78);
    const status = await run.status("node-0");
    expect(status).toMatchObject({ stage: "failed", logTail: true });
    expect(status?.detail).toMatch(/ferretdb \(pid \d+\) exited by signal SIGKILL while serving the run/);
    expect(await run.logTail("node-0")).toMatch(/--- engine log \(.*ferretdb\.log\) ---/);
  });
});

describe("boot path: MongoDB's stand-in refuses a cluster it cannot be", () => {
  let run: BootRun;
  afterAll(async () => {
    await run?.close();
  });

  it("fails a data node of a 2-node run for good, saying why, before it starts anything", async () => {
    run = await BootRun.create({
      engine: "mongodb",
      nodes: 2,
      preset: "balanced",
      loopback: "127.0.13",
      firstHost: 16,
      dataEnv: { YCSB_LAB_STAND_IN: await ferretdbBinary() },
    });
    const node = run.start("data", 0);
    expect((await node.exited).code).toBe(78);
    const status = await run.status("node-0");
    expect(status?.stage).toBe("failed");
    expect(status?.detail).toBe(
      `${MONGODB_STAND_IN}: FerretDB v1.24.0 is one server with no replica sets or sharding; this run has 2 data nodes (rehearse MongoDB's stand-in with 1 node)`,
    );
    expect(node.output()).not.toMatch(/started ferretdb/);
  });
});
