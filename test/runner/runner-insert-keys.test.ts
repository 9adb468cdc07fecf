import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPlan, insertKeyRange, type Plan, scenario } from "../../model/index.js";
import { bindingClasspathDir } from "../../runner/java-artifacts.js";
import { ycsbInvocation } from "../../runner/ycsb-invocation.js";
import { ycsbSetup } from "../../runner/ycsb-setup.js";
import { REPO_ROOT } from "./runner-helpers.js";

/**
 * Real YCSB 0.17.0 (site.ycsb.BasicDB printing every operation's key) runs each client of each phase as the plan
 * says: two clients loading, then two insert workloads in a row. Every record must be inserted once: no client,
 * and no later workload, writes a key another already wrote (YCSB's own CoreWorkload starts every client's run-phase
 * inserts at recordcount).
 */
const run = promisify(execFile);
let commonClasspath: string;
let hdrDir: string;

beforeAll(async () => {
  await run("bash", [join(REPO_ROOT, "scripts", "fetch-ycsb.sh")]);
  commonClasspath = await bindingClasspathDir("common");
  hdrDir = await mkdtemp(join(tmpdir(), "insert-keys-"));
}, 600_000);
afterAll(async () => {
  if (hdrDir) await rm(hdrDir, { recursive: true, force: true });
});

async function insertedKeys(plan: Plan, phaseName: string, client: number): Promise<string[]> {
  const phase = plan.phases.find((p) => p.name === phaseName)!;
  const setup = ycsbSetup({
    db: "basic",
    classpath: [join(commonClasspath, "*")],
    properties: { "basicdb.verbose": "true" },
  });
  const inv = ycsbInvocation(setup, phase, client, join(hdrDir, `${phase.index}-${client}-`));
  const { stdout } = await run(inv.argv[0]!, inv.argv.slice(1), { maxBuffer: 64 * 1024 * 1024 });
  return [...stdout.matchAll(/^INSERT usertable (\S+) /gm)].map((m) => m[1]!);
}

describe("run-phase inserts: each client and each insert workload in keys of its own", () => {
  const spec = {
    ...scenario("quickstart"),
    name: "insert-keys",
    records: { total: 200, fieldCount: 1, fieldLengthBytes: 4 },
    workloads: [
      { workload: "insert-mostly", operationCount: 300 },
      { workload: "write-scan", operationCount: 300 },
    ],
    operationCountPer: "client" as const,
  };
  const plan = buildPlan(spec, { clients: 2 });

  it("the plan gives every client of every insert phase its own key numbers", () => {
    const ranges = ["insert-mostly", "write-scan"].flatMap((w) =>
      [0, 1].map((c) => insertKeyRange(plan.phases.find((p) => p.workload === w && p.kind === "workload")!, c)!),
    );
    // recordcount 200, 2 clients, 2 insert phases since the load: client c of phase l starts at 200 + 2l + c, step 4.
    expect(ranges).toEqual([
      { first: 200, step: 4 },
      { first: 201, step: 4 },
      { first: 202, step: 4 },
      { first: 203, step: 4 },
    ]);
  });

  it("real YCSB writes every key once: no overwrite across clients or workloads, none over a loaded record", async () => {
    const loaded = (await Promise.all([0, 1].map((c) => insertedKeys(plan, "load", c)))).flat();
    expect(new Set(loaded).size).toBe(200);
    const inserted: string[] = [];
    for (const phase of ["insert-mostly", "write-scan"])
      for (const c of [0, 1]) inserted.push(...(await insertedKeys(plan, phase, c)));
    // insert-mostly inserts 90%, write-scan 25% of each client's 300 operations.
    expect(inserted.length).toBeGreaterThan(2 * 300 * 0.9);
    const seen = new Set(loaded);
    const again = inserted.filter((k) => (seen.has(k) ? true : (seen.add(k), false)));
    expect(again).toEqual([]);
  }, 300_000);
});
