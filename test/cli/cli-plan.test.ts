import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Plan } from "../../model/index.js";
import { REPO_ROOT, TSX_IMPORT } from "../runner/runner-helpers.js";

/** `ycsb-lab plan` as a user runs it, and its plan file read back by `ycsb-lab run --plan`. */
const run = promisify(execFile);
const cli = (...args: string[]) =>
  run(process.execPath, ["--import", TSX_IMPORT, join(REPO_ROOT, "cli", "main.ts"), ...args], {
    cwd: REPO_ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
let dir: string;

beforeAll(async () => {
  await run("bash", [join(REPO_ROOT, "scripts", "fetch-ycsb.sh")]);
  dir = await mkdtemp(join(tmpdir(), "cli-plan-"));
}, 600_000);
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("ycsb-lab plan", () => {
  it("plans endpoint-2015 at 32 nodes at full size: 500 million records per node, 16 billion", async () => {
    const { stdout } = await cli("plan", "--scenario", "endpoint-2015", "--nodes", "32");
    expect(stdout).toMatch(
      /^scenario endpoint-2015: cassandra, 32 node\(s\), preset durable \(load: throughput\), 32 client\(s\), 16000000000 records of 123 B, scale 1$/m,
    );
    expect(stdout).toMatch(/^1 +load +load +b +40 +500000000 +16000000000 /m);
  }, 300_000);

  it("-o plan.json writes the JSON `run --plan` reads (the cost, asked for, goes to stdout)", async () => {
    const file = join(dir, "plan.json");
    const { stdout } = await cli("plan", "--scenario", "endpoint-2015", "--nodes", "32", "--cost", "-o", file);
    expect(stdout).toMatch(/^cost estimate: 32 x i4i\.xlarge/m);
    const plan = JSON.parse(await readFile(file, "utf8")) as Plan;
    expect(plan).toMatchObject({
      planVersion: 1,
      scenario: "endpoint-2015",
      deployment: { nodes: 32, scale: 1, recordCount: 16_000_000_000 },
    });
    const dry = await cli(
      "run",
      "--plan",
      file,
      "--client-index",
      "31",
      "--clients",
      "32",
      "--db",
      "io.ycsblab.bindings.cassandra.CassandraDB",
      "--dry-run",
    );
    expect(dry.stdout).toMatch(
      /^# 1 load \(load\)\n.* -load -db io\.ycsblab\.bindings\.cassandra\.CassandraDB .*-p insertstart=15500000000 -p insertcount=500000000 /m,
    );
    expect(dry.stdout).toContain("-p workload=io.ycsblab.workloads.LongKeyWorkload");
    // A table still goes to a file when asked for by name.
    const table = join(dir, "plan.txt");
    await cli("plan", "--scenario", "quickstart", "--format", "table", "-o", table);
    expect(await readFile(table, "utf8")).toMatch(/^scenario quickstart: /);
  }, 180_000);
});
