import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Applies the committed migrations (prisma/migrations/<name>/migration.sql) in name order and records each in
 * `_prisma_migrations` as `prisma migrate deploy` does, so `prisma migrate status` (and a later `migrate deploy`)
 * agrees with a database this opened: the table's shape, the SHA-256 of the script as checksum, one step per script,
 * Prisma's advisory lock against a second migrator (Prisma docs, "Development and production": advisory locking).
 * Plain SQL over the database's own connection: no schema engine, no Prisma internals. Stricter than the CLI in one
 * way: each migration and its bookkeeping row commit in one transaction, so a failed script leaves nothing behind.
 */
export const MIGRATIONS_DIR = fileURLToPath(new URL("./migrations", import.meta.url));

/** Prisma Migrate's advisory lock key on PostgreSQL (prisma-engines, sql-schema-connector postgres flavour). */
const PRISMA_MIGRATE_LOCK = 72707369;

/** A committed migration as the CLI reads it. */
export interface Migration {
  name: string;
  script: string;
  /** SHA-256 of the script, lowercase hex: what Prisma stores in `_prisma_migrations.checksum`. */
  checksum: string;
}

/** One connection of the database: a script of several statements, and a query with parameters. */
export interface MigrationSession {
  exec(script: string): Promise<void>;
  query<Row>(sql: string, params?: unknown[]): Promise<Row[]>;
}

/** The bookkeeping table exactly as Prisma's schema engine creates it on PostgreSQL. */
const BOOKKEEPING_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "_prisma_migrations_pkey" PRIMARY KEY ("id")
)`;

/** The committed migrations, in the order the CLI applies them (folder names sort by their timestamp prefix). */
export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const folders = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  return Promise.all(
    folders.sort().map(async (name) => {
      const bytes = await readFile(join(dir, name, "migration.sql"));
      return { name, script: bytes.toString("utf8"), checksum: createHash("sha256").update(bytes).digest("hex") };
    }),
  );
}

interface BookkeepingRow {
  migration_name: string;
  finished_at: Date | string | null;
  rolled_back_at: Date | string | null;
}

/** Applies the migrations not yet recorded as finished; returns the names applied now. */
export async function applyMigrations(session: MigrationSession, dir = MIGRATIONS_DIR): Promise<string[]> {
  const migrations = await readMigrations(dir);
  await session.query(`SELECT pg_advisory_lock(${PRISMA_MIGRATE_LOCK})`);
  try {
    await session.exec(BOOKKEEPING_TABLE);
    const rows = await session.query<BookkeepingRow>(
      `SELECT migration_name, finished_at, rolled_back_at FROM "_prisma_migrations"`,
    );
    // As `migrate deploy` (error P3009): a migration the CLI left failed must be resolved before anything else runs.
    const failed = rows.filter((r) => r.finished_at === null && r.rolled_back_at === null).map((r) => r.migration_name);
    if (failed.length) {
      throw new Error(
        `migrations failed earlier and were never resolved: ${failed.join(", ")}; ` +
          'see `prisma migrate resolve` (docs/api.md, "Database and Prisma offline")',
      );
    }
    const done = new Set(
      rows.filter((r) => r.finished_at !== null && r.rolled_back_at === null).map((r) => r.migration_name),
    );
    const applied: string[] = [];
    for (const m of migrations.filter((x) => !done.has(x.name))) {
      await applyOne(session, m);
      applied.push(m.name);
    }
    return applied;
  } finally {
    await session.query(`SELECT pg_advisory_unlock(${PRISMA_MIGRATE_LOCK})`);
  }
}

async function applyOne(session: MigrationSession, m: Migration): Promise<void> {
  await session.exec("BEGIN");
  try {
    await session.exec(m.script);
    // started_at is the transaction's start (now()), finished_at the moment the script ended.
    await session.query(
      `INSERT INTO "_prisma_migrations" ("id", "checksum", "finished_at", "migration_name", "started_at", "applied_steps_count")
       VALUES ($1, $2, clock_timestamp(), $3, now(), 1)`,
      [randomUUID(), m.checksum, m.name],
    );
    await session.exec("COMMIT");
  } catch (e) {
    await session.exec("ROLLBACK");
    throw new Error(`applying migration ${m.name} failed, nothing of it was applied: ${(e as Error).message}`);
  }
}

/** A node-postgres client (one connection: the advisory lock and each transaction stay on it). */
export function pgSession(client: {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}): MigrationSession {
  return {
    // Without parameters node-postgres sends the simple query protocol, which runs several statements.
    exec: async (script) => void (await client.query(script)),
    query: async <Row>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as Row[],
  };
}

/** An embedded PGlite database. */
export function pgliteSession(db: {
  exec(script: string): Promise<unknown>;
  query<Row>(sql: string, params?: unknown[]): Promise<{ rows: Row[] }>;
}): MigrationSession {
  return {
    exec: async (script) => void (await db.exec(script)),
    query: async <Row>(sql: string, params: unknown[] = []) => (await db.query<Row>(sql, params)).rows,
  };
}
