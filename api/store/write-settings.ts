/**
 * The settings of a write's transaction (ingest's, a settling round's), each set for the transaction only
 * (set_config's third argument, as SET LOCAL): one statement, sent first.
 *
 * - JIT off. PostgreSQL compiles a statement whose estimated cost passes jit_above_cost (100,000 by default), and
 *   inlines and optimises it past 500,000 (PostgreSQL docs, "When to JIT?": for short queries the compilation often
 *   costs more than it saves). A write's reads touch what its batch holds (a few thousand rows, by key), but before a
 *   table's first ANALYZE a planner guesses hundreds of rows per key: a batch's read-back of 1,500 rows was estimated
 *   at 1.5 million and spent 200-590 ms compiling for a 5 ms read (auto_explain, bench/api.ts, 2026-11-30).
 * - The status series (the largest JSON of a document, KBs) is TOAST-compressed on insert; lz4, where the server has
 *   it, costs a fraction of the default pglz (PostgreSQL docs, "default_toast_compression").
 */
import { Prisma } from "../../prisma/generated/client.js";
import type { Db } from "../db/client.js";
import type { SqlWriter } from "../db/pg-direct.js";

const lz4Support = new WeakMap<Db, Promise<boolean>>();

/** Whether the server was built with lz4 (Debian's Postgres is; PGlite is not): asked once per client. */
export function hasLz4(db: Db): Promise<boolean> {
  let p = lz4Support.get(db);
  if (!p) {
    // Postgres < 14 has no such setting (no row): pglz then, as before.
    p = db.$queryRaw<
      { ok: boolean }[]
    >`SELECT 'lz4' = ANY(enumvals) AS ok FROM pg_settings WHERE name = 'default_toast_compression'`.then(
      (r) => r[0]?.ok === true,
    );
    lz4Support.set(db, p);
    p.catch(() => lz4Support.delete(db)); // a failed probe (connection lost) is asked again next time
  }
  return p;
}

/** Sets a write transaction's settings (lz4 only where `hasLz4` said the server has it). */
export async function applyWriteSettings(tx: SqlWriter, { lz4 }: { lz4: boolean }): Promise<void> {
  await tx.$queryRaw(
    lz4
      ? Prisma.sql`SELECT set_config('jit', 'off', true), set_config('default_toast_compression', 'lz4', true)`
      : Prisma.sql`SELECT set_config('jit', 'off', true)`,
  );
}
