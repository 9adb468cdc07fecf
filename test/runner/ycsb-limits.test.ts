import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPlan, type PlanPhase, scenario, YCSB_MAX_COUNT } from "../../model/index.js";
import { type YcsbSetup, ycsbInvocation } from "../../runner/ycsb-invocation.js";
import { basicDbSetup } from "../../runner/ycsb-setup.js";
import { REPO_ROOT } from "./runner-helpers.js";

/**
 * The real YCSB 0.17.0 jar (site.ycsb.BasicDB, no server) running plan phases through the project's workload class
 * (runner/bindings common LongKeyWorkload): a load and a run of seed 000 at 32 nodes and full size, 16 billion
 * records, where YCSB's own CoreWorkload narrows key numbers to ints; the one count YCSB still reads as an int (a
 * client's operationcount, model/ycsb-limits.ts); a warm-up inside the measuring process; and the key chooser's draw
 * rate in a time-capped phase.
 */
const run = promisify(execFile);
let setup: YcsbSetup;
let hdrDir: string;

beforeAll(async () => {
  await run("bash", [join(REPO_ROOT, "scripts", "fetch-ycsb.sh")]);
  setup = await basicDbSetup({ properties: { "basicdb.verbose": "true" } });
  hdrDir = await mkdtemp(join(tmpdir(), "ycsb-limits-"));
}, 600_000);
afterAll(async () => {
  if (hdrDir) await rm(hdrDir, { recursive: true, force: true });
});

/** One client's YCSB of a plan phase, with some of its properties changed (a few operations instead of millions). */
async function runPhase(
  phase: PlanPhase,
  client: number,
  over: Record<string, string>,
  properties: Record<string, string> = {},
) {
  const changed: PlanPhase = {
    ...phase,
    properties: { ...phase.properties, ...over },
    perClient: phase.perClient.map((c) => ({ ...c, ...over })),
  };
  const inv = ycsbInvocation(
    { ...setup, properties: { ...setup.properties, ...properties } },
    changed,
    client,
    join(hdrDir, `${phase.index}-${client}-`),
  );
  return run(inv.argv[0]!, inv.argv.slice(1), { maxBuffer: 64 * 1024 * 1024 }).catch(
    (err: { stdout: string; stderr: string; code: number }) => ({ ...err, failed: true }),
  );
}

/** YCSB's Utils.fnvhash64: the key number a hashed key name ("user" + hash) stands for. */
function fnvhash64(value: bigint): bigint {
  let hash = 0xcbf29ce484222325n;
  let v = value;
  for (let i = 0; i < 8; i++) {
    hash = BigInt.asIntN(64, (hash ^ (v & 0xffn)) * 1099511628211n);
    v >>= 8n;
  }
  return hash < 0n ? -hash : hash;
}

const keysOf = (stdout: string, op: string) =>
  [...stdout.matchAll(new RegExp(`^${op} usertable user(\\d+) `, "gm"))].map((m) => m[1]!);

