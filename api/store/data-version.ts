import type { Db } from "../db/client.js";

/**
 * The version of what the read views show (DESIGN.md: caching with invalidation at ingest). Every write moves it in
 * the database, in the write's own transaction where there is one (`bumpDataVersion`), so another API process on the
 * same Postgres reads the new version as soon as the write is visible. This process also counts its own writes
 * (`noteWrite`, after they commit): with PGlite, whose directory has one owner (api/db/data-dir-lock.ts), that count
 * is exact without asking the database at every request.
 */
type Tx = Pick<Db, "$executeRaw">;

/** The statement that moves the version: awaited in an interactive transaction, or one of a batch transaction's. */
export function bumpDataVersion(tx: Tx) {
  return tx.$executeRaw`UPDATE data_version SET version = version + 1 WHERE id = 1`;
}

const localWrites = new WeakMap<object, number>();

/** Counts a committed write of this process (call after the transaction resolved). */
export function noteWrite(db: Db): void {
  localWrites.set(db, (localWrites.get(db) ?? 0) + 1);
}

export function localWriteCount(db: Db): number {
  return localWrites.get(db) ?? 0;
}

export async function readDataVersion(db: Db): Promise<bigint> {
  const [row] = await db.$queryRaw<{ version: bigint | number }[]>`SELECT version FROM data_version WHERE id = 1`;
  return BigInt(row?.version ?? 0);
}
