import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import pg from "pg";
import { PrismaClient } from "../../prisma/generated/client.js";
import { applyMigrations, pgliteSession, pgSession } from "../../prisma/migrate.js";
import { rebuildAggregates } from "../store/aggregates/rebuild.js";
import type { Db } from "./client.js";
import { type DataDirLock, lockDataDir } from "./data-dir-lock.js";
import { FairQueue, fairlyQueued } from "./fair-queue.js";
import { retryReadsOnLostConnection } from "./lost-connection.js";
import { writeThroughPool } from "./pg-direct.js";
import { PGliteOnThread } from "./pglite-thread.js";

export type { Db };

export interface DatabaseOptions {
  /** A Postgres URL; without it (and without `pool`) an embedded PGlite is used. */
  databaseUrl?: string;
  /** A Postgres pool the caller made (the dashboard service's, whose password follows Secrets Manager). */
  pool?: pg.Pool;
  /** PGlite data directory; "memory://" or undefined for an in-memory database. */
  pgliteDir?: string;
  /** Apply the committed migrations on open (default true). */
  migrate?: boolean;
  /** Postgres pool size. */
  poolSize?: number;
  /** Names the owner in a PGlite directory's lock (e.g. "serve"); default the process's command line. */
  command?: string;
}

export interface Database {
  prisma: Db;
  kind: "postgres" | "pglite";
  appliedMigrations: string[];
  /** A PGlite directory's lock, held until close (data-dir-lock.ts): `announce` it where this process serves. */
  dataDirLock?: DataDirLock;
  /**
   * Whether the database answers, for /health, without waiting behind the views' queries: Postgres on a connection of
   * its own (the pool's may all be busy computing answers), PGlite by its one connection working or a probe first in line.
   */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** One code path for both stores: Prisma Client over a driver adapter (no downloaded engines). */
export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  let factory: SqlMigrationAwareDriverAdapterFactory;
  let closePglite: (() => Promise<void>) | undefined;
  let migrate: () => Promise<string[]>;
  let dataDirLock: DataDirLock | undefined;
  let ping: () => Promise<void>;
  let closeHealth: (() => Promise<void>) | undefined;
  // The Postgres pool Prisma's adapter is given, which ingest's transactions and the run pages use too (pg-direct.ts).
  let pool: pg.Pool | undefined;
  let closePool: (() => Promise<void>) | undefined;
  if (opts.pool) {
    // Reads (the views', Prisma's, /health's) survive a connection the server ended while idle (lost-connection.ts).
    const given = retryReadsOnLostConnection(opts.pool);
    pool = given;
    factory = new PrismaPg(given);
    migrate = async () => {
      const client = await given.connect();
      try {
        return await applyMigrations(pgSession(client));
      } finally {
        client.release();
      }
    };
    // The caller's pool is the only one (its password follows Secrets Manager): /health asks it, within its deadline.
    ping = async () => void (await given.query("SELECT 1"));
  } else if (opts.databaseUrl) {
    // A database that does not answer fails a request in seconds (a 503), never holds it: connecting within 5 s, each
    // statement within 60 s (statement_timeout, PostgreSQL "Client Connection Defaults"; ingest of a 1,000-document
    // batch takes well under a second).
    const own = retryReadsOnLostConnection(
      new pg.Pool({
        connectionString: opts.databaseUrl,
        max: opts.poolSize ?? 10,
        connectionTimeoutMillis: 5_000,
        statement_timeout: 60_000,
      }),
    );
    // An idle connection the server drops (a restart) is replaced when next taken; the error is not the process's.
    own.on("error", () => {});
    pool = own;
    closePool = () => own.end();
    factory = new PrismaPg(own);
    const health = retryReadsOnLostConnection(
      new pg.Pool({
        connectionString: opts.databaseUrl,
        max: 1,
        connectionTimeoutMillis: 2_000,
        statement_timeout: 2_000,
        idleTimeoutMillis: 0,
      }),
    );
    // An idle connection the server drops (a restart) is replaced at the next ping; the error is that ping's, not the process's.
    health.on("error", () => {});
    ping = async () => void (await health.query("SELECT 1"));
    closeHealth = () => health.end();
    const url = opts.databaseUrl;
    migrate = () => migratePostgres(url);
  } else {
    const dir = opts.pgliteDir && opts.pgliteDir !== "memory://" ? opts.pgliteDir : undefined;
    if (dir) {
      await mkdir(dirname(dir), { recursive: true });
      // One owner per directory, taken before PGlite touches it: throws DataDirBusyError naming the owner.
      dataDirLock = lockDataDir(dir, opts.command);
      await mkdir(dir, { recursive: true });
    }
    // Loaded only for the embedded store: the dashboard service's kit (Postgres only) carries no PGlite.
    const { PrismaPGlite } = await import("pglite-prisma-adapter");
    let pglite: PGliteOnThread;
    try {
      // On a thread of its own (pglite-thread.ts): its statements never hold the API's thread.
      pglite = await PGliteOnThread.open(dir);
    } catch (e) {
      dataDirLock?.release();
      throw e;
    }
    closePglite = async () => {
      try {
        await pglite.close();
      } finally {
        dataDirLock?.release();
      }
    };
    // Its one connection taken in turn by readers and writers (fair-queue.ts): a write never waits for every read queued.
    const queue = new FairQueue();
    factory = new PrismaPGlite(fairlyQueued(pglite, queue) as unknown as PGlite);
    ping = () => queue.alive(() => pglite.query("SELECT 1"), 2_000);
    migrate = () => applyMigrations(pgliteSession(pglite));
  }
  let appliedMigrations: string[];
  try {
    appliedMigrations = opts.migrate === false ? [] : await migrate();
  } catch (e) {
    await closeHealth?.();
    await closePool?.();
    await closePglite?.();
    throw e;
  }
  const prisma = new PrismaClient({ adapter: factory });
  if (pool) writeThroughPool(prisma, pool);
  if (opts.migrate !== false) {
    try {
      // Aggregates of rows stored before them, or by older rules (api/store/aggregates/rebuild.ts): once per version.
      await rebuildAggregates(prisma);
    } catch (e) {
      await prisma.$disconnect();
      await closeHealth?.();
      await closePool?.();
      await closePglite?.();
      throw e;
    }
  }
  return {
    prisma,
    kind: opts.databaseUrl || opts.pool ? "postgres" : "pglite",
    appliedMigrations,
    ...(dataDirLock ? { dataDirLock } : {}),
    ping,
    async close() {
      await prisma.$disconnect();
      await closeHealth?.();
      await closePool?.();
      await closePglite?.();
      await opts.pool?.end();
    },
  };
}

/** The committed migrations over one connection of its own (prisma/migrate.ts), closed once they are applied. */
async function migratePostgres(connectionString: string): Promise<string[]> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await applyMigrations(pgSession(client));
  } finally {
    await client.end();
  }
}
