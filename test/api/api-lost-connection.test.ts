import { execFileSync } from "node:child_process";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../api/build.js";
import { retryReadsOnLostConnection } from "../../api/db/lost-connection.js";
import { type Database, openDatabase } from "../../api/db/open.js";
import { auth, fixtureDocument, freshPostgresDatabase, testConfig } from "./api-helpers.js";

/**
 * Ends every other connection to the test's database and returns once each backend has exited, while this process's
 * event loop is held (a child process run synchronously): the pool cannot have seen the end of its idle connections
 * yet, as a request arriving right after a failover or an administrator's pg_terminate_backend finds them.
 */
function endIdleConnectionsUnseen(url: string): void {
  const others = "datname = current_database() AND pid <> pg_backend_pid()";
  execFileSync(
    "psql",
    [
      url,
      "-v",
      "ON_ERROR_STOP=1",
      "-qAtc",
      `DO $$ BEGIN
         PERFORM pg_terminate_backend(pid) FROM pg_stat_activity WHERE ${others};
         LOOP
           PERFORM pg_stat_clear_snapshot();
           EXIT WHEN NOT EXISTS (SELECT 1 FROM pg_stat_activity WHERE ${others});
           PERFORM pg_sleep(0.01);
         END LOOP;
       END $$`,
    ],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
}

// The server ends the pool's idle connections (an RDS failover or maintenance, a restart, pg_terminate_backend): the
// next requests find them in the pool before their end is seen. Reads are answered on new connections, a write's
// transaction is begun on another; a statement that may have written is not sent twice.
describe("the pool's idle connections ended by the server", () => {
  let url: string;
  let db: Database;
  let app: FastifyInstance;

  beforeAll(async () => {
    url = await freshPostgresDatabase("api_lost_conn");
    db = await openDatabase({ databaseUrl: url, poolSize: 4 });
    app = await buildApp(testConfig({ responseCache: false }), { database: db, logLevel: "silent" });
    const stored = await app.inject({
      method: "POST",
      url: "/api/v1/results",
      payload: fixtureDocument({ runId: "before-the-end" }),
      headers: auth,
    });
    expect(stored.statusCode).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  it("answers /health and every read with 200, not 503, on the first request after", async () => {
    const routes = ["/health", "/api/v1/runs?limit=7", "/api/v1/runs/before-the-end", "/api/v1/scaling"];
    for (const route of routes) expect((await app.inject({ url: route })).statusCode, route).toBe(200);
    for (const route of routes) {
      // Each request first: every idle connection of both pools (the API's and /health's) is a dead one.
      endIdleConnectionsUnseen(url);
      const answer = await app.inject({ url: route });
      expect({ route, status: answer.statusCode }).toEqual({ route, status: 200 });
    }
    // Prisma's own query API, on the same pool.
    endIdleConnectionsUnseen(url);
    expect(await db.prisma.run.count()).toBe(1);
  });

  it("begins a write's transaction again on another connection: the POST is stored once and answered 201", async () => {
    // Every idle connection of the pool is a dead one when the write takes one for its BEGIN: nothing was sent yet.
    // (Reads first, so the pool holds idle connections whatever ran before.)
    await Promise.all([1, 2, 3].map(() => db.prisma.run.count()));
    endIdleConnectionsUnseen(url);
    const post = await app.inject({
      method: "POST",
      url: "/api/v1/results",
      payload: fixtureDocument({ runId: "after-the-end" }),
      headers: auth,
    });
    expect(post.statusCode, post.body).toBe(201);
    expect(post.json()).toMatchObject({ created: 1, duplicates: 0 });
    expect(await db.prisma.clientResult.count({ where: { runId: "after-the-end" } })).toBe(1);
  });

  it("does not send a write again: it fails as before, and whether it reached the server is not guessed", async () => {
    const pool = retryReadsOnLostConnection(new pg.Pool({ connectionString: url, max: 1 }));
    pool.on("error", () => {});
    try {
      await pool.query("CREATE TABLE IF NOT EXISTS lost_writes (n int)");
      // Sent again on a new connection, the insert would succeed: the table stays empty only if it is not.
      endIdleConnectionsUnseen(url);
      await expect(pool.query("INSERT INTO lost_writes VALUES (1)")).rejects.toThrow(/terminat/i);
      expect((await pool.query("SELECT count(*)::int AS n FROM lost_writes")).rows[0].n).toBe(0);
      // A read on a dead connection of the same pool is answered.
      endIdleConnectionsUnseen(url);
      expect((await pool.query("SELECT count(*)::int AS n FROM lost_writes")).rows[0].n).toBe(0);
    } finally {
      await pool.end();
    }
  });
});
