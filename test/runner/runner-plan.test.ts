import { describe, expect, it } from "vitest";
import {
  buildPlan,
  decideStep,
  type PlanPhase,
  renderPlanTable,
  SCENARIOS,
  scenario,
  splitInserts,
  UNLIMITED_OPERATIONS,
} from "../../model/index.js";

const workloadPhases = (phases: PlanPhase[]) => phases.filter((p) => p.kind === "workload");

describe("plan: load split", () => {
  it.each([
    [15_000_000 * 32, 11],
    [10_000, 1],
    [10, 3],
    [7, 7],
    [1_000_003, 4],
  ])("%i records over %i clients cover 0..n-1 exactly once", (records, clients) => {
    const ranges = splitInserts(records, clients);
    expect(ranges).toHaveLength(clients);
    let next = 0;
    for (const r of ranges) {
      expect(r.insertStart).toBe(next);
      expect(r.insertCount).toBeGreaterThanOrEqual(Math.floor(records / clients));
      expect(r.insertCount).toBeLessThanOrEqual(Math.ceil(records / clients));
      next += r.insertCount;
    }
    expect(next).toBe(records);
  });

  it("rejects impossible splits with the field named", () => {
    expect(() => splitInserts(0, 2)).toThrow(/recordCount/);
    expect(() => splitInserts(10, 0)).toThrow(/clients/);
  });
});

