import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPlan, type ClientOutput, scenario } from "../../model/index.js";
import { BarrierError, passBarrier } from "../../runner/barrier.js";
import { barrierKey } from "../../runner/keys.js";
import { openResultsStore } from "../../runner/open-results-store.js";
import { cpuBetween, parseProcStat } from "../../runner/proc-stat.js";
import { type ProgressState, parseDuration, renderProgress, updateProgress } from "../../runner/progress.js";
import { FolderStore } from "../../runner/results-store.js";
import { backoffDelay, withRetry } from "../../runner/retry.js";
import { findDips, judgePhase } from "../../runner/validity.js";
import { ycsbInvocation } from "../../runner/ycsb-invocation.js";
import { parseYcsbOutput } from "../../runner/ycsb-output/index.js";
import { REPO_ROOT } from "./runner-helpers.js";

const fixture = async (name: string): Promise<ClientOutput> =>
  parseYcsbOutput(
    await readFile(join(REPO_ROOT, "test", "fixtures", "ycsb", name, "stdout.txt"), "utf8"),
    await readFile(join(REPO_ROOT, "test", "fixtures", "ycsb", name, "stderr.txt"), "utf8").catch(() => ""),
  );

const series = (rates: number[]): ClientOutput["statusSeries"] => ({
  at: rates.map(() => null),
  elapsedSec: rates.map((_, i) => i + 1),
  operations: rates.map(() => 0),
  opsPerSec: rates,
  estCompletionSec: rates.map(() => null),
  perOperation: {},
});

describe("validity", () => {
  it("a real run with failed operations (FlakyDB fixture) is invalid and counts them", async () => {
    const v = judgePhase({ kind: "workload", output: await fixture("failed"), exitCode: 0, resources: [] });
    expect(v.verdict).toBe("invalid");
    const errors = v.reasons.find((r) => r.code === "errors")!;
    expect(errors.message).toMatch(/^\d+ of \d+ operations failed/);
  });

  it("a complete real load is valid; one short of its insertcount is invalid", async () => {
    const out = await fixture("load");
    const inserted = out.operations.INSERT!.returns.OK!;
    expect(judgePhase({ kind: "load", output: out, exitCode: 0, insertCount: inserted, resources: [] }).verdict).toBe(
      "valid",
    );
    const short = judgePhase({ kind: "load", output: out, exitCode: 0, insertCount: inserted + 1, resources: [] });
    expect(short.verdict).toBe("invalid");
    expect(short.reasons[0]).toEqual({
      code: "load-incomplete",
      message: `inserted ${inserted} of ${inserted + 1} records`,
    });
  });

  it("saturated below 95% of the target, client-bound above 70% CPU, and YCSB failures", async () => {
    const out = await fixture("load");
    const tp = out.overall.throughputOpsSec;
    const codes = (v: ReturnType<typeof judgePhase>) => v.reasons.map((r) => r.code);
    expect(
      codes(judgePhase({ kind: "load", output: out, exitCode: 0, targetPerClient: tp / 0.96, resources: [] })),
    ).not.toContain("saturated");
    expect(
      codes(judgePhase({ kind: "load", output: out, exitCode: 0, targetPerClient: tp / 0.94, resources: [] })),
    ).toContain("saturated");
    const busy = [
      { tSec: 1, cpuPct: 71, stealPct: 0 },
      { tSec: 2, cpuPct: 72, stealPct: 0 },
    ];
    expect(codes(judgePhase({ kind: "load", output: out, exitCode: 0, resources: busy }))).toEqual(["client-bound"]);
    expect(
      codes(judgePhase({ kind: "load", output: out, exitCode: 0, resources: busy.map((b) => ({ ...b, cpuPct: 69 })) })),
    ).toEqual([]);
    const failed = judgePhase({
      kind: "workload",
      output: out,
      exitCode: 1,
      failure: "YCSB ended by signal SIGKILL",
      resources: [],
    });
    expect(failed.verdict).toBe("invalid");
    expect(codes(failed)).toEqual(expect.arrayContaining(["ycsb-failed", "ycsb-exit"]));
  });

  it("finds dips under 50% of the mean lasting 10 s or more, not shorter ones", async () => {
    const steady = Array(30).fill(1000);
    expect(findDips(series([...steady, 1000]))).toEqual([]);
    const nine = [...steady.slice(0, 10), ...Array(9).fill(100), ...steady.slice(0, 11)];
    expect(findDips(series(nine))).toEqual([]);
    const twelve = [...steady.slice(0, 10), ...Array(12).fill(100), ...steady.slice(0, 11)];
    const dips = findDips(series(twelve));
    expect(dips).toHaveLength(1);
    expect(dips[0]).toMatchObject({ fromSec: 10, toSec: 22, minOpsPerSec: 100 });
    const v = judgePhase({
      kind: "workload",
      output: { ...(await fixture("load")), statusSeries: series(twelve) },
      exitCode: 0,
      resources: [],
    });
    expect(v.verdict).toBe("warning");
    expect(v.reasons[0]!.code).toBe("throughput-dip");
  });
});

