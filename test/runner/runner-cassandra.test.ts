import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ycsbKey } from "../../engines/ycsb-keys.js";
import {
  type CapacityDecision,
  type CapacitySearch,
  capacityReportLines,
  type JudgedStep,
  judged,
  nextCapacityStep,
  type Plan,
  parseCapacityDecision,
  type ResultDocument,
  stepMeasurement,
  validateResultDocument,
} from "../../model/index.js";
import { capacityDecisionKey } from "../../model/results-layout.js";
import { LOCAL_RUN_NO_PRICE } from "../../model/run-cost.js";
import { capacityReports } from "../../runner/capacity-report.js";
import type { Manifest } from "../../runner/execute.js";
import { bindingClasspathDir, ycsbCoreDir } from "../../runner/java-artifacts.js";
import { queryCql } from "../../runner/local/cassandra-cql.js";
import { type LocalEngineState, nodeAlive, readState } from "../../runner/local/engine.js";
import { loadLocalEngine } from "../../runner/local/registry.js";
import { S3Store } from "../../runner/results-store-s3.js";
import { createBucket, REPO_ROOT, S3_ENV, startMoto, startRunner, TSX_IMPORT, waitFor } from "./runner-helpers.js";

/**
 * The runner against a real local Cassandra 5.0 (runner/local, scripts/setup-cassandra.sh) with moto as S3:
 * `ycsb-lab local run` with two runner processes in lock-step, a capacity search that finds a limit and stops, then
 * Cassandra killed in the middle of a phase.
 */
const run = promisify(execFile);
const BUCKET = "ycsb-lab-cassandra";
const RECORDS = 2501;

const scenarioYaml = (workloads: string, threads: string) => `
name: cassandra-small
title: Runner e2e against local Cassandra
sources: [{ note: "runner test" }]
engines: [cassandra]
nodeCounts: [1]
presets: [throughput]
dataNode: { instanceType: m6i.large, storage: { kind: ebs } }
clientNode: { instanceType: c6i.large }
clients: { count: 2 }
replication: 1
records: { total: ${RECORDS}, fieldCount: 10, fieldLengthBytes: 100 }
threads: ${threads}
workloads:
${workloads}
operationCountPer: total
repeats: 1
defaults: { engine: cassandra, nodes: 1, preset: throughput }
`;

/**
 * A search whose verdicts stay off the machine's speed: a stated maximum of 40,000 ops/s, far beyond what one YCSB
 * thread per client reaches against Cassandra on a 2-core machine (each read a round trip through the driver), so
 * every step at half of it or more falls short of its target; the first rung, 40 ops/s, is a trickle any machine
 * serves, judged against 1 s at p95 of intended latency, which only a stall of over a second holds back. A step breaks
 * below half its target (achievedShare 0.5): a 4 s step's YCSB runtime also counts the driver's shutdown, which would
 * put a trickle under the default 95 %.
 */
const CAPACITY: CapacitySearch = {
  slo: { operations: ["READ"], percentile: 95, limitMs: 1000, errorBudgetPct: 0 },
  maximumOpsSec: 40_000,
  fractions: [0.001, 1],
  resolutionOpsSec: 30_000,
  achievedShare: 0.5,
  maxSteps: 4,
};

let moto: Awaited<ReturnType<typeof startMoto>>;
let dir: string;
let store: S3Store;
let state: LocalEngineState;
let cql: { bindingDir: string; ycsbCoreDir: string };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "runner-cassandra-"));
  // Our own engine folder and loopback addresses: another suite's or a developer's Cassandra (on 127.0.0.1:9042)
  // is left alone, and there is no port to wait for.
  process.env.YCSB_LAB_LOCAL_DIR = join(dir, "engines");
  process.env.YCSB_LAB_LOOPBACK_PREFIX = "127.0.18";
  await run("bash", [join(REPO_ROOT, "scripts", "fetch-ycsb.sh")]);
  moto = await startMoto();
  await createBucket(moto.endpoint, BUCKET);
  store = new S3Store(BUCKET, "lab", { endpoint: moto.endpoint });
  cql = { bindingDir: await bindingClasspathDir("cassandra"), ycsbCoreDir: ycsbCoreDir() };
  const local = await loadLocalEngine("cassandra");
  state = await local.up({ nodes: 1, preset: "throughput", dataDir: join(dir, "engines", "cassandra") });
}, 1_200_000);