describe("plan: built-in scenarios", () => {
  it("datastax-2013 at 32 nodes: 11 clients, 372 threads each, load split covers every record once", () => {
    const plan = buildPlan(scenario("datastax-2013"), { nodes: 32 });
    expect(plan.deployment.clients).toBe(11);
    const load = plan.phases.find((p) => p.kind === "load")!;
    expect(load.perClient).toHaveLength(11);
    const total = Number(load.properties.recordcount);
    expect(total).toBe(15_000_000 * 32);
    const ranges = load.perClient
      .map((c) => [Number(c.insertstart), Number(c.insertcount)] as const)
      .sort((a, b) => a[0] - b[0]);
    let next = 0;
    for (const [start, count] of ranges) {
      expect(start).toBe(next);
      next = start + count;
    }
    expect(next).toBe(total);
    // 128 threads per data node spread over the clients (seed 001).
    expect(workloadPhases(plan.phases)[0]!.threadsPerClient).toBe(Math.floor((128 * 32) / 11));
    // 7 workloads x 3 repeats; scans capped at 1 h and running until the cap.
    expect(workloadPhases(plan.phases)).toHaveLength(21);
    const scan = plan.phases.find((p) => p.workload === "read-scan")!;
    expect(scan.properties.maxexecutiontime).toBe("3600");
    expect(scan.properties.operationcount).toBe(UNLIMITED_OPERATIONS);
    // zipfian everywhere except the "latest" workload.
    expect(plan.phases.find((p) => p.workload === "read-latest")!.properties.requestdistribution).toBe("latest");
    expect(plan.phases.find((p) => p.workload === "a")!.properties.requestdistribution).toBe("zipfian");
  });

  it("andor-parv-2019: 2 workloads x 4 op counts x 10 thread counts x 3 repeats", () => {
    const plan = buildPlan(scenario("andor-parv-2019"));
    const runs = workloadPhases(plan.phases);
    expect(runs).toHaveLength(2 * 4 * 10 * 3);
    const combos = new Set(runs.map((p) => `${p.workload}/${p.operationCount}/${p.threadsPerClient}/${p.repeat}`));
    expect(combos.size).toBe(240);
    expect(new Set(runs.map((p) => p.threadsPerClient))).toEqual(new Set([1, 2, 4, 8, 16, 32, 64, 128, 256, 512]));
    expect(new Set(runs.map((p) => p.operationCount))).toEqual(new Set([1_000, 10_000, 100_000, 1_000_000]));
    expect(new Set(plan.phases.map((p) => p.name)).size).toBe(plan.phases.length);
  });

  it("endpoint-2015: load with its own preset and 40 threads, settle after load and between workloads", () => {
    const plan = buildPlan(scenario("endpoint-2015"), { nodes: 4 });
    const load = plan.phases.find((p) => p.kind === "load")!;
    expect(load.preset).toBe("throughput");
    expect(load.threadsPerClient).toBe(40);
    expect(load.properties["ycsblab.preset"]).toBe("throughput");
    const a = plan.phases.find((p) => p.workload === "a" && p.kind === "workload")!;
    expect(a.properties["ycsblab.preset"]).toBe("durable");
    expect(a.threadsPerClient).toBe(256);
    // "9 million operations for each workload": each client's YCSB operationcount (YCSB counts per client).
    expect(a.perClient.map((c) => c.operationcount)).toEqual(["9000000", "9000000", "9000000", "9000000"]);
    expect(a).toMatchObject({ operationCount: 9_000_000, operationCountPer: "client" });
    expect(plan.phases[plan.phases.indexOf(load) + 1]!.kind).toBe("settle");
    // After the load, between workloads, and after each repeat's reload.
    expect(plan.phases.filter((p) => p.kind === "settle")).toHaveLength(3 * 5);
  });

  it("endpoint-2015: the load is non-durable on the server too where the engine can switch (Cassandra), and says so elsewhere", () => {
    const cassandra = buildPlan(scenario("endpoint-2015"), { nodes: 2, engine: "cassandra" });
    const loads = cassandra.phases.filter((p) => p.kind === "load");
    for (const load of loads) {
      expect(load.properties["ycsblab.serverPreset"]).toBe("throughput");
      const after = cassandra.phases[load.index + 1]!;
      expect(after).toMatchObject({ kind: "settle", serverPreset: "durable" });
    }
    // HBase's durability is a region-server setting: its durable server side holds from the start, and the record says it.
    const hbase = buildPlan(scenario("endpoint-2015"), { nodes: 2, engine: "hbase", preset: "durable" });
    expect(hbase.phases.find((p) => p.kind === "load")!.properties["ycsblab.serverPreset"]).toBe("durable");
    expect(hbase.phases.some((p) => p.serverPreset)).toBe(false);
    // A scenario loading under its run's preset switches nothing.
    expect(buildPlan(scenario("quickstart"), {}).phases.some((p) => p.serverPreset)).toBe(false);
  });

  it("lineate-2014: each step warms up in its own measuring process, steps doubling threads, decided at run time", () => {
    const plan = buildPlan(scenario("lineate-2014"), { scale: 0.01 });
    const group = plan.phases.filter((p) => p.stepUp?.group === "b-r0");
    // Each step: clear the caches, then one YCSB process warming up 1 minute and running 5 (seed 002 steps 3 to 6).
    expect(group.map((p) => `${p.kind}:${p.threadsPerClient}`).slice(0, 4)).toEqual([
      "reset:1",
      "workload:4",
      "reset:1",
      "workload:8",
    ]);
    expect(plan.phases.some((p) => p.kind === "warmup")).toBe(false);
    expect(group.filter((p) => p.kind === "reset").every((p) => p.reset?.dropCaches && !p.reset.wipeData)).toBe(true);
    const steps = group.filter((p) => p.kind === "workload");
    expect(
      steps.every(
        (p) => p.warmupSec === 60 && p.properties["ycsblab.warmup.seconds"] === "60" && p.maxExecutionTimeSec === 300,
      ),
    ).toBe(true);
    expect(group.filter((p) => p.kind === "workload").map((p) => p.threadsPerClient)).toEqual([
      4, 8, 16, 32, 64, 128, 256, 512,
    ]);
    expect(plan.deployment.recordCount).toBe(200_000);
  });

  it("operation counts per client: a 32-node phase runs as long as the study's (seed 000 B about 21 minutes, seed 001 write-mostly 46 s)", () => {
    const endpoint = buildPlan(scenario("endpoint-2015"), { nodes: 4 });
    const b = endpoint.phases.find((p) => p.workload === "b" && p.kind === "workload")!;
    expect(b.perClient.map((c) => Number(c.operationcount))).toEqual(Array(4).fill(9_000_000));
    // At 32 nodes and full size, 32 clients run 9M each:
    const at32 = buildPlan(scenario("endpoint-2015"), { nodes: 32 }).phases.find(
      (p) => p.workload === "b" && p.kind === "workload",
    )!;
    const total = at32.perClient.reduce((s, c) => s + Number(c.operationcount), 0);
    expect(total).toBe(32 * 9_000_000);
    // At seed 000's published 32-node Cassandra read-mostly 227,292.80 ops/s: 1,267 s, about 21 minutes (40 s if split).
    expect(total / 227_292.8 / 60).toBeCloseTo(21.1, 1);
    const datastax = buildPlan(scenario("datastax-2013"), { nodes: 32 });
    const w = datastax.phases.find((p) => p.workload === "write-mostly" && p.kind === "workload")!;
    expect(w.perClient.map((c) => Number(c.operationcount))).toEqual(Array(11).fill(900_000));
    // Seed 001's 32-node Cassandra write-mostly 215,271.59 ops/s: 46 s (4 s if 900,000 were split over the clients).
    expect((11 * 900_000) / 215_271.59).toBeCloseTo(46, 0);
    // A scenario stating a total still splits it.
    expect(
      buildPlan({ ...scenario("quickstart"), operationCountPer: "total" }, { clients: 3 })
        .phases.find((p) => p.kind === "workload")!
        .perClient.map((c) => c.operationcount),
    ).toEqual(["3333", "3333", "3334"]);
  });

  it("lineate-2014: every load is followed by a wait for the database to finish rebalancing (seed 002 step 2)", () => {
    const plan = buildPlan(scenario("lineate-2014"), { scale: 0.01, engine: "mongodb" });
    const loads = plan.phases.filter((p) => p.kind === "load");
    expect(loads.length).toBeGreaterThan(1);
    for (const load of loads)
      expect(plan.phases[load.index + 1]).toMatchObject({ kind: "settle", settle: { waitForRebalance: true } });
  });

  it("every phase runs the project's LongKeyWorkload; a phase bounded by time only sizes no key space for its sentinel count", () => {
    const plan = buildPlan(scenario("datastax-2013"), { nodes: 32, scale: 0.01 });
    const ycsb = plan.phases.filter((p) => p.kind === "load" || p.kind === "workload");
    expect(new Set(ycsb.map((p) => p.properties.workload))).toEqual(new Set(["io.ycsblab.workloads.LongKeyWorkload"]));
    // Seed 001's scans: 1 h cap, no operation count ("All other workloads were run ... using an operation count").
    const writeScan = plan.phases.find((p) => p.workload === "write-scan")!;
    expect(writeScan.properties).toMatchObject({
      operationcount: UNLIMITED_OPERATIONS,
      "ycsblab.keyspace.operationcount": "0",
      insertproportion: "0.25",
    });
    // A counted phase sizes it as YCSB does, from its operationcount.
    expect(
      plan.phases.find((p) => p.workload === "read-latest")!.properties["ycsblab.keyspace.operationcount"],
    ).toBeUndefined();
  });

  it("resets are phases: seeds 000/001 start each repeat empty and restarted, then prepare and load again", () => {
    for (const name of ["endpoint-2015", "datastax-2013"]) {
      const plan = buildPlan(scenario(name), { nodes: 2 });
      const r1 = plan.phases.findIndex((p) => p.name === "reset-r1");
      expect(plan.phases[r1]).toMatchObject({
        kind: "reset",
        clientsActive: [0],
        repeat: 1,
        reset: { wipeData: true, restartServer: true, point: "repeat" },
      });
      expect(plan.phases.slice(r1 + 1, r1 + 3).map((p) => p.name)).toEqual(["prepare-r1", "load-r1"]);
      expect(plan.phases.filter((p) => p.kind === "load").map((p) => [p.name, p.repeat])).toEqual([
        ["load", 0],
        ["load-r1", 1],
        ["load-r2", 2],
      ]);
    }
  });

  it("resets are phases: seed 003 restarts before each operation-count batch, drops and reloads between workloads, repeats each test at once", () => {
    const plan = buildPlan(scenario("andor-parv-2019"), { scale: 0.001 });
    const kinds = plan.phases.map((p) => `${p.kind}:${p.name}`);
    expect(kinds.slice(0, 7)).toEqual([
      "prepare:prepare",
      "load:load",
      "reset:reset-a-ops1",
      "workload:a-ops1-t1-r0",
      "workload:a-ops1-t1-r1",
      "workload:a-ops1-t1-r2",
      "workload:a-ops1-t2-r0",
    ]);
    expect(plan.phases.filter((p) => p.reset?.point === "operationCount")).toHaveLength(2 * 4);
    expect(
      plan.phases
        .filter((p) => p.reset?.point === "operationCount")
        .every((p) => p.reset!.restartServer && !p.reset!.wipeData),
    ).toBe(true);
    const reload = plan.phases.findIndex((p) => p.name === "reset-b");
    expect(plan.phases[reload]!.reset).toMatchObject({ wipeData: true, point: "workload" });
    expect(plan.phases.slice(reload + 1, reload + 4).map((p) => p.name)).toEqual([
      "prepare-b",
      "load-b",
      "reset-b-ops1",
    ]);
    expect(plan.phases.find((p) => p.name === "load-b")!.workload).toBe("b");
  });

  it("resets are phases: seed 004 wipes, restarts and loads again for every thread step, skipped with its step", () => {
    const plan = buildPlan(scenario("usa-2015-durability"), { scale: 0.001 });
    const step1 = plan.phases.filter((p) => p.stepUp?.group === "a" && p.stepUp.step === 1);
    expect(step1.map((p) => p.kind)).toEqual(["reset", "prepare", "load", "settle", "workload"]);
    expect(step1[0]!.reset).toMatchObject({ wipeData: true, restartServer: true, point: "step" });
    // The first step runs on the data set just loaded: no second wipe and load before it.
    expect(plan.phases.filter((p) => p.stepUp?.group === "a" && p.stepUp.step === 0).map((p) => p.kind)).toEqual([
      "workload",
    ]);
    expect(plan.phases.filter((p) => p.stepUp?.group === "b" && p.stepUp.step === 0).map((p) => p.kind)).toEqual([
      "reset",
      "prepare",
      "load",
      "settle",
      "workload",
    ]);
  });

  it("every built-in scenario plans with unique names, consecutive indices and the table renders", () => {
    for (const name of Object.keys(SCENARIOS)) {
      const plan = buildPlan(scenario(name), { scale: 0.001 });
      expect(plan.phases.map((p) => p.index)).toEqual(plan.phases.map((_, i) => i));
      expect(new Set(plan.phases.map((p) => p.name)).size).toBe(plan.phases.length);
      expect(plan.phases[0]!.kind).toBe("prepare");
      expect(plan.phases[0]!.clientsActive).toEqual([0]);
      expect(renderPlanTable(plan)).toContain(plan.phases.at(-1)!.name);
    }
  });

  it("refuses a preset the scenario does not cover, naming it", () => {
    expect(() => buildPlan(scenario("datastax-2013"), { preset: "durable" })).toThrow(
      /preset: scenario "datastax-2013" covers preset\(s\) balanced, not durable/,
    );
  });

  it("--clients and a target sweep", () => {
    const plan = buildPlan({ ...scenario("quickstart"), targets: [1000, 2000] }, { clients: 2 });
    const runs = workloadPhases(plan.phases);
    expect(runs.map((p) => p.name)).toEqual(["a-target1000", "a-target2000", "b-target1000", "b-target2000"]);
    // quickstart states its 10,000 operations in total: split over the two clients.
    expect(runs[1]!.targetPerClient).toBe(1000);
    expect(runs[0]!.perClient.map((c) => c.operationcount)).toEqual(["5000", "5000"]);
  });
});