describe("seed 000 at 32 nodes and full size: 16 billion records through LongKeyWorkload", () => {
  const plan = buildPlan(scenario("endpoint-2015"), { nodes: 32 });
  const load = plan.phases.find((p) => p.kind === "load")!;
  const b = plan.phases.find((p) => p.kind === "workload" && p.workload === "b")!;

  it("the last client loads keys 15,500,000,000 on, exactly the hashed key numbers of its range", async () => {
    expect(load.properties.recordcount).toBe("16000000000");
    expect(load.perClient[31]).toMatchObject({ insertstart: "15500000000", insertcount: "500000000" });
    const r = await runPhase(load, 31, { insertcount: "5", operationcount: "5" });
    expect(r.stderr).not.toMatch(/Exception/);
    // The plan's 40 load threads run as 5, one per record (runner/ycsb-process.ts threadsForCount), in any order.
    const expected = [0n, 1n, 2n, 3n, 4n].map((k) => String(fnvhash64(15_500_000_000n + k))).sort();
    expect(keysOf(r.stdout, "INSERT").sort()).toEqual(expected);
    // YCSB's own CoreWorkload with the same properties inserts the int-narrowed key numbers instead.
    const stock = await runPhase(load, 31, {
      insertcount: "5",
      operationcount: "5",
      workload: "site.ycsb.workloads.CoreWorkload",
    });
    expect(keysOf(stock.stdout, "INSERT")).toHaveLength(5);
    expect(keysOf(stock.stdout, "INSERT").filter((k) => expected.includes(k))).toEqual([]);
  }, 300_000);

  it("a run reads over the whole data set, past 2^31 (key numbers shown in order)", async () => {
    const r = await runPhase(b, 31, { operationcount: "200", requestdistribution: "uniform", insertorder: "ordered" });
    const keys = [...keysOf(r.stdout, "READ"), ...keysOf(r.stdout, "UPDATE")].map(Number);
    expect(keys.length).toBe(200);
    expect(keys.every((k) => k >= 0 && k < 16_000_000_000)).toBe(true);
    expect(keys.filter((k) => k > YCSB_MAX_COUNT).length).toBeGreaterThan(150);
    // YCSB's own CoreWorkload cannot start it: insertcount defaults to recordcount, parsed as an int.
    const stock = await runPhase(b, 31, { operationcount: "5", workload: "site.ycsb.workloads.CoreWorkload" });
    expect(stock.stderr).toMatch(/NumberFormatException: For input string: "16000000000"/);
  }, 300_000);

  it("a client's operationcount is still an int: YCSB_MAX_COUNT runs, one more stops the phase at once", async () => {
    const fits = await runPhase(
      b,
      0,
      { operationcount: String(YCSB_MAX_COUNT), maxexecutiontime: "1" },
      { "basicdb.verbose": "false" },
    );
    expect(fits.stdout).toMatch(/\[READ\], Operations, \d+/);
    const over = await runPhase(
      b,
      0,
      { operationcount: String(YCSB_MAX_COUNT + 1), maxexecutiontime: "1" },
      { "basicdb.verbose": "false" },
    );
    expect(over.stderr).toMatch(/NumberFormatException: For input string: "2147483648"/);
    expect(over.stdout).not.toMatch(/\[READ\], Operations/);
  }, 300_000);
});

describe("the project's workload class in the real YCSB process", () => {
  it("warms up inside the measuring process: operations run before the measurement, none of them measured", async () => {
    const plan = buildPlan(scenario("lineate-2014"), { scale: 0.0001 });
    const step = plan.phases.find((p) => p.kind === "workload")!;
    expect(step.properties["ycsblab.warmup.seconds"]).toBe("60");
    const r = await runPhase(
      step,
      0,
      {
        "ycsblab.warmup.seconds": "2",
        operationcount: "50",
        maxexecutiontime: "60",
        readproportion: "1",
        updateproportion: "0",
      },
      { "basicdb.simulatedelay": "1", "basicdb.randomizedelay": "false" },
    );
    expect(r.stderr).toMatch(
      /\[ycsb-lab\] warm-up: 2 s on 4 thread\(s\) in this process, \d+ operation\(s\) \(0 failed\), not measured/,
    );
    // BasicDB printed every read, the warm-up's too; YCSB measured only the phase's 50.
    expect(r.stdout).toMatch(/\[READ\], Operations, 50\n/);
    expect(keysOf(r.stdout, "READ").length).toBeGreaterThan(50);
  }, 300_000);

  it("a time-capped phase draws each key once; sized for its sentinel count, about 209 draws a key (seed 001 write/scan)", async () => {
    const plan = buildPlan(scenario("datastax-2013"), { nodes: 32, scale: 0.01 });
    const writeScan = plan.phases.find((p) => p.workload === "write-scan")!;
    // 1 ms per operation: 372 threads of a BasicDB at full speed outrun YCSB's window of unacknowledged inserts.
    const quiet = { "basicdb.verbose": "false", "basicdb.simulatedelay": "1", "basicdb.randomizedelay": "false" };
    const capped = await runPhase(writeScan, 0, { maxexecutiontime: "2" }, quiet);
    const perKey = (stderr: string) =>
      Number(/\[ycsb-lab\] key chooser: \d+ key\(s\) in \d+ draw\(s\), ([\d.]+) per key/.exec(stderr)?.[1]);
    expect(perKey(capped.stderr)).toBeLessThan(1.01);
    // The plan before: the key space sized for operationcount=2,000,000,000 x 25% inserts x 2.
    const sentinel = await runPhase(
      writeScan,
      0,
      { maxexecutiontime: "2", "ycsblab.keyspace.operationcount": "2000000000" },
      quiet,
    );
    expect(perKey(sentinel.stderr)).toBeGreaterThan(100);
  }, 300_000);
});
