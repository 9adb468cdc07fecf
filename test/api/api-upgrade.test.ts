import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../api/build.js";
import { type Database, openDatabase } from "../../api/db/open.js";
import { auth, freshPostgresDatabase, ROOT, testConfig } from "./api-helpers.js";

/**
 * Starting a new release migrates the database (issue: the dashboard service on RDS): a database made by the
 * previous release, with that release's own code, is opened by this one. The database is
 * test/fixtures/upgrade/previous-release.sql, made by scripts/make-upgrade-fixture.ts: the tree of the commit before
 * the newest committed migration, taken out of git, generated its own Prisma client, applied its own migrations and
 * stored results with its own `ycsb-lab ingest` (a committed dump, so the test needs no git history).
 */
const FIXTURE = join(ROOT, "test", "fixtures", "upgrade", "previous-release.sql");
const TABLES = ["runs", "phases", "client_results", "operation_stats", "validity_verdicts", "reference_tables"];

describe("upgrade: a database of the previous release, opened by this one", () => {
  let url: string;
  let newest: string;
  let before: Record<string, number>;
  /** Every HDR log reference the previous release stored, as "client result id operation uri" lines, sorted. */
  let referencesBefore: string[];

  async function counts(): Promise<Record<string, number>> {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    const out: Record<string, number> = {};
    for (const t of TABLES) out[t] = Number((await c.query(`SELECT count(*) AS n FROM ${t}`)).rows[0].n);
    await c.end();
    return out;
  }

  beforeAll(async () => {
    const migrations = readdirSync(join(ROOT, "prisma", "migrations"), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    newest = migrations[migrations.length - 1]!;
    url = await freshPostgresDatabase("upgrade");
    // The dump sets an empty search_path for its own session: it gets a client of its own.
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await c.query(readFileSync(FIXTURE, "utf8"));
    } finally {
      await c.end();
    }
    before = await counts();
    referencesBefore = await references("table");
  }, 300_000);

  /**
   * The HDR log references stored: in the previous release's table, or in each client result's column after the
   * migration that moved them (20261219000000_hdr_logs_column).
   */
  async function references(from: "table" | "column"): Promise<string[]> {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      const sql =
        from === "table"
          ? "SELECT client_result_id AS id, operation, uri FROM hdr_log_refs"
          : "SELECT c.id, r.operation, r.uri FROM client_results c, json_to_recordset(c.hdr_logs) AS r(operation text, uri text)";
      const rows = (await c.query(sql)).rows as { id: number; operation: string; uri: string }[];
      return rows.map((r) => `${r.id} ${r.operation} ${r.uri}`).sort();
    } finally {
      await c.end();
    }
  }

  it("applies the newer migrations at start, keeps every row, and every view answers on the old data", async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    const applied = (
      await c.query(
        "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name",
      )
    ).rows.map((r: { migration_name: string }) => r.migration_name);
    await c.end();
    expect(applied).not.toContain(newest);
    expect(before.runs).toBeGreaterThan(2);
    expect(before.operation_stats).toBeGreaterThan(0);

    let db: Database | undefined;
    try {
      db = await openDatabase({ databaseUrl: url });
      expect(db.appliedMigrations).toContain(newest);
      expect(await counts()).toEqual(before);
      // Every HDR log reference moved into its client result's row, none lost, none made up.
      expect(referencesBefore.length).toBeGreaterThan(0);
      expect(await references("column")).toEqual(referencesBefore);
      const app = await buildApp(testConfig(), { database: db, logLevel: "silent" });
      try {
        for (const path of [
          "/api/v1/runs",
          "/api/v1/runs/before-upgrade-a",
          "/api/v1/facets",
          "/api/v1/timeline",
          "/api/v1/scaling?engine=cassandra",
          "/api/v1/regressions",
          "/api/v1/baselines",
        ]) {
          const r = await app.inject({ method: "GET", url: path });
          expect(r.statusCode, `${path}: ${r.body.slice(0, 300)}`).toBe(200);
        }
        const run = JSON.parse((await app.inject({ method: "GET", url: "/api/v1/runs/before-upgrade-a" })).body) as {
          phases: Array<{ aggregate: { clients: number } }>;
        };
        expect(run.phases[0]!.aggregate.clients).toBe(2);
        // What the newest migration brought works on a run stored before it.
        const pinned = await app.inject({
          method: "PUT",
          url: "/api/v1/baselines/before-upgrade-a",
          headers: { ...auth, "content-type": "application/json" },
          payload: "{}",
        });
        expect(pinned.statusCode, pinned.body).toBeLessThan(300);
      } finally {
        await app.close();
      }
      // A second start migrates nothing.
      await db.close();
      db = await openDatabase({ databaseUrl: url });
      expect(db.appliedMigrations).toEqual([]);
    } finally {
      await db?.close();
    }
  }, 300_000);
});