describe("client CPU from /proc/stat", () => {
  it("parses this machine's /proc/stat and computes busy and steal shares", async () => {
    const now = parseProcStat(await readFile("/proc/stat", "utf8"));
    expect(now.total).toBeGreaterThan(now.idle);
    const a = parseProcStat("cpu  100 0 100 800 0 0 0 0 0 0\n");
    const b = parseProcStat("cpu  400 0 200 1100 0 0 0 100 0 0\n");
    const { cpuPct, stealPct } = cpuBetween(a, b);
    expect(cpuPct).toBeCloseTo(((300 + 100 + 100) / 800) * 100);
    expect(stealPct).toBeCloseTo((100 / 800) * 100);
    expect(() => parseProcStat("intr 1 2 3\n")).toThrow(/no aggregate "cpu" line/);
  });
});

describe("progress line", () => {
  it("follows real status lines: ops/s, worst p99, time left", async () => {
    const stderr = await readFile(
      join(REPO_ROOT, "test", "fixtures", "ycsb", "hdr-v2", "client-0", "stderr.txt"),
      "utf8",
    );
    let s: ProgressState = { client: 1, phase: "a-t8" };
    const seen: string[] = [];
    for (const line of stderr.split("\n")) {
      const next = updateProgress(s, line, 60);
      if (next !== s) seen.push(renderProgress(next));
      s = next;
    }
    expect(seen.length).toBeGreaterThan(2);
    expect(seen[1]).toMatch(/^client 1 \| a-t8 \| 2\.8k ops\/s \| p99 2\.9ms \| 1s elapsed, 12s left$/);
    expect(parseDuration("1 hour 2 minutes")).toBe(3720);
    expect(parseDuration("45 seconds")).toBe(45);
  });
});

describe("retry", () => {
  it("backs off exponentially up to the cap, and gives up at the deadline naming what failed", async () => {
    const o = { baseMs: 100, maxMs: 1000 };
    expect(backoffDelay(0, o, () => 0.999)).toBe(99);
    expect(backoffDelay(3, o, () => 0.999)).toBe(799);
    expect(backoffDelay(10, o, () => 0.999)).toBe(999);
    let calls = 0;
    await expect(
      withRetry(
        "put x",
        async () => {
          calls++;
          throw new Error("ECONNREFUSED");
        },
        { baseMs: 1, maxMs: 5, deadlineMs: 50 },
      ),
    ).rejects.toThrow(/put x: gave up after \d+ attempts .*ECONNREFUSED/);
    expect(calls).toBeGreaterThan(1);
    let n = 0;
    expect(
      await withRetry("flaky", async () => (++n < 3 ? Promise.reject(new Error("no")) : n), { baseMs: 1, maxMs: 2 }),
    ).toBe(3);
  });
});

describe("YCSB command line", () => {
  it("load gets -load and this client's key range; a target sweep passes -target per client", () => {
    const setup = {
      java: "java",
      classpath: ["a/*", "b/*"],
      db: "site.ycsb.BasicDB",
      properties: { hosts: "127.0.0.1" },
      statusIntervalSec: 1,
    };
    const plan = buildPlan({ ...scenario("quickstart"), targets: [3000] }, { clients: 3 });
    const load = plan.phases.find((p) => p.kind === "load")!;
    const inv = ycsbInvocation(setup, load, 2, "/spool/hdr/");
    expect(inv.argv).toContain("-load");
    expect(inv.argv.join(" ")).toContain("-cp a/*:b/* site.ycsb.Client -load -db site.ycsb.BasicDB -p ");
    expect(inv.argv.slice(inv.argv.indexOf("-threads"))).toEqual(["-threads", "8", "-s"]);
    expect(inv.properties).toMatchObject({
      insertstart: "6666",
      insertcount: "3334",
      recordcount: "10000",
      hosts: "127.0.0.1",
      "hdrhistogram.output.path": "/spool/hdr/",
    });
    const a = plan.phases.find((p) => p.kind === "workload")!;
    const run = ycsbInvocation(setup, a, 0, "/h/");
    expect(run.argv.slice(run.argv.indexOf("-target"), run.argv.indexOf("-target") + 2)).toEqual(["-target", "1000"]);
    expect(() => ycsbInvocation(setup, plan.phases[0]!, 0, "/h/")).toThrow(/prepare phase runs no YCSB/);
  });
});

