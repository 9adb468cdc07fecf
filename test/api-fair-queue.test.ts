import type { FastifyInstance } from "fastify";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../api/build.js";
import { FairQueue, laneOf } from "../api/db/fair-queue.js";
import { openDatabase, type Database } from "../api/db/open.js";
import { ingestDocuments } from "../api/store/ingest.js";
import { auth, fixtureDocument, freshPostgresDatabase, testConfig } from "./api-helpers.js";
import { waitFor } from "./runner-helpers.js";

// A POST waited 34.5 s behind 16 viewers' reads on PGlite (one connection, first come first served): readers and
// writers take turns instead (api/db/fair-queue.ts).
describe("readers and writers take turns on PGlite's one connection", () => {
  it("a write queued behind reads runs after the read running and before the reads waiting; reads are not starved", async () => {
    const queue = new FairQueue();
    const order: string[] = [];
    let release!: () => void;
    const blocked = new Promise<void>((r) => (release = r));
    const task = (name: string, wait?: Promise<void>) => async () => {
      await wait;
      order.push(name);
    };
    const done = [queue.run("read", task("r0", blocked)), ...[1, 2, 3, 4, 5].map((i) => queue.run("read", task(`r${i}`))), queue.run("write", task("w1")), queue.run("write", task("w2"))];
    expect(queue.pending).toEqual({ read: 5, write: 2 });
    release();
    await Promise.all(done);
    expect(order).toEqual(["r0", "w1", "r1", "w2", "r2", "r3", "r4", "r5"]);
  });

  it("a failing task passes its error on and the queue moves on", async () => {
    const queue = new FairQueue();
    const failed = queue.run("write", async () => {
      throw new Error("boom");
    });
    const after = queue.run("read", async () => "ok");
    await expect(failed).rejects.toThrow("boom");
    await expect(after).resolves.toBe("ok");
  });

  it("statements that only read are reads; everything else is a write", () => {
    expect(laneOf('SELECT "id" FROM "runs"')).toBe("read");
    expect(laneOf("  with x as (select 1) select * from x")).toBe("write");
    expect(laneOf("UPDATE data_version SET version = version + 1")).toBe("write");
    expect(laneOf("ANALYZE")).toBe("write");
  });

  describe("on a PGlite store", () => {
    let db: Database;
    beforeAll(async () => {
      db = await openDatabase({});
      // The ingest's one-time probe (lz4 support) out of the way: the batch is then one transaction.
      await ingestDocuments(db.prisma, [fixtureDocument({ runId: "warm", client: 0 })]);
    });
    afterAll(async () => {
      await db?.close();
    });

    it("an ingest issued after ten slow reads is stored before eight of them have answered", async () => {
      const finished: string[] = [];
      const reads = Array.from({ length: 10 }, (_, i) =>
        db.prisma.$queryRawUnsafe("SELECT count(*)::int AS n FROM generate_series(1, 1000000)").then(() => void finished.push(`read ${i}`)),
      );
      const write = ingestDocuments(db.prisma, [0, 1].map((c) => fixtureDocument({ runId: "behind-readers", client: c as 0 | 1 }))).then((r) => {
        finished.push("write");
        return r;
      });
      const [outcomes] = await Promise.all([write, ...reads]);
      expect(outcomes.map((o) => o.status)).toEqual(["created", "created"]);
      expect(finished.length).toBe(11);
      expect(finished.length - 1 - finished.indexOf("write"), finished.join(", ")).toBeGreaterThanOrEqual(8);
    });
  });
});

// One writer beside sixteen viewers on Postgres (issue 28): sixteen cold views took every pool connection, and the
// writer's POST waited for one until the pool's deadline, answering 503 "database unavailable" on a healthy database.
// Views that compute their answer take turns (api/plugins/app/compute-gate.ts), leaving connections to writes.
describe("a writer beside sixteen viewers whose views are stuck in the database (Postgres)", () => {
  let db: Database;
  let app: FastifyInstance;
  let admin: pg.Client;
  let url: string;
  beforeAll(async () => {
    url = await freshPostgresDatabase("api_fair_queue");
    db = await openDatabase({ databaseUrl: url });
    app = await buildApp(testConfig(), { database: db, logLevel: "silent" });
    const docs = [0, 1].map((c) => fixtureDocument({ runId: "viewed", client: c as 0 | 1 }));
    expect((await app.inject({ method: "POST", url: "/api/v1/results", payload: docs, headers: auth })).statusCode).toBe(201);
    // The kept groups settled: the views below go straight to the table they read.
    expect((await app.inject({ url: "/api/v1/sweeps" })).statusCode).toBe(200);
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
  }, 60_000);
  afterAll(async () => {
    await admin?.end();
    await app?.close();
    await db?.close();
  });

  it("the writer's POST is stored (201) and /health answers while sixteen cold views wait on a table lock", async () => {
    // Every view's query waits on this lock, holding its connection, until the lock goes: a database made slow.
    await admin.query("BEGIN");
    await admin.query("LOCK TABLE configuration_aggregates IN ACCESS EXCLUSIVE MODE");
    const answered: number[] = [];
    const views = Array.from({ length: 16 }, (_, i) =>
      app.inject({ url: `/api/v1/sweeps?scenario=viewer-${i}` }).then((r) => (answered.push(r.statusCode), r.statusCode)),
    );
    const waiting = async () => {
      const { rows } = await admin.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      );
      return rows[0].n as number;
    };
    await waitFor("the views to wait on the lock", 30_000, async () => (await waiting()) >= 3);
    const docs = [0, 1].map((c) => fixtureDocument({ runId: "written-beside-viewers", client: c as 0 | 1 }));
    const post = await app.inject({ method: "POST", url: "/api/v1/results", payload: docs, headers: auth });
    const health = await app.inject({ url: "/health" });
    const stuck = answered.length;
    await admin.query("COMMIT");
    const statuses = await Promise.all(views);
    expect(post.statusCode, post.body).toBe(201);
    expect(health.statusCode, health.body).toBe(200);
    // The views were stuck while the writer was stored, and each answers once the lock goes: none is refused.
    expect(stuck).toBe(0);
    expect(statuses).toEqual(Array(16).fill(200));
  }, 60_000);
});
