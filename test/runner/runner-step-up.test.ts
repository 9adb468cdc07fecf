import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPlan, decideStep, type ResultDocument, scenario } from "../../model/index.js";
import { passiveActions } from "../../runner/engine-actions.js";
import { executePlan } from "../../runner/execute.js";
import { FolderStore } from "../../runner/results-store.js";
import { basicDbSetup } from "../../runner/ycsb-setup.js";
import { REPO_ROOT } from "./runner-helpers.js";

/** Step-up with real YCSB (BasicDB): the successors of a step are decided at run time, identically on both clients. */
const run = promisify(execFile);
let dir: string;
beforeAll(async () => {
  await run("bash", [join(REPO_ROOT, "scripts", "fetch-ycsb.sh")]);
  dir = await mkdtemp(join(tmpdir(), "runner-step-up-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("step-up at run time", () => {
  it("both clients run the same steps and stop together once throughput stops rising by the minimum gain", async () => {
    // A 1000% minimum gain cannot be met: steps 0 and 1 run (there is nothing to compare step 0 with), 2 and 3 do not.
    const spec = {
      ...scenario("quickstart"),
      name: "step-up-small",
      clients: { count: 2 },
      records: { total: 1000, fieldCount: 10, fieldLengthBytes: 100 },
      threads: { stepUp: { start: 1, factor: 2, max: 8, minGainPct: 1000 } },
      workloads: [{ workload: "b", maxExecutionTimeSec: 2 }],
    };
    const plan = buildPlan(spec);
    const steps = plan.phases.filter((p) => p.stepUp);
    expect(steps.map((p) => p.threadsPerClient)).toEqual([1, 2, 4, 8]);
    const store = new FolderStore(join(dir, "store"));
    const logs: string[][] = [[], []];
    const ycsb = await basicDbSetup();
    const outcomes = await Promise.all(
      [0, 1].map((c) =>
        executePlan({
          plan,
          runId: "step-up",
          clientIndex: c,
          store,
          spoolDir: join(dir, `spool-${c}`),
          ycsb,
          actions: passiveActions("none"),
          barrierTimeoutMs: 60_000,
          ycsbLabVersion: "test",
          log: (l) => logs[c]!.push(l),
        }),
      ),
    );
    expect(outcomes.map((o) => [o.complete, o.phasesSkipped])).toEqual([
      [true, 2],
      [true, 2],
    ]);
    const keys = await store.list("runs/step-up/phases/");
    const ran = (c: number) =>
      steps
        .filter((p) => keys.includes(`runs/step-up/phases/${p.index}-${p.name}/client-${c}/result.json`))
        .map((p) => p.stepUp!.step);
    expect(ran(0)).toEqual([0, 1]);
    expect(ran(1)).toEqual([0, 1]);
    // The decision recorded is the one the pure rule gives on the stored, summed throughputs.
    const total = async (i: number) => {
      let sum = 0;
      for (const c of [0, 1]) {
        const doc = JSON.parse(
          (await store.get(
            `runs/step-up/phases/${steps[i]!.index}-${steps[i]!.name}/client-${c}/result.json`,
          ))!.toString(),
        ) as ResultDocument;
        sum += doc.result.overall.throughputOpsSec;
      }
      return sum;
    };
    const decision = decideStep(2, 1000, [
      { step: 0, throughput: await total(0) },
      { step: 1, throughput: await total(1) },
    ]);
    expect(decision.run).toBe(false);
    for (const c of [0, 1])
      expect(logs[c]!.join("\n")).toContain(
        `phase ${steps[2]!.index} ${steps[2]!.name}: skipped, ${!decision.run && decision.reason}`,
      );
  });
});
