import { describe, expect, it } from "vitest";
import { buildPlan, decideStep, renderPlanTable, SCENARIOS, scenario, splitInserts, UNLIMITED_OPERATIONS, type PlanPhase } from "../model/index.js";

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
    const ranges = load.perClient.map((c) => [Number(c.insertstart), Number(c.insertcount)] as const).sort((a, b) => a[0] - b[0]);
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
    // 9M operations over 4 clients, each with its share, summing to the total.
    expect(a.perClient.reduce((s, c) => s + Number(c.operationcount), 0)).toBe(9_000_000);
    expect(plan.phases[plan.phases.indexOf(load) + 1]!.kind).toBe("settle");
    expect(plan.phases.filter((p) => p.kind === "settle")).toHaveLength(1 + 5 * 3 - 1);
  });

  it("lineate-2014: warm-up before each step, steps doubling threads, decided at run time", () => {
    const plan = buildPlan(scenario("lineate-2014"), { scale: 0.01 });
    const group = plan.phases.filter((p) => p.stepUp?.group === "b-r0");
    expect(group.map((p) => `${p.kind}:${p.threadsPerClient}`).slice(0, 4)).toEqual(["warmup:4", "workload:4", "warmup:8", "workload:8"]);
    expect(group.filter((p) => p.kind === "warmup").every((p) => p.discard && p.maxExecutionTimeSec === 60)).toBe(true);
    expect(group.filter((p) => p.kind === "workload").map((p) => p.threadsPerClient)).toEqual([4, 8, 16, 32, 64, 128, 256, 512]);
    expect(plan.deployment.recordCount).toBe(200_000);
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
    expect(() => buildPlan(scenario("datastax-2013"), { preset: "durable" })).toThrow(/preset: scenario "datastax-2013" covers preset\(s\) balanced, not durable/);
  });

  it("--clients and a target sweep", () => {
    const plan = buildPlan({ ...scenario("quickstart"), targets: [1000, 2000] }, { clients: 2 });
    const runs = workloadPhases(plan.phases);
    expect(runs.map((p) => p.name)).toEqual(["a-target1000", "a-target2000", "b-target1000", "b-target2000"]);
    expect(runs[1]!.targetPerClient).toBe(1000);
    expect(runs[0]!.perClient.map((c) => c.operationcount)).toEqual(["5000", "5000"]);
  });
});

describe("plan: step-up decisions", () => {
  it("first two steps always run; later ones only while throughput rises by the minimum gain", () => {
    expect(decideStep(0, 5, [])).toEqual({ run: true });
    expect(decideStep(1, 5, [{ step: 0, throughput: 1000 }])).toEqual({ run: true });
    expect(decideStep(2, 5, [{ step: 0, throughput: 1000 }, { step: 1, throughput: 1200 }])).toEqual({ run: true });
    const stop = decideStep(2, 5, [{ step: 0, throughput: 1000 }, { step: 1, throughput: 1030 }]);
    expect(stop.run).toBe(false);
    expect(!stop.run && stop.reason).toMatch(/stopped rising.*3\.0% < 5%/);
    expect(decideStep(3, 5, [{ step: 0, throughput: 1000 }, { step: 1, throughput: 1030 }])).toMatchObject({ run: false });
  });
});
