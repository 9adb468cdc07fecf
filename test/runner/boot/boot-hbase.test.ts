import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSetupScript } from "../../../runner/java-artifacts.js";
import { type BootProcess, BootRun, expectAllOk, startedPid } from "../../support/boot-run.js";

// The boot command of a 2-node HBase cluster and a client, as their user-data runs them: on each node the same
// NameNode, ZooKeeper, DataNode, HMaster and HRegionServer JVMs as on an instance (from Maven Central jars laid out
// like the tarballs, scripts/setup-hbase-artifacts.sh), formed by our schema tool; a real YCSB client with our
// binding. Loopback 127.0.13.3x.
describe("boot path: a 2-node HBase cluster of separate daemons, and a client", () => {
  let run: BootRun;
  const nodes: BootProcess[] = [];
  let client: BootProcess;

  beforeAll(async () => {
    const artifacts = await runSetupScript("setup-hbase-artifacts.sh");
    run = await BootRun.create({
      engine: "hbase",
      nodes: 2,
      preset: "balanced",
      scale: 0.05,
      loopback: "127.0.13",
      firstHost: 31,
      dataEnv: { YCSB_LAB_ENGINE_ARTIFACTS: artifacts, YCSB_LAB_MAX_HEAP_MB: "512" },
    });
    nodes.push(run.start("data", 0), run.start("data", 1));
    client = run.start("client", 0);
    await run.waitFor(
      "client-0 done",
      600_000,
      async () => ((await run.status("client-0"))?.stage === "done" ? true : undefined),
      client,
    );
  }, 660_000);

  afterAll(async () => {
    await run?.close();
  });

  it("runs seed 000's daemons: namenode, ZooKeeper and master on the first node, a datanode and a region server on each", async () => {
    expect(await run.stages("data", 0)).toEqual(["booting", "installed", "started", "formed", "ready"]);
    expect(await run.stages("data", 1)).toEqual(["booting", "installed", "started", "ready"]);
    expect(await run.stages("client", 0)).toEqual([
      "booting",
      "installed",
      "waiting",
      "ready",
      ...run.plan.phases.map(() => "running"),
      "done",
    ]);
    const started = (i: number) => [...nodes[i]!.output().matchAll(/started (\w+) \(pid \d+\)/g)].map((m) => m[1]);
    expect(started(0)).toEqual(["namenode", "zookeeper", "datanode", "master", "regionserver"]);
    expect(started(1)).toEqual(["datanode", "regionserver"]);
    // The rehearsal says what it swapped: both distributions for local folders.
    expect(nodes[0]!.output()).toMatch(
      /hadoop-3\.4\.1\.tar\.gz: local artifacts .*\/hadoop \(rehearsal; the instance downloads https:\/\/archive\.apache\.org\/dist\/hadoop\/common\/hadoop-3\.4\.1\/hadoop-3\.4\.1\.tar\.gz\)/,
    );
    expect(nodes[0]!.output()).toMatch(/hbase-2\.5\.11-hadoop3-bin\.tar\.gz: local artifacts .*\/hbase \(rehearsal/);
  });

  it("is formed when both region servers are live, with the pre-split table, and tells clients the ZooKeeper quorum", async () => {
    const marker = await run.marker();
    expect(marker).toMatchObject({
      engine: "hbase",
      nodes: 2,
      preset: "balanced",
      connection: {
        "hbase.zookeeper.quorum": run.nodeAddress(0),
        "hbase.zookeeper.property.clientPort": "2181",
        columnfamily: "data",
      },
    });
    expect(marker?.standIn).toBeUndefined();
    expect(marker?.steps).toEqual([
      `2 region server(s) live: ${[0, 1]
        .map((i) => `${run.nodeAddress(i)}:16020`)
        .sort()
        .join(", ")}`,
      // engines/hbase/schema.ts: 10 regions per region server, the balanced preset's table durability.
      "usertable created: 20 regions, durability SYNC_WAL, family data (NONE)",
    ]);
  });

  it("stores every phase's result with all operations OK, on the real engine", async () => {
    const results = await run.results();
    expect([...results.keys()]).toEqual(["1-load/client-0", "2-a/client-0", "3-b/client-0"]);
    expect(results.get("1-load/client-0")!.result.operations.INSERT?.returns.OK).toBe(run.cluster.recordCount);
    for (const key of ["2-a/client-0", "3-b/client-0"]) expectAllOk(results.get(key)!, ["READ", "UPDATE"]);
    for (const doc of results.values()) expect(doc.run.standIn).toBeUndefined();
  });

  it("reports a data node failed, with its daemon's log tail, when its region server dies", async () => {
    process.kill(startedPid(nodes[1]!.output(), "regionserver"), "SIGKILL");
    expect((await nodes[1]!.exited).code).toBe(78);
    const status = await run.status("node-1");
    expect(status).toMatchObject({ stage: "failed", logTail: true });
    expect(status?.detail).toMatch(/^regionserver \(pid \d+\) exited by signal SIGKILL while serving the run$/);
    const tail = await run.logTail("node-1");
    expect(tail).toMatch(/--- engine log \(.*regionserver\.log\) ---/);
    // The tail is the region server's own log (Log4j's pattern of engines/hbase/cluster-config.ts).
    expect(tail).toMatch(/INFO {2}\[.*\] regionserver\.HRegionServer/);
  });
});
