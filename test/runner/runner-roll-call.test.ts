import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPlan, scenario } from "../../model/index.js";
import { resultKey, runEndKey } from "../../model/results-layout.js";
import type { EngineActions } from "../../runner/engine-actions.js";
import { executePlan } from "../../runner/execute.js";
import { FolderStore } from "../../runner/results-store.js";
import { ycsbSetup } from "../../runner/ycsb-setup.js";
import { REPO_ROOT } from "./runner-helpers.js";

/**
 * A phase whose operations failed asks the cluster for a roll call before its result counts: a data node whose
 * machine died resets its connections at once here, so YCSB can end a short phase on errors before the node's
 * silence is stale (real YCSB, a binding class that does not exist, so every operation fails).
 */
const run = promisify(execFile);
let dir: string;
beforeAll(async () => {
  await run("bash", [join(REPO_ROOT, "scripts", "fetch-ycsb.sh")]);
  dir = await mkdtemp(join(tmpdir(), "runner-roll-call-"));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const actions: EngineActions = {
  prepareSchema: async () => "prepared",
  settle: async () => "settled",
  reset: async () => "reset",
};

describe("runner: the roll call after failed operations", () => {
  const spec = {
    ...scenario("quickstart"),
    name: "roll-call",
    records: { total: 100, fieldCount: 10, fieldLengthBytes: 100 },
    workloads: [{ workload: "a", operationCount: 100 }],
  };

  it("a node silent since the phase ended ends the run there, naming it; the phase is stored invalid with that reason", async () => {
    const asked: Date[] = [];
    const store = new FolderStore(join(dir, "store-1"));
    const outcome = await executePlan({
      plan: buildPlan(spec),
      runId: "rc-1",
      clientIndex: 0,
      store,
      spoolDir: join(dir, "spool-1"),
      ycsb: ycsbSetup({ db: "site.ycsb.NoSuchDB" }),
      actions,
      barrierTimeoutMs: 60_000,
      ycsbLabVersion: "test",
      clusterRollCall: async (since) => (
        asked.push(since),
        ["data node 2 has been silent for 50 s (last seen ready at 2026-11-24T10:00:00Z): its machine is gone"]
      ),
    });
    expect(outcome).toMatchObject({
      complete: false,
      reason: expect.stringMatching(/^phase \d+ \(load\): data node 2 has been silent/),
    });
    expect(asked).toHaveLength(1);
    const result = JSON.parse(await readFile(join(dir, "store-1", resultKey("rc-1", 1, "load", 0)), "utf8")) as {
      validity: { verdict: string; reasons: { code: string }[] };
    };
    expect(result.validity.verdict).toBe("invalid");
    expect(result.validity.reasons.map((r) => r.code)).toContain("cluster-node-failed");
    const end = JSON.parse(await readFile(join(dir, "store-1", runEndKey("rc-1")), "utf8")) as {
      complete: boolean;
      reason: string;
    };
    expect(end).toMatchObject({ complete: false, reason: expect.stringMatching(/data node 2/) });
  }, 300_000);

  it("a cluster that answers leaves the phase to its own measurements: the run goes on", async () => {
    let asked = 0;
    const store = new FolderStore(join(dir, "store-2"));
    const outcome = await executePlan({
      plan: buildPlan(spec),
      runId: "rc-2",
      clientIndex: 0,
      store,
      spoolDir: join(dir, "spool-2"),
      ycsb: ycsbSetup({ db: "site.ycsb.NoSuchDB" }),
      actions,
      barrierTimeoutMs: 60_000,
      ycsbLabVersion: "test",
      clusterRollCall: async () => (asked++, []),
    });
    expect(outcome.complete).toBe(true);
    expect(asked).toBe(2);
  }, 300_000);
});
