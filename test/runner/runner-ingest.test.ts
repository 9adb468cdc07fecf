import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../api/build.js";
import { type Database, openDatabase } from "../../api/db/open.js";
import { buildPlan, scenario } from "../../model/index.js";
import { passiveActions } from "../../runner/engine-actions.js";
import { executePlan } from "../../runner/execute.js";
import { ingestRun } from "../../runner/ingest.js";
import { FolderStore } from "../../runner/results-store.js";
import { basicDbSetup } from "../../runner/ycsb-setup.js";
import { TOKEN, testConfig } from "../api/api-helpers.js";
import { REPO_ROOT } from "./runner-helpers.js";

/** What the runner stores is what the results API accepts: a real run (BasicDB) ingested over HTTP into PGlite. */
const run = promisify(execFile);
let dir: string;
let db: Database;
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  await run("bash", [join(REPO_ROOT, "scripts", "fetch-ycsb.sh")]);
  dir = await mkdtemp(join(tmpdir(), "runner-ingest-"));
  db = await openDatabase({});
  app = await buildApp(testConfig(), { database: db, logLevel: (process.env.API_LOG ?? "silent") as "silent" });
  base = await app.listen({ host: "127.0.0.1", port: 0 });
});
afterAll(async () => {
  await app?.close();
  await db?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("runner -> results API", () => {
  it("every result document of a run is accepted and stored once", async () => {
    const spec = {
      ...scenario("quickstart"),
      records: { total: 500, fieldCount: 10, fieldLengthBytes: 100 },
      workloads: [
        { workload: "a", operationCount: 1000 },
        { workload: "b", operationCount: 1000 },
      ],
    };
    const plan = buildPlan(spec);
    const store = new FolderStore(join(dir, "store"));
    const outcome = await executePlan({
      plan,
      runId: "ingest-1",
      clientIndex: 0,
      store,
      spoolDir: join(dir, "spool"),
      ycsb: await basicDbSetup(),
      actions: passiveActions("none"),
      barrierTimeoutMs: 60_000,
      ycsbLabVersion: "test",
      standIn: "site.ycsb.BasicDB: no database",
    });
    expect(outcome.complete).toBe(true);
    const first = await ingestRun(base, store, "ingest-1", TOKEN);
    expect(first).toEqual({ sent: 3, created: 3, duplicates: 0 });
    expect(await ingestRun(base, store, "ingest-1", TOKEN)).toEqual({ sent: 3, created: 0, duplicates: 3 });
    expect(await db.prisma.clientResult.count({ where: { runId: "ingest-1" } })).toBe(3);
    await expect(ingestRun(base, store, "ingest-1", "wrong-token")).rejects.toThrow(
      /refused run ingest-1's documents \(401\)/,
    );
  });

  it("a real 3-repeat run posted over HTTP: every repeat stored, read back as mean, CI and n = 3", async () => {
    const spec = {
      ...scenario("quickstart"),
      name: "posted-repeats",
      repeats: 3,
      records: { total: 500, fieldCount: 10, fieldLengthBytes: 100 },
      workloads: [{ workload: "a", operationCount: 2000 }],
    };
    const plan = buildPlan(spec);
    const store = new FolderStore(join(dir, "store-repeats"));
    const outcome = await executePlan({
      plan,
      runId: "posted-repeats-1",
      clientIndex: 0,
      store,
      spoolDir: join(dir, "spool-repeats"),
      ycsb: await basicDbSetup(),
      actions: passiveActions("none"),
      barrierTimeoutMs: 60_000,
      ycsbLabVersion: "test",
      standIn: "site.ycsb.BasicDB: no database",
    });
    expect(outcome.complete).toBe(true);
    expect(await ingestRun(base, store, "posted-repeats-1", TOKEN)).toEqual({ sent: 4, created: 4, duplicates: 0 });
    const r = await fetch(`${base}/api/v1/durability?scenario=posted-repeats`);
    const { rows } = (await r.json()) as {
      rows: { throughputOpsSec: number; throughput: { n: number; mean: number; ci95: { halfWidth: number } | null } }[];
    };
    expect(rows).toHaveLength(1);
    expect(rows[0]!.throughput.n).toBe(3);
    const sums = (
      await db.prisma.phase.findMany({
        where: { runId: "posted-repeats-1", kind: "workload" },
        select: { throughputSum: true },
      })
    ).map((p) => p.throughputSum);
    expect(rows[0]!.throughputOpsSec).toBeCloseTo(sums.reduce((a, b) => a + b, 0) / 3, 6);
    expect(rows[0]!.throughput.ci95).not.toBeNull();
  });
});
