import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateBucketCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../api/build.js";
import { type Database, openDatabase } from "../../api/db/open.js";
import { mergeHdrLogs } from "../../model/hdr/index.js";
import { buildPlan, scenario } from "../../model/index.js";
import { hdrLogKey, manifestKey, resultKey, stderrKey, stdoutKey, withPrefix } from "../../model/results-layout.js";
import { passiveActions } from "../../runner/engine-actions.js";
import { executePlan } from "../../runner/execute.js";
import { S3Store } from "../../runner/results-store-s3.js";
import { basicDbSetup } from "../../runner/ycsb-setup.js";
import { auth, fixtureDocument, fixtureHdr, ROOT, testConfig } from "./api-helpers.js";

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url: string, ms: number) {
  const until = Date.now() + ms;
  for (;;) {
    try {
      await fetch(url);
      return;
    } catch {
      if (Date.now() > until) throw new Error(`moto_server did not answer at ${url}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

const OPS = ["READ", "UPDATE", "CLEANUP"];
const RUN = "s3-run-1";
const PHASE = { index: 2, name: "a-t4" };

describe("POST /ingest/s3 against moto", () => {
  let moto: ChildProcess;
  let endpoint: string;
  let s3: S3Client;
  let db: Database;
  let app: FastifyInstance;
  const bucket = "ycsb-results";
  const prefix = "lab/2026";

  beforeAll(async () => {
    // Credentials from the environment keep the SDK from asking any metadata service (loopback only).
    process.env.AWS_ACCESS_KEY_ID = "test";
    process.env.AWS_SECRET_ACCESS_KEY = "test";
    const port = await freePort();
    endpoint = `http://127.0.0.1:${port}`;
    moto = spawn("moto_server", ["-H", "127.0.0.1", "-p", String(port)], { stdio: "ignore" });
    await waitForHttp(endpoint, 30_000);
    s3 = new S3Client({ region: "us-east-1", endpoint, forcePathStyle: true });
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
    // The runner's layout, with the real two-client run's outputs and HDR logs (V2).
    const put = (key: string, body: string) =>
      s3.send(new PutObjectCommand({ Bucket: bucket, Key: withPrefix(prefix, key), Body: body }));
    for (const c of [0, 1] as const) {
      await put(
        resultKey(RUN, PHASE.index, PHASE.name, c),
        JSON.stringify(fixtureDocument({ runId: RUN, client: c, phaseIndex: PHASE.index, phaseName: PHASE.name })),
      );
      await put(
        stdoutKey(RUN, PHASE.index, PHASE.name, c),
        readFileSync(`${ROOT}test/fixtures/ycsb/hdr-v2/client-${c}/stdout.txt`, "utf8"),
      );
      await put(
        stderrKey(RUN, PHASE.index, PHASE.name, c),
        readFileSync(`${ROOT}test/fixtures/ycsb/hdr-v2/client-${c}/stderr.txt`, "utf8"),
      );
      for (const op of OPS) await put(hdrLogKey(RUN, PHASE.index, PHASE.name, c, op), fixtureHdr("hdr-v2", c, op));
    }
    await put(manifestKey(RUN), JSON.stringify({ runId: RUN, complete: true }));
    await put("runs/s3-run-1/plan.json", "{}");
    db = await openDatabase({});
    app = await buildApp(testConfig({ s3: { region: "us-east-1", endpoint } }), { database: db, logLevel: "silent" });
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
    s3?.destroy();
    // Waited for: on a busy machine moto_server outlived a bare kill() and the teardown counted it as left running.
    if (moto && moto.exitCode === null && moto.signalCode === null) {
      const exited = new Promise((resolve) => moto.once("exit", resolve));
      moto.kill();
      await exited;
    }
  });

  const ingest = (body: object) =>
    app.inject({ method: "POST", url: "/api/v1/ingest/s3", payload: body, headers: auth });

  it("imports every result of the run once, and nothing the second time", async () => {
    const r = await ingest({ bucket, prefix });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ imported: 2, created: 2, unchanged: 0, invalid: [], conflicts: [], runs: [RUN] });
    const again = await ingest({ bucket, prefix });
    expect(again.json()).toMatchObject({ imported: 0, created: 0, unchanged: 2 });
    expect(await db.prisma.clientResult.count({ where: { runId: RUN } })).toBe(2);
  });

  it("phase percentiles come from the merged HDR logs of both clients", async () => {
    const r = await app.inject({ url: `/api/v1/runs/${RUN}` });
    expect(r.statusCode).toBe(200);
    const read = r.json().phases[0].aggregate.operations.READ;
    expect(read.percentileMethod).toBe("merged-hdr");
    const merged = mergeHdrLogs(
      [0, 1].map((c) => ({ client: `client-${c}`, operation: "READ", text: fixtureHdr("hdr-v2", c as 0 | 1, "READ") })),
      { percentiles: [50, 95, 99, 99.9] },
    );
    for (const p of ["50", "95", "99", "99.9"])
      expect(read.percentilesUs[p]).toBe(merged.operations.READ!.percentilesUs[p]);
    // And it is not the average of the clients' own p99s (what the seeds did).
    const docs = [0, 1].map((c) => fixtureDocument({ runId: RUN, client: c as 0 | 1 }));
    const avgOfP99 =
      (docs[0]!.result.operations.READ!.percentilesUs["99"]! + docs[1]!.result.operations.READ!.percentilesUs["99"]!) /
      2;
    expect(read.percentilesUs["99"]).not.toBe(avgOfP99);
  });

  it("a changed object (new ETag) is looked at again and reported as a conflict, never overwritten", async () => {
    const doc = fixtureDocument({ runId: RUN, client: 0, phaseIndex: PHASE.index, phaseName: PHASE.name });
    doc.result.overall.throughputOpsSec += 1;
    const key = withPrefix(prefix, resultKey(RUN, PHASE.index, PHASE.name, 0));
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: JSON.stringify(doc) }));
    const r = await ingest({ bucket, prefix });
    expect(r.json()).toMatchObject({ imported: 1, created: 0, conflicts: [{ key }] });
    const stored = await db.prisma.clientResult.findFirst({ where: { runId: RUN, clientIndex: 0 } });
    expect(stored?.throughputOpsSec).toBe(doc.result.overall.throughputOpsSec - 1);
  });

  it("an invalid object is reported with its field and not stored", async () => {
    const doc = fixtureDocument({ runId: "s3-run-bad", client: 0 }) as unknown as { run: { nodes: unknown } };
    doc.run.nodes = "three";
    await s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: withPrefix(prefix, resultKey("s3-run-bad", 0, "load", 0)),
        Body: JSON.stringify(doc),
      }),
    );
    const r = await ingest({ bucket, prefix, runId: "s3-run-bad" });
    expect(r.json().invalid[0].errors[0].path).toBe("/run/nodes");
    expect(await db.prisma.run.count({ where: { id: "s3-run-bad" } })).toBe(0);
  });

  it("the poller (S3_POLL_BUCKET) imports what the bucket holds, then each new run, each object once", async () => {
    const pollPrefix = "poll/2026";
    const putRun = async (runId: string) => {
      for (const c of [0, 1] as const) {
        const doc = fixtureDocument({ runId, client: c, phaseIndex: PHASE.index, phaseName: PHASE.name });
        await s3.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: withPrefix(pollPrefix, resultKey(runId, PHASE.index, PHASE.name, c)),
            Body: JSON.stringify(doc),
          }),
        );
      }
    };
    await putRun("poll-run-1");
    const pollDb = await openDatabase({});
    const pollApp = await buildApp(
      testConfig({ s3: { region: "us-east-1", endpoint, poll: { bucket, prefix: pollPrefix, seconds: 1 } } }),
      { database: pollDb, logLevel: "silent" },
    );
    try {
      await pollApp.ready();
      const clients = (runId: string) => pollDb.prisma.clientResult.count({ where: { runId } });
      const until = async (what: () => Promise<boolean>, ms: number) => {
        for (const end = Date.now() + ms; !(await what()); ) {
          if (Date.now() > end) return false;
          await new Promise((r) => setTimeout(r, 250));
        }
        return true;
      };
      expect(await until(async () => (await clients("poll-run-1")) === 2, 15_000)).toBe(true);
      await putRun("poll-run-2");
      expect(await until(async () => (await clients("poll-run-2")) === 2, 20_000)).toBe(true);
      // Later ticks find nothing new: still one row per client, and nothing outside the prefix came in.
      const seen = pollApp.s3Polls.completed;
      expect(await until(async () => pollApp.s3Polls.completed >= seen + 2, 20_000)).toBe(true);
      expect(await pollDb.prisma.clientResult.count()).toBe(4);
      expect(await pollDb.prisma.run.count({ where: { id: RUN } })).toBe(0);
    } finally {
      await pollApp.close();
      await pollDb.close();
    }
  }, 300_000);

  it("a real 3-repeat run written to S3 by the runner is imported whole and read back as mean, CI and n = 3", async () => {
    // Real YCSB 0.17.0 (site.ycsb.BasicDB), the runner's own S3 store on moto, three repeats of workload A.
    const dir = await mkdtemp(join(tmpdir(), "s3-repeats-"));
    try {
      const spec = {
        ...scenario("quickstart"),
        name: "s3-repeats",
        repeats: 3,
        records: { total: 500, fieldCount: 10, fieldLengthBytes: 100 },
        workloads: [{ workload: "a", operationCount: 2_000 }],
      };
      const plan = buildPlan(spec);
      const store = new S3Store(bucket, "repeats/2026", { endpoint });
      const outcome = await executePlan({
        plan,
        runId: "s3-repeats-1",
        clientIndex: 0,
        store,
        spoolDir: join(dir, "spool"),
        ycsb: await basicDbSetup(),
        actions: passiveActions("none (site.ycsb.BasicDB)"),
        barrierTimeoutMs: 60_000,
        ycsbLabVersion: "test",
        standIn: "site.ycsb.BasicDB: no database",
      });
      expect(outcome.complete).toBe(true);
      const r = await ingest({ bucket, prefix: "repeats/2026" });
      expect(r.statusCode, r.body).toBe(200);
      // load + three repeats of a: every result stored, none refused as a conflicting repeat.
      expect(r.json()).toMatchObject({ imported: 4, created: 4, conflicts: [], invalid: [], runs: ["s3-repeats-1"] });
      const stored = await db.prisma.phase.findMany({
        where: { runId: "s3-repeats-1", kind: "workload" },
        orderBy: { index: "asc" },
        select: { name: true, repeat: true, throughputSum: true },
      });
      expect(stored.map((p) => [p.name, p.repeat])).toEqual([
        ["a-r0", 0],
        ["a-r1", 1],
        ["a-r2", 2],
      ]);
      const scaling = await app.inject({ url: "/api/v1/scaling?scenario=s3-repeats&workload=a" });
      expect(scaling.statusCode, scaling.body).toBe(200);
      const point = scaling.json().series[0].points[0];
      const values = stored.map((p) => p.throughputSum);
      const mean = values.reduce((a, b) => a + b, 0) / 3;
      const sd = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / 2);
      expect(point.throughput.n).toBe(3);
      expect(point.throughputOpsSec).toBeCloseTo(mean, 6);
      expect(point.throughput.ci95.halfWidth).toBeCloseTo((4.303 * sd) / Math.sqrt(3), 6);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);

  it("needs the token and a valid bucket name", async () => {
    expect((await app.inject({ method: "POST", url: "/api/v1/ingest/s3", payload: { bucket } })).statusCode).toBe(401);
    const bad = await ingest({ bucket: "UPPER_case!" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields[0].path).toBe("/bucket");
  });
});
