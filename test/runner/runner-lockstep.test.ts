import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeHistogram } from "../../model/hdr/index.js";
import { type Plan, type ResultDocument, validateResultDocument } from "../../model/index.js";
import type { Manifest } from "../../runner/execute.js";
import { S3Store } from "../../runner/results-store-s3.js";
import {
  createBucket,
  FlakyProxy,
  killRunner,
  REPO_ROOT,
  startMoto,
  startRunner,
  TSX_IMPORT,
  waitFor,
} from "./runner-helpers.js";

/**
 * Two real runner processes, real YCSB 0.17.0 (site.ycsb.BasicDB: no database needed) and moto as S3: lock-step,
 * every object stored, and the faults the runner must survive.
 */
const run = promisify(execFile);
const SCENARIO = `
name: lockstep-small
title: Two clients, a load, workload A and B at two thread counts
sources: [{ note: "runner test" }]
engines: [cassandra]
nodeCounts: [1]
presets: [balanced]
dataNode: { instanceType: m6i.large, storage: { kind: ebs } }
clientNode: { instanceType: c6i.large }
clients: { count: 2 }
replication: 1
records: { total: 3001, fieldCount: 10, fieldLengthBytes: 100 }
threads: { sweep: [1, 4] }
workloads:
  - { workload: a, operationCount: 6000, maxExecutionTimeSec: 60 }
  - { workload: b, operationCount: 6000, maxExecutionTimeSec: 60 }
operationCountPer: total
repeats: 1
defaults: { engine: cassandra, nodes: 1, preset: balanced }
`;

let moto: Awaited<ReturnType<typeof startMoto>>;
let dir: string;
let planFile: string;
let plan: Plan;
let store: S3Store;
const BUCKET = "ycsb-lab-results";

beforeAll(async () => {
  await run("bash", [join(REPO_ROOT, "scripts", "fetch-ycsb.sh")]);
  moto = await startMoto();
  await createBucket(moto.endpoint, BUCKET);
  dir = await mkdtemp(join(tmpdir(), "runner-lockstep-"));
  await writeFile(join(dir, "scenario.yaml"), SCENARIO);
  planFile = join(dir, "plan.json");
  await run(
    process.execPath,
    [
      "--import",
      TSX_IMPORT,
      join(REPO_ROOT, "cli", "main.ts"),
      "plan",
      "--scenario",
      join(dir, "scenario.yaml"),
      "--format",
      "json",
      "-o",
      planFile,
    ],
    { cwd: REPO_ROOT },
  );
  plan = JSON.parse(await readFile(planFile, "utf8")) as Plan;
  store = new S3Store(BUCKET, "lab", { endpoint: moto.endpoint });
});

