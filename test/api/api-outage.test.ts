import type { FastifyInstance } from "fastify";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../api/build.js";
import { type Database, openDatabase } from "../../api/db/open.js";
import { FlakyProxy, waitFor } from "../runner/runner-helpers.js";
import { auth, fixtureDocument, freshPostgresDatabase, testConfig } from "./api-helpers.js";

// The database goes away (a Postgres restart, a network cut): /health says so and every request answers 503 with
// Retry-After, not 500; when it is back, everything answers again without a restart of the service.
describe("database outage on Postgres", () => {
  let db: Database;
  let app: FastifyInstance;
  let proxy: FlakyProxy;
  let proxyDown = false;

  beforeAll(async () => {
    const url = new URL(await freshPostgresDatabase("api_outage"));
    proxy = new FlakyProxy(Number(url.port));
    await proxy.up();
    url.port = String(proxy.port);
    db = await openDatabase({ databaseUrl: url.toString(), poolSize: 2 });
    app = await buildApp(testConfig(), { database: db, logLevel: "silent" });
    expect(
      (
        await app.inject({
          method: "POST",
          url: "/api/v1/results",
          payload: fixtureDocument({ runId: "before-outage" }),
          headers: auth,
        })
      ).statusCode,
    ).toBe(201);
  });
  afterAll(async () => {
    if (proxyDown) await proxy.up();
    await app?.close();
    await db?.close();
    await proxy?.down();
  });

  it("health checks the database: 200 while it answers, 503 while it is gone, 200 again after", async () => {
    const up = await app.inject({ url: "/health" });
    expect(up.statusCode).toBe(200);
    expect(up.json()).toMatchObject({ ok: true, database: "postgres" });

    await proxy.down();
    proxyDown = true;
    const down = await app.inject({ url: "/health" });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ ok: false, database: "postgres" });
    for (const req of [
      { url: "/api/v1/runs" },
      { url: "/api/v1/runs/before-outage" },
      { url: "/api/v1/scaling" },
      {
        method: "POST" as const,
        url: "/api/v1/results",
        payload: fixtureDocument({ runId: "during-outage" }),
        headers: auth,
      },
    ]) {
      const r = await app.inject(req);
      expect(r.statusCode, `${req.url}: ${r.body}`).toBe(503);
      expect(r.headers["retry-after"]).toBeDefined();
      expect(r.json().message).toMatch(/database/i);
    }

    await proxy.up();
    proxyDown = false;
    expect((await app.inject({ url: "/health" })).statusCode).toBe(200);
    expect((await app.inject({ url: "/api/v1/runs/before-outage" })).statusCode).toBe(200);
  }, 300_000);

  it("a request that gets no pool connection in time (every one busy) is 503 with Retry-After, not 500", async () => {
    const url = await freshPostgresDatabase("api_outage_busy");
    const busy = await openDatabase({ databaseUrl: url, poolSize: 1 });
    const busyApp = await buildApp(testConfig({ responseCache: false }), { database: busy, logLevel: "silent" });
    const watcher = new pg.Client({ connectionString: url });
    await watcher.connect();
    try {
      // The pool's one connection held for longer than the pool's connection deadline (api/db/open.ts: 5 s).
      const holder = busy.prisma.$queryRawUnsafe("SELECT pg_sleep(8) IS NULL AS slept").then(() => undefined);
      await waitFor("the pool's connection to be busy", 30_000, async () => {
        const { rows } = await watcher.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(8)%' AND state = 'active'",
        );
        return rows[0].n > 0;
      });
      const r = await busyApp.inject({ url: "/api/v1/runs" });
      expect(r.statusCode, r.body).toBe(503);
      expect(r.headers["retry-after"]).toBeDefined();
      await holder;
    } finally {
      await watcher.end();
      await busyApp.close();
      await busy.close();
    }
  }, 300_000);
});
