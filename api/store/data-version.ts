import type { Db } from "../db/client.js";
import { type SqlWriter, sqlReader } from "../db/pg-direct.js";
import type { Touched } from "./touched.js";

/**
 * The version of what the read views show, and what each write touched (DESIGN.md: caching with invalidation at
 * ingest). Every write moves the version in the database, in the write's own transaction (`recordWrite`), and logs
 * what it touched beside the new version, so another API process on the same Postgres drops exactly the answers it
 * can change as soon as the write is visible. The version row is locked by the update until the write commits, so
 * versions commit in order: a reader that saw version n has seen every write up to n. This process also notes its
 * own writes (`noteWrite`, after they commit): with PGlite, whose directory has one owner (api/db/data-dir-lock.ts),
 * that is every write, known without asking the database at every request.
 */
type Tx = Pick<SqlWriter, "$executeRaw">;

/** Changes kept for readers behind: one further behind drops every answer. */
export const CHANGES_KEPT = 1_000;

/** The statement that moves the version and logs the change: awaited in an interactive transaction, or one of a batch transaction's. */
export function recordWrite<W extends Tx>(tx: W, touched: Touched): ReturnType<W["$executeRaw"]> {
  return tx.$executeRaw`
    WITH v AS (UPDATE data_version SET version = version + 1 WHERE id = 1 RETURNING version),
         logged AS (INSERT INTO data_changes (version, touched) SELECT version, ${JSON.stringify(touched)}::jsonb FROM v)
    DELETE FROM data_changes WHERE version <= (SELECT version FROM v) - ${CHANGES_KEPT}` as ReturnType<
    W["$executeRaw"]
  >;
}

type Listener = (touched: Touched) => void;
const localWrites = new WeakMap<object, { count: number; listeners: Set<Listener> }>();
const local = (db: Db) => {
  let l = localWrites.get(db);
  if (!l) localWrites.set(db, (l = { count: 0, listeners: new Set() }));
  return l;
};

/** Counts a committed write of this process and tells this process's caches what it touched (call after commit). */
export function noteWrite(db: Db, touched: Touched): void {
  const l = local(db);
  l.count++;
  for (const listener of l.listeners) listener(touched);
}

/** Calls `listener` with what each of this process's writes touched; returns the unsubscribe. */
export function onLocalWrite(db: Db, listener: Listener): () => void {
  const l = local(db);
  l.listeners.add(listener);
  return () => l.listeners.delete(listener);
}

export function localWriteCount(db: Db): number {
  return local(db).count;
}

export async function readDataVersion(db: Db): Promise<bigint> {
  const [row] = await sqlReader(db).$queryRaw<
    { version: bigint | number }[]
  >`SELECT version FROM data_version WHERE id = 1`;
  return BigInt(row?.version ?? 0);
}

/** The changes after `version`, in order; `complete` is false when some were pruned (the reader must drop everything). */
export async function changesSince(
  db: Db,
  version: bigint,
): Promise<{ changes: { version: bigint; touched: Touched }[]; complete: boolean }> {
  const rows = await sqlReader(db).$queryRaw<{ version: bigint | number; touched: Touched }[]>`
    SELECT version, touched FROM data_changes WHERE version > ${version} ORDER BY version`;
  const changes = rows.map((r) => ({ version: BigInt(r.version), touched: r.touched }));
  return { changes, complete: changes.length === 0 || changes[0]!.version === version + 1n };
}
