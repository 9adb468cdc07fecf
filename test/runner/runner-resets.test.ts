import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPlan, type PlanPhase, scenario } from "../../model/index.js";
import type { EngineActions } from "../../runner/engine-actions.js";
import { dryRunLines, executePlan } from "../../runner/execute.js";
import { FolderStore } from "../../runner/results-store.js";
import { basicDbSetup, ycsbSetup } from "../../runner/ycsb-setup.js";
import { REPO_ROOT } from "./runner-helpers.js";

/**
 * Resets between repeats are plan phases the runner executes: client 0 hands each to the engine's actions, between
 * the same barriers as every phase, and a wipe is followed by the plan's own prepare and load (real YCSB, BasicDB).
 */
const run = promisify(execFile);
let dir: string;
beforeAll(async () => {
  await run("bash", [join(REPO_ROOT, "scripts", "fetch-ycsb.sh")]);
  dir = await mkdtemp(join(tmpdir(), "runner-resets-"));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("runner: resets", () => {
  it("runs each repeat of seed 000's shape from an empty, restarted database: reset, prepare, load, workloads", async () => {
    const spec = {
      ...scenario("quickstart"),
      name: "resets-small",
      records: { total: 300, fieldCount: 10, fieldLengthBytes: 100 },
      workloads: [{ workload: "a", operationCount: 300 }],
      repeats: 2,
      resets: { repeat: { wipeData: true, restartServer: true, dropCaches: false, source: "seed 000 lines 41-43" } },
    };
    const plan = buildPlan(spec);
    const calls: string[] = [];
    const actions: EngineActions = {
      prepareSchema: async () => (calls.push("prepare"), "prepared"),
      settle: async (p) => (calls.push(`settle ${p.name}`), "settled"),
      reset: async (p: PlanPhase) => (
        calls.push(`reset ${p.name} wipe=${p.reset!.wipeData} restart=${p.reset!.restartServer}`), "reset done"
      ),
    };
    const store = new FolderStore(join(dir, "store"));
    const outcome = await executePlan({
      plan,
      runId: "resets-1",
      clientIndex: 0,
      store,
      spoolDir: join(dir, "spool"),
      ycsb: await basicDbSetup(),
      actions,
      barrierTimeoutMs: 60_000,
      ycsbLabVersion: "test",
      standIn: "site.ycsb.BasicDB: no database",
    });
    expect(outcome.complete).toBe(true);
    expect(calls).toEqual(["prepare", "reset reset-r1 wipe=true restart=true", "prepare"]);
    const manifest = JSON.parse(await readFile(join(dir, "store", "runs", "resets-1", "manifest.json"), "utf8")) as {
      phases: { name: string; kind: string; outcome: Record<string, string> }[];
    };
    expect(manifest.phases.map((p) => `${p.kind}:${p.name}:${p.outcome["client-0"]}`)).toEqual([
      "prepare:prepare:action",
      "load:load:stored",
      "workload:a-r0:stored",
      "reset:reset-r1:action",
      "prepare:prepare-r1:action",
      "load:load-r1:stored",
      "workload:a-r1:stored",
    ]);
    expect(dryRunLines(plan, 0, ycsbSetup({ db: "basic" }))[3]).toBe(
      "# 3 reset-r1 (reset): reset (wipe data, restart server before each repeat)",
    );
  }, 300_000);
});