afterAll(async () => {
  const s = await readState("cassandra").catch(() => undefined);
  if (s) await (await loadLocalEngine("cassandra")).down(s);
  store?.destroy();
  await moto?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function resultOf(runId: string, key: string): Promise<ResultDocument> {
  const body = await store.get(key);
  if (!body) throw new Error(`missing ${key}`);
  const checked = validateResultDocument(JSON.parse(body.toString("utf8")));
  if (!checked.ok) throw new Error(`${key}: ${JSON.stringify(checked.errors)}`);
  return checked.value;
}

describe("runner + local Cassandra", () => {
  it("local run: two clients in lock-step load every record exactly once and store every object", async () => {
    const file = join(dir, "small.yaml");
    await writeFile(
      file,
      scenarioYaml(
        "  - { workload: a, operationCount: 3000, maxExecutionTimeSec: 60 }\n  - { workload: b, operationCount: 3000, maxExecutionTimeSec: 60 }",
        "{ sweep: [2, 4] }",
      ),
    );
    const runId = "cassandra-lockstep";
    const { stderr } = await run(
      process.execPath,
      [
        "--import",
        TSX_IMPORT,
        join(REPO_ROOT, "cli", "main.ts"),
        "local",
        "run",
        "--engine",
        "cassandra",
        "--scenario",
        file,
        "--clients",
        "2",
        "--results",
        `s3://${BUCKET}/lab`,
        "--s3-endpoint",
        moto.endpoint,
        "--run-id",
        runId,
        "--barrier-timeout",
        "120",
      ],
      { cwd: dir, env: { ...process.env, ...S3_ENV }, maxBuffer: 1 << 24 },
    );
    expect(stderr).toMatch(/run cassandra-lockstep: complete/);
    const plan = JSON.parse((await store.get(`runs/${runId}/plan.json`))!.toString("utf8")) as Plan;
    const measured = plan.phases.filter((p) => p.kind === "load" || p.kind === "workload");
    expect(measured.map((p) => p.name)).toEqual(["load", "a-t2", "a-t4", "b-t2", "b-t4"]);
    const keys = new Set(await store.list(`runs/${runId}/`));
    const docs: ResultDocument[][] = [];
    for (const p of measured) {
      const pair: ResultDocument[] = [];
      for (const c of [0, 1]) {
        const base = `runs/${runId}/phases/${p.index}-${p.name}/client-${c}/`;
        for (const f of ["result.json", "stdout.txt", "stderr.txt"]) expect(keys).toContain(`${base}${f}`);
        const doc = await resultOf(runId, `${base}result.json`);
        for (const h of doc.hdrLogs) expect(keys).toContain(h.uri);
        expect(doc.validity.reasons.map((r) => r.code)).not.toContain("errors");
        pair.push(doc);
      }
      docs.push(pair);
    }
    const manifest = JSON.parse((await store.get(`runs/${runId}/manifest.json`))!.toString("utf8")) as Manifest;
    expect(manifest.complete).toBe(true);
    // Lock-step, from the stored timestamps.
    for (let i = 0; i + 1 < docs.length; i++) {
      const ended = Math.max(...docs[i]!.map((d) => Date.parse(d.finishedAt)));
      const started = Math.min(...docs[i + 1]!.map((d) => Date.parse(d.startedAt)));
      expect(started).toBeGreaterThanOrEqual(ended);
    }
    // Counted in Cassandra: exactly the keys of records 0..RECORDS-1, and each inserted once.
    const rows = await queryCql({
      ...cql,
      hosts: state.nodes.map((n) => n.address),
      statements: ["SELECT y_id FROM ycsb.usertable"],
    });
    const stored = new Set(rows.map((r) => String(r.y_id)));
    expect(stored.size).toBe(RECORDS);
    for (let k = 0; k < RECORDS; k++) expect(stored.has(ycsbKey(k)), `record ${k}`).toBe(true);
    expect(docs[0]!.reduce((s, d) => s + (d.result.operations.INSERT?.returns.OK ?? 0), 0)).toBe(RECORDS);
  }, 420_000);

  it("a capacity search finds a limit and stops: the decided targets on both clients, why it ended, the outcome printed", async () => {
    const file = join(dir, "capacity.yaml");
    const workload = "  - { workload: c, maxExecutionTimeSec: 4 }";
    await writeFile(
      file,
      `${scenarioYaml(workload, "{ perClient: 1 }")}warmupSec: 1\ncapacity: ${JSON.stringify(CAPACITY)}\n`,
    );
    const runId = "cassandra-capacity";
    const { stderr } = await run(
      process.execPath,
      [
        "--import",
        TSX_IMPORT,
        join(REPO_ROOT, "cli", "main.ts"),
        "local",
        "run",
        "--engine",
        "cassandra",
        "--scenario",
        file,
        "--clients",
        "2",
        "--results",
        `s3://${BUCKET}/lab`,
        "--s3-endpoint",
        moto.endpoint,
        "--run-id",
        runId,
        "--barrier-timeout",
        "120",
      ],
      { cwd: dir, env: { ...process.env, ...S3_ENV }, maxBuffer: 1 << 24 },
    );
    expect(stderr).toMatch(/run cassandra-capacity: complete/);
    const plan = JSON.parse((await store.get(`runs/${runId}/plan.json`))!.toString("utf8")) as Plan;
    const steps = plan.phases.filter((p) => p.capacity);
    expect(steps).toHaveLength(CAPACITY.maxSteps);
    const decisions: CapacityDecision[] = [];
    const judgedSteps: JudgedStep[] = [];
    for (const p of steps) {
      const body = await store.get(capacityDecisionKey(runId, p.index, p.name));
      expect(body, `decision of ${p.name}`).toBeDefined();
      const d = parseCapacityDecision(body!.toString("utf8"), p.name);
      decisions.push(d);
      // Client 0 decided on the merged, stored results of the steps before, as the pure rule does.
      expect(d.decidedBy).toBe(0);
      const rule = nextCapacityStep(CAPACITY, judgedSteps);
      expect(rule).toEqual(d.run ? { run: true, role: d.role, target: d.target } : { run: false, reason: d.reason });
      if (!d.run) break;
      const docs = await Promise.all(
        [0, 1].map((c) => resultOf(runId, `runs/${runId}/phases/${p.index}-${p.name}/client-${c}/result.json`)),
      );
      for (const doc of docs) {
        // Both clients ran the decided target, open loop, and started once it was stored.
        expect(doc.phase.target).toBe(d.target);
        expect(doc.phase.properties["measurement.interval"]).toBe("both");
        expect(Date.parse(doc.startedAt)).toBeGreaterThanOrEqual(Date.parse(d.decidedAt));
        expect(doc.result.operations["Intended-READ"]?.count).toBeGreaterThan(0);
      }
      judgedSteps.push(judged(CAPACITY, p.capacity!.step, d.role!, stepMeasurement(CAPACITY, docs, d.target)));
    }
    const ladder = JSON.stringify(
      judgedSteps.map((st) => [st.target, st.achievedOpsSec, st.operations.READ, st.breaches]),
    );
    // 40 ops/s held (the one verdict a stall of over a second could turn), 40,000 and then 20,020 broke, and the
    // bracket left (40 to 20,020) is within the resolution: the search stopped with a planned step unused.
    expect(
      decisions.map((d) => [d.run, d.role, d.target]),
      ladder,
    ).toEqual([
      [true, "ladder", 40],
      [true, "ladder", 40_000],
      [true, "bisect", 20_020],
      [false, undefined, undefined],
    ]);
    expect(decisions[3]!.reason).toBe("resolution reached: 40 passes, 20020 breaks");
    const unused = steps[3]!;
    expect(await store.get(`runs/${runId}/phases/${unused.index}-${unused.name}/client-0/result.json`)).toBeUndefined();
    for (const c of [0, 1])
      expect(stderr).toContain(`[client ${c}] phase ${unused.index} ${unused.name}: skipped, capacity search done`);
    for (const st of judgedSteps.slice(1)) {
      expect(st.pass, ladder).toBe(false);
      expect(
        st.breaches.map((b) => b.kind),
        ladder,
      ).toContain("achieved");
    }

    // What local run printed is the search's result as the store holds it: held at 40, broke at 20,020, no price.
    const [report, ...others] = await capacityReports({ store, runId, plan }, "local");
    expect(others).toEqual([]);
    expect(report!.endedBecause).toBe(decisions[3]!.reason);
    expect(report!.result.heldStep).toBe(0);
    expect(report!.result.sustainableOpsSec).toBe(judgedSteps[0]!.achievedOpsSec);
    expect(report!.result.broke?.step).toBe(2);
    expect(report!.result.broke?.breaches.join("; ")).toMatch(/achieved \d+ ops\/s < 50% of target 20020/);
    expect(report!.result.price).toEqual({ priced: false, statement: LOCAL_RUN_NO_PRICE });
    expect(stderr).toContain(capacityReportLines(report!.result, report!.endedBecause).join("\n"));
  }, 300_000);

  it("Cassandra killed mid-phase: the phase is stored with an invalid verdict and its error counts", async () => {
    const file = join(dir, "long.yaml");
    await writeFile(file, scenarioYaml("  - { workload: a, maxExecutionTimeSec: 40 }", "{ perClient: 2 }"));
    const planFile = join(dir, "long-plan.json");
    await run(
      process.execPath,
      [
        "--import",
        TSX_IMPORT,
        join(REPO_ROOT, "cli", "main.ts"),
        "plan",
        "--scenario",
        file,
        "--format",
        "json",
        "-o",
        planFile,
      ],
      { cwd: REPO_ROOT },
    );
    const plan = JSON.parse(await readFile(planFile, "utf8")) as Plan;
    const runId = "cassandra-killed";
    const props = Object.entries((await loadLocalEngine("cassandra")).connectionProperties(state)).flatMap(([k, v]) => [
      "-p",
      `${k}=${v}`,
    ]);
    const runners = [0, 1].map((c) =>
      startRunner(
        [
          "--plan",
          planFile,
          "--client-index",
          String(c),
          "--clients",
          "2",
          "--results",
          `s3://${BUCKET}/lab`,
          "--run-id",
          runId,
          "--db",
          "io.ycsblab.bindings.cassandra.CassandraDB",
          "--classpath",
          join(cql.bindingDir, "*"),
          "--local-engine",
          "cassandra",
          "--s3-endpoint",
          moto.endpoint,
          "--spool",
          join(dir, "spool", runId, `client-${c}`),
          "--barrier-timeout",
          "120",
          ...props,
        ],
        { YCSB_LAB_LOCAL_DIR: process.env.YCSB_LAB_LOCAL_DIR! },
      ),
    );
    // Kill once both YCSB clients have reported operations in phase a (a status line every 10 s in the spool): at
    // about 10 s of 40, so most of the phase runs against a dead server and its failures pass the 1 % that makes a
    // phase invalid (runner/validity.ts MAX_ERROR_RATE). Waiting for two lines (20 s of 25) left a loaded machine
    // killing it with seconds to go: failures under 1 %, a warning.
    const a = plan.phases.find((p) => p.kind === "workload")!;
    const doingWork = async (c: number) =>
      ((
        await readFile(
          join(dir, "spool", runId, `client-${c}`, "work", `${a.index}-${a.name}`, "stderr.txt"),
          "utf8",
        ).catch(() => "")
      ).match(/\d+ sec: [1-9]\d* operations/g)?.length ?? 0) >= 1;
    await waitFor(
      "workload a running on both clients",
      240_000,
      async () => (await doingWork(0)) && (await doingWork(1)),
    );
    for (const n of state.nodes) {
      expect(await nodeAlive(n), `node ${n.index} runs before the kill`).toBe(true);
      for (const p of n.processes) process.kill(p.pid, "SIGKILL");
    }
    const codes = await Promise.all(runners.map((r) => r.exit));
    expect(codes, runners.map((r) => r.output()).join("\n")).toEqual([0, 0]);
    for (const c of [0, 1]) {
      const doc = await resultOf(runId, `runs/${runId}/phases/${a.index}-${a.name}/client-${c}/result.json`);
      expect(doc.validity.verdict).toBe("invalid");
      const errors = doc.validity.reasons.find((r) => r.code === "errors");
      expect(errors, JSON.stringify(doc.validity)).toBeDefined();
      const failed = Object.values(doc.result.operations).reduce(
        (s, o) =>
          s +
          Object.entries(o.returns)
            .filter(([k]) => k !== "OK")
            .reduce((t, [, n]) => t + n, 0),
        0,
      );
      expect(
        failed,
        JSON.stringify({ validity: doc.validity, ops: doc.result.operations, warnings: doc.result.warnings }).slice(
          0,
          3000,
        ),
      ).toBeGreaterThan(0);
    }
    const manifest = JSON.parse((await store.get(`runs/${runId}/manifest.json`))!.toString("utf8")) as Manifest;
    expect(manifest.complete).toBe(true);
  }, 420_000);
});
