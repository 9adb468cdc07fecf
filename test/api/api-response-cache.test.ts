import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../api/build.js";
import { type Database, openDatabase } from "../../api/db/open.js";
import { loadReferenceData } from "../../api/store/reference-data.js";
import { auth, fixtureDocument, freshPostgresDatabase, testConfig } from "./api-helpers.js";

// Read answers are kept until the next write, and every write is seen at once, by this process and by another one.
describe.each(["pglite", "postgres"] as const)("response cache on %s", (kind) => {
  let url: string | undefined;
  let db: Database;
  let app: FastifyInstance;
  const post = (a: FastifyInstance, body: unknown) =>
    a.inject({ method: "POST", url: "/api/v1/results", payload: body as object, headers: auth });
  const total = async (a: FastifyInstance) => (await a.inject({ url: "/api/v1/runs" })).json().total as number;

  beforeAll(async () => {
    url = kind === "postgres" ? await freshPostgresDatabase("api_response_cache") : undefined;
    db = await openDatabase(url ? { databaseUrl: url } : {});
    app = await buildApp(testConfig(), { database: db, logLevel: "silent" });
    expect(
      (
        await post(
          app,
          [0, 1].map((c) => fixtureDocument({ runId: "cache-1", client: c as 0 | 1 })),
        )
      ).statusCode,
    ).toBe(201);
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  it("an answer is kept (a change behind the API's back is not seen) and revalidates with its ETag", async () => {
    const first = await app.inject({ url: "/api/v1/runs/cache-1" });
    expect(first.statusCode).toBe(200);
    await db.prisma.$executeRaw`UPDATE runs SET scenario = 'edited-by-hand' WHERE id = 'cache-1'`;
    const second = await app.inject({ url: "/api/v1/runs/cache-1" });
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe(first.headers.etag);
    const revalidated = await app.inject({
      url: "/api/v1/runs/cache-1",
      headers: { "if-none-match": String(first.headers.etag) },
    });
    expect(revalidated.statusCode).toBe(304);
  });

  it("a write drops only the answers it can change: its runs' pages and the views whose filters select its runs", async () => {
    const cacheOf = async (url: string) => (await app.inject({ url })).headers["x-cache"];
    const kept = [
      "/api/v1/runs/cache-1",
      "/api/v1/scaling?scenario=another-scenario",
      "/api/v1/sweeps?engine=hbase",
      "/api/v1/reference?seed=003",
      "/api/v1/durability?from=2030-01-01T00:00:00Z",
    ];
    const dropped = [
      "/api/v1/runs",
      "/api/v1/scaling?scenario=api-test",
      "/api/v1/sweeps?engine=cassandra&workload=a",
      "/api/v1/facets",
    ];
    for (const url of [...kept, ...dropped]) await app.inject({ url });
    for (const url of [...kept, ...dropped]) expect(await cacheOf(url), url).toBe("hit");
    const w = await post(app, fixtureDocument({ runId: "cache-3" }));
    expect(w.statusCode, w.body).toBe(201);
    for (const url of kept) expect(await cacheOf(url), url).toBe("hit");
    for (const url of dropped) expect(await cacheOf(url), url).toBe("miss");
    // The hand edit of cache-1 (another run than the write's) is still not seen: its page was kept.
    expect((await app.inject({ url: "/api/v1/runs/cache-1" })).json().run.scenario).not.toBe("edited-by-hand");
    expect((await app.inject({ method: "DELETE", url: "/api/v1/runs/cache-3", headers: auth })).statusCode).toBe(200);
  });

  it("equivalent queries with their parameters in another order (or spelled in NFD) are one answer", async () => {
    expect(
      (await app.inject({ url: "/api/v1/scaling?engine=cassandra&preset=balanced&nodes=3" })).headers["x-cache"],
    ).toBe("miss");
    expect(
      (await app.inject({ url: "/api/v1/scaling?nodes=3&preset=balanced&engine=cassandra" })).headers["x-cache"],
    ).toBe("hit");
    expect(
      (await app.inject({ url: `/api/v1/sweeps?scenario=${encodeURIComponent("café")}` })).headers["x-cache"],
    ).toBe("miss");
    expect(
      (await app.inject({ url: `/api/v1/sweeps?scenario=${encodeURIComponent("cafe\u0301")}` })).headers["x-cache"],
    ).toBe("hit");
  });

  it("every write is seen by the next read: ingest, quarantine, delete, reference load", async () => {
    const before = await total(app);
    expect((await post(app, fixtureDocument({ runId: "cache-2" }))).statusCode).toBe(201);
    expect(await total(app)).toBe(before + 1);
    // A write to cache-1 itself: the hand edit above is seen now, its page was computed again.
    expect(
      (
        await post(
          app,
          fixtureDocument({ runId: "cache-1", scenario: "edited-by-hand", phaseName: "b-t8", phaseIndex: 3 }),
        )
      ).statusCode,
    ).toBe(201);
    expect((await app.inject({ url: "/api/v1/runs/cache-1" })).json().run.scenario).toBe("edited-by-hand");

    await app.inject({
      method: "POST",
      url: "/api/v1/runs/cache-2/quarantine",
      payload: { reason: "cache test" },
      headers: auth,
    });
    expect((await app.inject({ url: "/api/v1/runs/cache-2" })).json().run.quarantine.reason).toBe("cache test");
    await app.inject({ method: "DELETE", url: "/api/v1/runs/cache-2", headers: auth });
    expect((await app.inject({ url: "/api/v1/runs/cache-2" })).statusCode).toBe(404);
    expect(await total(app)).toBe(before);

    const tables = (await app.inject({ url: "/api/v1/reference?seed=002" })).json().tables.length;
    await loadReferenceData(db.prisma, ["002"]);
    expect((await app.inject({ url: "/api/v1/reference?seed=002" })).json().tables.length).toBeGreaterThan(tables);
  });

  // Declared for Postgres only: a PGlite directory has one owner, so no other process writes it.
  if (kind === "postgres") {
    it("a write by another API process on the same Postgres is seen at once", async () => {
      const db2 = await openDatabase({ databaseUrl: url! });
      const app2 = await buildApp(testConfig(), { database: db2, logLevel: "silent" });
      try {
        const before = await total(app);
        expect((await post(app2, fixtureDocument({ runId: "cache-other-process" }))).statusCode).toBe(201);
        expect(await total(app)).toBe(before + 1);
      } finally {
        await app2.close();
        await db2.close();
      }
    });
  }
});