afterAll(async () => {
  store?.destroy();
  await moto?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function runnerArgs(runId: string, client: number, endpoint: string, extra: string[] = []): string[] {
  return [
    "--plan",
    planFile,
    "--client-index",
    String(client),
    "--clients",
    "2",
    "--results",
    `s3://${BUCKET}/lab`,
    "--run-id",
    runId,
    "--db",
    "basic",
    "--s3-endpoint",
    endpoint,
    "--spool",
    join(dir, "spool", runId, `client-${client}`),
    "--barrier-timeout",
    "60",
    ...extra,
  ];
}

async function resultOf(
  runId: string,
  phase: { index: number; name: string },
  client: number,
): Promise<ResultDocument> {
  const body = await store.get(`runs/${runId}/phases/${phase.index}-${phase.name}/client-${client}/result.json`);
  if (!body) throw new Error(`no result for ${phase.name} client ${client}`);
  const checked = validateResultDocument(JSON.parse(body.toString("utf8")));
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
  return checked.value;
}

const measured = () => plan.phases.filter((p) => p.kind === "load" || p.kind === "workload");

async function expectEveryObject(runId: string): Promise<void> {
  const keys = new Set(await store.list(`runs/${runId}/`));
  for (const p of measured()) {
    for (const c of [0, 1]) {
      const d = `runs/${runId}/phases/${p.index}-${p.name}/client-${c}/`;
      for (const f of ["result.json", "stdout.txt", "stderr.txt"]) expect(keys, `${d}${f}`).toContain(`${d}${f}`);
      const doc = await resultOf(runId, p, c);
      expect(doc.hdrLogs.length).toBeGreaterThan(0);
      for (const h of doc.hdrLogs) expect(keys, h.uri).toContain(h.uri);
      // The document carries this client's histogram of each operation: every operation YCSB counted, no more.
      const counted = Object.entries(doc.result.operations).filter(([, o]) => o.count > 0);
      expect(Object.keys(doc.hdrHistograms ?? {}).sort()).toEqual(counted.map(([op]) => op).sort());
      for (const [op, o] of counted)
        expect(decodeHistogram(doc.hdrHistograms![op]!).totalCount, `${p.name} ${op}`).toBe(o.count);
    }
  }
  for (const p of [...plan.phases, { index: plan.phases.length, name: "end" }]) {
    for (const c of [0, 1]) expect(keys).toContain(`runs/${runId}/barriers/${p.index}-${p.name}/client-${c}.json`);
  }
  const manifest = JSON.parse((await store.get(`runs/${runId}/manifest.json`))!.toString("utf8")) as Manifest;
  expect(manifest.complete).toBe(true);
  expect(manifest.objects.filter((k) => k.endsWith("result.json"))).toHaveLength(measured().length * 2);
}

describe("runner: two clients in lock-step against moto", () => {
  it("the plan has the load, A and B at two thread counts", () => {
    expect(plan.phases.map((p) => p.name)).toEqual(["prepare", "load", "a-t1", "a-t4", "b-t1", "b-t4"]);
  });

  it("runs every phase on both clients together, stores every object, and loads every record exactly once", async () => {
    const runId = "lockstep-1";
    const runners = [0, 1].map((c) => startRunner(runnerArgs(runId, c, moto.endpoint)));
    const codes = await Promise.all(runners.map((r) => r.exit));
    expect(codes, runners.map((r) => r.output()).join("\n")).toEqual([0, 0]);
    await expectEveryObject(runId);
    // Each client keeps one local copy of what it uploaded, not YCSB's working files besides.
    for (const c of [0, 1]) {
      const spoolDir = join(dir, "spool", runId, `client-${c}`);
      expect(await readdir(join(spoolDir, "work")).catch(() => [])).toEqual([]);
      const load = plan.phases.find((p) => p.kind === "load")!;
      expect(
        (
          await readFile(
            join(spoolDir, "sent", "runs", runId, "phases", `${load.index}-${load.name}`, `client-${c}`, "result.json"),
          )
        ).length,
      ).toBeGreaterThan(0);
    }

    // Lock-step: no client starts phase k+1 before every client finished phase k (stored timestamps).
    const phases = measured();
    for (let i = 0; i + 1 < phases.length; i++) {
      const [now, next] = [phases[i]!, phases[i + 1]!];
      const finished = await Promise.all(
        [0, 1].map(async (c) => Date.parse((await resultOf(runId, now, c)).finishedAt)),
      );
      const started = await Promise.all(
        [0, 1].map(async (c) => Date.parse((await resultOf(runId, next, c)).startedAt)),
      );
      expect(
        Math.min(...started),
        `${next.name} started before ${now.name} ended on every client`,
      ).toBeGreaterThanOrEqual(Math.max(...finished));
    }

    // The load covered 0..recordcount-1 exactly once between the two clients.
    const load = plan.phases.find((p) => p.kind === "load")!;
    const docs = await Promise.all([0, 1].map((c) => resultOf(runId, load, c)));
    const ranges = docs
      .map((d) => [Number(d.phase.properties.insertstart), Number(d.phase.properties.insertcount)] as const)
      .sort((a, b) => a[0] - b[0]);
    expect(ranges[0]![0]).toBe(0);
    expect(ranges[0]![0] + ranges[0]![1]).toBe(ranges[1]![0]);
    expect(ranges[1]![0] + ranges[1]![1]).toBe(3001);
    expect(docs.reduce((s, d) => s + (d.result.operations.INSERT?.returns.OK ?? 0), 0)).toBe(3001);
    for (const d of docs) expect(d.validity.reasons.map((r) => r.code)).not.toContain("load-incomplete");
    // Workload operation counts are shared: 6000 in total per phase.
    const a1 = await Promise.all([0, 1].map((c) => resultOf(runId, phases[1]!, c)));
    expect(
      a1.reduce((s, d) => s + (d.result.operations.READ?.count ?? 0) + (d.result.operations.UPDATE?.count ?? 0), 0),
    ).toBe(6000);
    expect(new Set(a1.map((d) => d.run.startedAt)).size).toBe(1);
  });

  it("keeps results while S3 is down for part of the run and uploads them later", async () => {
    const runId = "s3-outage";
    const proxy = new FlakyProxy(moto.port);
    await proxy.up();
    const endpoint = `http://127.0.0.1:${proxy.port}`;
    const runners = [0, 1].map((c) => startRunner(runnerArgs(runId, c, endpoint)));
    await waitFor("client 0 in phase a-t1", 120_000, () => runners[0]!.output().includes("phase 2 a-t1: YCSB"));
    await proxy.down();
    // Down long enough for the spool to retry while S3 is still away: a second failed upload, then it comes back.
    const failures = () =>
      runners.reduce((n, r) => n + (r.output().match(/upload to s3:\/\/.* failed/g)?.length ?? 0), 0);
    await waitFor("an upload failure", 60_000, () => failures() >= 1);
    await waitFor("a failed retry while S3 is down", 60_000, () => failures() >= 2);
    await proxy.up();
    const codes = await Promise.all(runners.map((r) => r.exit));
    await proxy.down();
    expect(codes, runners.map((r) => r.output()).join("\n")).toEqual([0, 0]);
    await expectEveryObject(runId);
  });

  it("stops the waiting client with a clear reason when another never reaches the barrier", async () => {
    const runId = "lost-client";
    const runners = [0, 1].map((c) => startRunner(runnerArgs(runId, c, moto.endpoint, ["--barrier-timeout", "8"])));
    await waitFor("client 1 in phase a-t1", 120_000, () => runners[1]!.output().includes("phase 2 a-t1: YCSB"));
    killRunner(runners[1]!);
    const code = await runners[0]!.exit;
    expect(code, runners[0]!.output()).toBe(3);
    expect(runners[0]!.output()).toMatch(
      /barrier before phase 3 \(a-t4\): timed out after 8 s waiting for client\(s\) 1 \(arrived: 0\)/,
    );
    const manifest = JSON.parse((await store.get(`runs/${runId}/manifest.json`))!.toString("utf8")) as Manifest;
    expect(manifest.complete).toBe(false);
    expect(manifest.reason).toMatch(/client\(s\) 1/);
    // What client 0 measured before the stop is stored all the same.
    await resultOf(runId, plan.phases[2]!, 0);
  });

  it("a restarted client resumes after its last finished phase, and nothing is lost", async () => {
    const runId = "restart";
    const first = [0, 1].map((c) => startRunner(runnerArgs(runId, c, moto.endpoint)));
    await waitFor("client 1 in phase a-t4", 120_000, () => first[1]!.output().includes("phase 3 a-t4: YCSB"));
    killRunner(first[1]!);
    await first[1]!.exit;
    const state = JSON.parse(await readFile(join(dir, "spool", runId, "client-1", "state.json"), "utf8")) as {
      finished: Record<string, unknown>;
    };
    expect(Object.keys(state.finished)).toEqual(expect.arrayContaining(["0", "1", "2"]));
    const again = startRunner(runnerArgs(runId, 1, moto.endpoint));
    const codes = await Promise.all([first[0]!.exit, again.exit]);
    expect(codes, again.output()).toEqual([0, 0]);
    expect(again.output()).not.toMatch(/phase [012] \S+: YCSB/);
    expect(again.output()).toMatch(/phase 3 a-t4: YCSB/);
    await expectEveryObject(runId);
  });
});
