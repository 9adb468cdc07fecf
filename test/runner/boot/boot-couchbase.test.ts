import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COUCHBASE_STAND_IN } from "../../../engines/couchbase/stand-in.js";
import { couchbaseMockJar } from "../../../runner/local/couchbase.js";
import { type BootProcess, BootRun, expectAllOk, startedPid } from "../../support/boot-run.js";

// The boot command of a Couchbase data node and a client, as their user-data runs them, with CouchbaseMock standing
// in for Couchbase Server (which cannot be installed here): the mock on the node's address and REST port, its KV
// ports (which it picks) carried by the marker, a real YCSB client with our binding. Loopback 127.0.13.2x.
describe("boot path: Couchbase data node on its stand-in, and a client", () => {
  let run: BootRun;
  let node: BootProcess;
  let client: BootProcess;

  beforeAll(async () => {
    const jar = await couchbaseMockJar();
    run = await BootRun.create({
      engine: "couchbase",
      nodes: 1,
      preset: "throughput",
      scale: 0.05,
      loopback: "127.0.13",
      firstHost: 21,
      dataEnv: { YCSB_LAB_STAND_IN: jar, YCSB_LAB_MAX_HEAP_MB: "384" },
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

  it("boots the data node and the client through every stage, saying a stand-in serves", async () => {
    expect(await run.stages("data", 0)).toEqual(["booting", "installed", "started", "formed", "ready"]);
    expect(await run.stages("client", 0)).toEqual([
      "booting",
      "installed",
      "waiting",
      "ready",
      ...run.plan.phases.map(() => "running"),
      "done",
    ]);
    expect((await run.status("node-0"))?.rehearsal?.join("\n")).toMatch(/stand-in .*CouchbaseMock/);
    expect(node.output()).toMatch(
      /installed: CouchbaseMock 1\.5\.25 \(KV only: no N1QL, no synchronous durability\) standing in for Couchbase;/,
    );
  });

  it("publishes the KV ports the mock chose, on the node's address, and names the stand-in", async () => {
    const marker = await run.marker();
    expect(marker).toMatchObject({ engine: "couchbase", nodes: 1, preset: "throughput", standIn: COUCHBASE_STAND_IN });
    expect(marker?.connection["couchbase.connectionString"]).toMatch(
      new RegExp(`^couchbase://${run.nodeAddress(0).replace(/\./g, "\\.")}:\\d+$`),
    );
    expect(marker?.connection["couchbase.bucket"]).toBe("ycsb");
    expect(marker?.secretConnection).toBeUndefined();
    expect(marker?.steps.join("\n")).toMatch(/no cluster-init, server-add, rebalance or bucket settings to form/);
  });

  it("stores every phase's result with all operations OK, each labelled with the stand-in", async () => {
    const results = await run.results();
    expect([...results.keys()]).toEqual(["1-load/client-0", "2-a/client-0", "3-b/client-0"]);
    expect(results.get("1-load/client-0")!.result.operations.INSERT?.returns.OK).toBe(run.cluster.recordCount);
    for (const key of ["2-a/client-0", "3-b/client-0"]) expectAllOk(results.get(key)!, ["READ", "UPDATE"]);
    for (const doc of results.values()) expect(doc.run.standIn).toBe(COUCHBASE_STAND_IN);
  });

  it("reports the data node failed, with the mock's log tail, when the mock dies", async () => {
    process.kill(startedPid(node.output(), "couchbase-mock"), "SIGKILL");
    expect((await node.exited).code).toBe(78);
    const status = await run.status("node-0");
    expect(status).toMatchObject({ stage: "failed", logTail: true });
    expect(status?.detail).toMatch(/couchbase-mock \(pid \d+\) exited by signal SIGKILL while serving the run/);
    expect(await run.logTail("node-0")).toMatch(/--- engine log \(.*couchbase-mock\.log\) ---/);
  });
});

describe("boot path: Couchbase's stand-in refuses what it cannot honour", () => {
  let run: BootRun;
  afterAll(async () => {
    await run?.close();
  });

  it("fails a durable run's data node for good at boot: the mock has no synchronous durability", async () => {
    run = await BootRun.create({
      engine: "couchbase",
      nodes: 1,
      preset: "durable",
      loopback: "127.0.13",
      firstHost: 26,
      dataEnv: { YCSB_LAB_STAND_IN: await couchbaseMockJar() },
    });
    const node = run.start("data", 0);
    expect((await node.exited).code).toBe(78);
    const status = await run.status("node-0");
    expect(status?.stage).toBe("failed");
    expect(status?.detail).toBe(
      `${COUCHBASE_STAND_IN}: preset "durable" sets couchbase.durability=persistToMajority, which needs synchronous durability; CouchbaseMock 1.5.25 (KV only: no N1QL, no synchronous durability) cannot provide it, so only the "throughput" preset runs on it`,
    );
  });
});
