import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../api/build.js";
import { openDatabase, type Database } from "../api/db/open.js";
import { auth, fixtureDocument, freshPostgresDatabase, ROOT, testConfig } from "./api-helpers.js";

/**
 * Starting a new release migrates the database (issue: the dashboard service on RDS): a database made by the
 * previous release, with that release's own code, is opened by this one. "The previous release" is the commit before
 * the newest committed migration was added (git history: a fresh clone has it): its tree is taken out of git, it
 * generates its own Prisma client, applies its own migrations and stores results with its own `ycsb-lab ingest`.
 */
const git = (...args: string[]) => execFileSync("git", ["-C", ROOT, ...args], { encoding: "utf8" }).trim();
const TABLES = ["runs", "phases", "client_results", "operation_stats", "validity_verdicts", "reference_tables"];

describe("upgrade: a database of the previous release, opened by this one", () => {
  const dir = mkdtempSync(join(tmpdir(), "ycsb-lab-upgrade-"));
  const previous = join(dir, "previous");
  let url: string;
  let newest: string;
  let before: Record<string, number>;

  async function counts(): Promise<Record<string, number>> {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    const out: Record<string, number> = {};
    for (const t of TABLES) out[t] = Number((await c.query(`SELECT count(*) AS n FROM ${t}`)).rows[0].n);
    await c.end();
    return out;
  }

  beforeAll(async () => {
    const migrations = readdirSync(join(ROOT, "prisma", "migrations"), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
    newest = migrations[migrations.length - 1]!;
    const added = git("log", "--diff-filter=A", "--format=%H", "--", `prisma/migrations/${newest}`).split("\n").pop();
    if (!added) throw new Error(`no commit adds prisma/migrations/${newest}: this test needs the repository's history (not a shallow clone)`);
    const release = `${added}^`;
    // The previous release's code, with this checkout's installed packages (no network).
    mkdirSync(previous);
    execFileSync("bash", ["-c", `git -C "$1" archive "$2" bin cli api model engines runner web prisma kit scripts package.json tsconfig.json | tar -x -C "$3"`, "_", ROOT, release, previous]);
    symlinkSync(join(ROOT, "node_modules"), join(previous, "node_modules"));
    execFileSync("npx", ["prisma", "generate", "--config", "prisma/prisma.config.ts"], { cwd: previous, env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: join(previous, "scripts", "prisma-schema-engine") }, stdio: "pipe" });
    url = await freshPostgresDatabase("upgrade");
    // That release's ingest: two measured runs from real YCSB output, and the seeds' published tables.
    const docs = join(dir, "docs.json");
    writeFileSync(docs, JSON.stringify([0, 1].flatMap((client) => [fixtureDocument({ runId: "before-upgrade-a", client: client as 0 | 1 }), fixtureDocument({ runId: "before-upgrade-b", client: client as 0 | 1, nodes: 3, variant: "hdr-v1" })])));
    execFileSync(process.execPath, [join(previous, "bin", "ycsb-lab.js"), "ingest", "--reference", docs], { cwd: previous, env: { ...process.env, DATABASE_URL: url, YCSB_LAB_TOKEN: "" }, stdio: "pipe" });
    before = await counts();
  }, 300_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("applies the newer migrations at start, keeps every row, and every view answers on the old data", async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    const applied = (await c.query("SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name")).rows.map((r: { migration_name: string }) => r.migration_name);
    await c.end();
    expect(applied).not.toContain(newest);
    expect(before.runs).toBeGreaterThan(2);
    expect(before.operation_stats).toBeGreaterThan(0);

    let db: Database | undefined;
    try {
      db = await openDatabase({ databaseUrl: url });
      expect(db.appliedMigrations).toContain(newest);
      expect(await counts()).toEqual(before);
      const app = await buildApp(testConfig(), { database: db, logLevel: "silent" });
      try {
        for (const path of ["/api/v1/runs", "/api/v1/runs/before-upgrade-a", "/api/v1/facets", "/api/v1/timeline", "/api/v1/scaling?engine=cassandra", "/api/v1/regressions", "/api/v1/baselines"]) {
          const r = await app.inject({ method: "GET", url: path });
          expect(r.statusCode, `${path}: ${r.body.slice(0, 300)}`).toBe(200);
        }
        const run = JSON.parse((await app.inject({ method: "GET", url: "/api/v1/runs/before-upgrade-a" })).body) as { phases: Array<{ aggregate: { clients: number } }> };
        expect(run.phases[0]!.aggregate.clients).toBe(2);
        // What the newest migration brought works on a run stored before it.
        const pinned = await app.inject({ method: "PUT", url: "/api/v1/baselines/before-upgrade-a", headers: { ...auth, "content-type": "application/json" }, payload: "{}" });
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