describe("folder store and barrier", () => {
  let dir: string;
  let store: FolderStore;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "runner-units-"));
    store = new FolderStore(dir);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("puts, gets, lists; refuses keys that escape the folder", async () => {
    await store.put("runs/x/a.json", "{}");
    await store.put("runs/x/b/c.txt", "hello");
    expect(await store.list("runs/x/")).toEqual(["runs/x/a.json", "runs/x/b/c.txt"]);
    expect((await store.get("runs/x/b/c.txt"))!.toString()).toBe("hello");
    expect(await store.get("runs/x/none")).toBeUndefined();
    await expect(store.put("../evil", "x")).rejects.toThrow(/must be relative/);
    await expect(openResultsStore("ftp://x")).rejects.toThrow(/neither s3:\/\/bucket\/prefix nor file:\/\/dir/);
  });

  it("releases all clients together and hands everyone every client's step outcomes", async () => {
    const point = { index: 3, name: "a" };
    const o = { clients: 3, timeoutMs: 10_000, pollMs: 20 };
    const late = new Promise((r) => setTimeout(r, 300)).then(() =>
      passBarrier(store, "r1", point, { client: 2, stepOutcomes: { "2": 30 } }, o),
    );
    const released: number[] = [];
    const all = await Promise.all([
      passBarrier(store, "r1", point, { client: 0, stepOutcomes: { "2": 10 } }, o).then(
        (a) => (released.push(Date.now()), a),
      ),
      passBarrier(store, "r1", point, { client: 1, stepOutcomes: { "2": 20 } }, o).then(
        (a) => (released.push(Date.now()), a),
      ),
      late,
    ]);
    const arrivedLast = Date.parse(all[2]![2]!.arrivedAt);
    for (const t of released) expect(t).toBeGreaterThanOrEqual(arrivedLast);
    expect(all[0]!.map((a) => a.stepOutcomes["2"])).toEqual([10, 20, 30]);
  });

  it("times out naming the missing client, and stops at once when a peer aborted", async () => {
    const o = { clients: 2, timeoutMs: 300, pollMs: 20 };
    const err = await passBarrier(store, "r2", { index: 1, name: "load" }, { client: 0, stepOutcomes: {} }, o).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BarrierError);
    expect((err as Error).message).toBe(
      "barrier before phase 1 (load): timed out after 0 s waiting for client(s) 1 (arrived: 0)",
    );
    await passBarrier(
      store,
      "r3",
      { index: 2, name: "a" },
      { client: 1, stepOutcomes: {}, status: "aborted", reason: "disk full" },
      o,
    );
    await expect(
      passBarrier(store, "r3", { index: 2, name: "a" }, { client: 0, stepOutcomes: {} }, { ...o, timeoutMs: 60_000 }),
    ).rejects.toThrow("barrier before phase 2 (a): client 1 aborted the run: disk full");
  });

  it("a peer's arrival that is not one stops the barrier, naming its object and field", async () => {
    const o = { clients: 2, timeoutMs: 60_000, pollMs: 20 };
    const point = { index: 4, name: "b" };
    const key = barrierKey("r4", point.index, point.name, 1);
    await store.put(key, JSON.stringify({ client: 1, arrivedAt: "now", status: "done", stepOutcomes: {} }));
    const err = await passBarrier(store, "r4", point, { client: 0, stepOutcomes: {} }, o).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BarrierError);
    expect((err as Error).message).toMatch(
      new RegExp(`^barrier before phase 4 \\(b\\): ${key}: not a barrier arrival: /status: `),
    );
    await store.put(key, JSON.stringify({ client: 0, arrivedAt: "now", status: "ready", stepOutcomes: {} }));
    await expect(passBarrier(store, "r4", point, { client: 0, stepOutcomes: {} }, o)).rejects.toThrow(
      `${key}: /client: is 0, the object is client 1's`,
    );
  });
});
