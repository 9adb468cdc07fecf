import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, describe, expect, it } from "vitest";
import { applyMigrations, MIGRATIONS_DIR, pgliteSession, readMigrations } from "../../prisma/migrate.js";
import { REPO_ROOT } from "../runner/runner-helpers.js";

/**
 * `npm run db:generate` / `db:migrate` (scripts/prisma-cli.mjs): Prisma's own schema engine unless the WebAssembly
 * stand-in is asked for (YCSB_LAB_SCHEMA_ENGINE=stand-in); generate needs none. Prisma's engine download is pointed
 * at a closed loopback port (PRISMA_ENGINES_MIRROR), so "not the stand-in" shows as a failed download here whether
 * or not the machine is online.
 */
const work = mkdtempSync(join(tmpdir(), "ycsb-lab-db-scripts-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function db(script: "db:generate" | "db:migrate", env: Record<string, string>) {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => k !== "PRISMA_SCHEMA_ENGINE_BINARY" && k !== "YCSB_LAB_SCHEMA_ENGINE"),
  ) as Record<string, string>;
  const r = spawnSync("npm", ["run", "--silent", script], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    env: { ...base, PRISMA_ENGINES_MIRROR: "http://127.0.0.1:9", npm_config_update_notifier: "false", ...env },
    timeout: 240_000,
  });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe("Prisma's schema engine: the stand-in only when asked for", () => {
  it("db:generate needs no schema engine at all: it succeeds with Prisma's download unreachable, and skips when nothing changed", () => {
    // Without its stamp the client is generated again (scripts/prisma-cli.mjs generatedUpToDate).
    rmSync(join(REPO_ROOT, "prisma", "generated", ".inputs-sha256"), { force: true });
    const r = db("db:generate", {});
    expect(r.status, r.output).toBe(0);
    expect(r.output).toContain("Generated Prisma Client");
    const again = db("db:generate", {});
    expect(again.status, again.output).toBe(0);
    expect(again.output).toContain("prisma/generated is up to date");
    expect(again.output).not.toContain("Generated Prisma Client");
  }, 240_000);

  it("db:migrate without the variable uses Prisma's own engine (here unreachable) and says how to ask for the stand-in", () => {
    const r = db("db:migrate", { DATABASE_URL: `pglite:${join(work, "not-asked")}` });
    expect(r.status).not.toBe(0);
    expect(r.output).toContain("YCSB_LAB_SCHEMA_ENGINE=stand-in");
  }, 240_000);

  it("db:migrate with YCSB_LAB_SCHEMA_ENGINE=stand-in applies the committed migrations offline", () => {
    const r = db("db:migrate", { DATABASE_URL: `pglite:${join(work, "asked")}`, YCSB_LAB_SCHEMA_ENGINE: "stand-in" });
    expect(r.status, r.output).toBe(0);
    expect(r.output).toMatch(/successfully applied/);
  }, 240_000);

  it("a value that is not an engine is refused, naming the variable", () => {
    const r = db("db:generate", { YCSB_LAB_SCHEMA_ENGINE: "wasm" });
    expect(r.status).toBe(2);
    expect(r.output).toContain('YCSB_LAB_SCHEMA_ENGINE must be "stand-in" or "prisma", got "wasm"');
  }, 300_000);
});

/** Opens a PGlite directory, runs `f` on it and closes it (the CLI's engine opens the same directory after). */
async function withPglite<T>(dir: string, f: (db: PGlite) => Promise<T>): Promise<T> {
  const db = new PGlite(dir);
  try {
    return await f(db);
  } finally {
    await db.close();
  }
}

const BOOKKEEPING =
  "SELECT migration_name, checksum, applied_steps_count, logs, rolled_back_at, finished_at IS NOT NULL AS finished FROM _prisma_migrations ORDER BY migration_name";

describe("the server's migrations (prisma/migrate.ts) and Prisma Migrate agree", () => {
  const ours = join(work, "ours");
  const theirs = join(work, "theirs");

  it("a database this migrated is up to date for `prisma migrate status`, with the rows `migrate deploy` writes", async () => {
    const applied = await withPglite(ours, (db) => applyMigrations(pgliteSession(db)));
    expect(applied).toEqual((await readMigrations()).map((m) => m.name));
    const status = spawnSync(
      process.execPath,
      ["scripts/prisma-cli.mjs", "migrate", "status", "--config", "prisma/prisma.config.ts"],
      {
        cwd: REPO_ROOT,
        encoding: "utf8",
        env: { ...process.env, DATABASE_URL: `pglite:${ours}`, YCSB_LAB_SCHEMA_ENGINE: "stand-in" },
        timeout: 240_000,
      },
    );
    expect(status.status, status.stdout + status.stderr).toBe(0);
    expect(status.stdout).toContain("Database schema is up to date!");
    // Prisma's own engine (the stand-in runs it as WebAssembly) applies the same folder to a second database.
    const r = db("db:migrate", { DATABASE_URL: `pglite:${theirs}`, YCSB_LAB_SCHEMA_ENGINE: "stand-in" });
    expect(r.status, r.output).toBe(0);
    const [mine, prismas] = await Promise.all(
      [ours, theirs].map((dir) => withPglite(dir, async (d) => (await d.query(BOOKKEEPING)).rows)),
    );
    expect(mine).toEqual(prismas);
    expect(mine).toHaveLength(applied.length);
  }, 300_000);

  it("a database Prisma Migrate made gets nothing applied twice", async () => {
    expect(await withPglite(theirs, (db) => applyMigrations(pgliteSession(db)))).toEqual([]);
  });

  it("a migration that fails leaves nothing of itself, names itself, and runs again next time", async () => {
    const dir = join(work, "migrations-broken");
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    const broken = "29991231000000_broken";
    cpSync(join(dir, "20261122000000_init"), join(dir, broken), { recursive: true });
    writeFileSync(
      join(dir, broken, "migration.sql"),
      'CREATE TABLE "half_done" (id int);\nSELECT no_such_function();\n',
    );
    await withPglite(join(work, "broken"), async (db) => {
      await expect(applyMigrations(pgliteSession(db), dir)).rejects.toThrow(
        /applying migration 29991231000000_broken failed, nothing of it was applied: .*no_such_function/,
      );
      const names = (
        await db.query<{ migration_name: string }>("SELECT migration_name FROM _prisma_migrations")
      ).rows.map((r) => r.migration_name);
      expect(names).not.toContain(broken);
      expect(names).toHaveLength((await readMigrations()).length);
      expect((await db.query("SELECT to_regclass('half_done') AS t")).rows).toEqual([{ t: null }]);
      writeFileSync(join(dir, broken, "migration.sql"), 'CREATE TABLE "half_done" (id int);\n');
      expect(await applyMigrations(pgliteSession(db), dir)).toEqual([broken]);
    });
  });

  it("a migration the CLI left failed stops the start, naming it (as `migrate deploy` does, P3009)", async () => {
    await withPglite(join(work, "failed-by-cli"), async (db) => {
      await applyMigrations(pgliteSession(db));
      await db.query(
        "UPDATE _prisma_migrations SET finished_at = NULL WHERE migration_name = '20261205000000_baselines'",
      );
      await expect(applyMigrations(pgliteSession(db))).rejects.toThrow(
        /failed earlier and were never resolved: 20261205000000_baselines/,
      );
    });
  });
});
