import { mkdir } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "../../prisma/generated/client.js";
import { applyMigrations } from "../../prisma/migrate.js";

export type Db = InstanceType<typeof PrismaClient>;

export interface DatabaseOptions {
  /** A Postgres URL; without it an embedded PGlite is used. */
  databaseUrl?: string;
  /** PGlite data directory; "memory://" or undefined for an in-memory database. */
  pgliteDir?: string;
  /** Apply the committed migrations on open (default true). */
  migrate?: boolean;
  /** Postgres pool size. */
  poolSize?: number;
}

export interface Database {
  prisma: Db;
  kind: "postgres" | "pglite";
  appliedMigrations: string[];
  close(): Promise<void>;
}

/** One code path for both stores: Prisma Client over a driver adapter (no downloaded engines). */
export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  let factory: SqlMigrationAwareDriverAdapterFactory;
  let closePglite: (() => Promise<void>) | undefined;
  if (opts.databaseUrl) {
    factory = new PrismaPg({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 });
  } else {
    const dir = opts.pgliteDir && opts.pgliteDir !== "memory://" ? opts.pgliteDir : undefined;
    if (dir) await mkdir(dir, { recursive: true });
    const pglite = new PGlite(dir);
    await pglite.waitReady;
    closePglite = () => pglite.close();
    factory = new PrismaPGlite(pglite);
  }
  const appliedMigrations = opts.migrate === false ? [] : await applyMigrations(factory);
  const prisma = new PrismaClient({ adapter: factory });
  return {
    prisma,
    kind: opts.databaseUrl ? "postgres" : "pglite",
    appliedMigrations,
    async close() {
      await prisma.$disconnect();
      await closePglite?.();
    },
  };
}