describe("plan: the table `ycsb-lab plan` prints", () => {
  it("shows each client's operation count beside the total, the key ranges each client inserts into, and the resets", () => {
    const table = renderPlanTable(buildPlan(scenario("endpoint-2015"), { nodes: 2 }));
    expect(table).toContain("operation counts: as the scenario states them per client (YCSB counts per client)");
    expect(table).toMatch(/ops\/client +ops total/);
    expect(table).toMatch(/ b-r0 +workload +b +256 +9000000 +18000000 +3600s/);
    // The load's key ranges, and each client's run-phase insert keys (2 clients x 2 insert workloads: step 4).
    expect(table).toMatch(/ load +load .* keys 0\+500000000 500000000\+500000000/);
    expect(table).toMatch(/mixed-analytical-r0 .* insert keys c0:1000000000\+4k c1:1000000001\+4k/);
    expect(table).toMatch(/insert-mostly-r0 .* insert keys c0:1000000002\+4k c1:1000000003\+4k/);
    expect(table).toMatch(/reset-r1 +reset .* wipe data, restart server \(seed 000 lines 41-43/);
  });
});

describe("plan: step-up decisions", () => {
  it("first two steps always run; later ones only while throughput rises by the minimum gain", () => {
    expect(decideStep(0, 5, [])).toEqual({ run: true });
    expect(decideStep(1, 5, [{ step: 0, throughput: 1000 }])).toEqual({ run: true });
    expect(
      decideStep(2, 5, [
        { step: 0, throughput: 1000 },
        { step: 1, throughput: 1200 },
      ]),
    ).toEqual({ run: true });
    const stop = decideStep(2, 5, [
      { step: 0, throughput: 1000 },
      { step: 1, throughput: 1030 },
    ]);
    expect(stop.run).toBe(false);
    expect(!stop.run && stop.reason).toMatch(/stopped rising.*3\.0% < 5%/);
    expect(
      decideStep(3, 5, [
        { step: 0, throughput: 1000 },
        { step: 1, throughput: 1030 },
      ]),
    ).toMatchObject({ run: false });
  });
});
