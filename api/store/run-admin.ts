import type { Db } from "../db/client.js";
import { aroundRunChange } from "./aggregates/refresh.js";
import { bumpDataVersion, noteWrite } from "./data-version.js";

/** What a token holder may do to a stored run besides adding to it: quarantine it (with a reason), lift that, delete it. */
export type RunAdminOutcome =
  | { status: "done"; id: string; quarantine: { reason: string; at: string } | null }
  | { status: "missing" }
  | { status: "published" };

/** Published runs come from the reference loader (prisma/reference) and change only through it. */
async function find(db: Db, id: string) {
  return db.run.findUnique({ where: { id }, select: { id: true, source: { select: { kind: true } } } });
}

export async function quarantineRun(db: Db, id: string, reason: string | null): Promise<RunAdminOutcome> {
  const run = await find(db, id);
  if (!run) return { status: "missing" };
  if (run.source.kind === "published") return { status: "published" };
  const at = reason === null ? null : new Date();
  // The run leaves (or rejoins) every aggregate: the groups of its phases are recomputed in the same transaction.
  await db.$transaction(async (tx) => {
    await aroundRunChange(tx, [id], () => tx.run.update({ where: { id }, data: { quarantineReason: reason, quarantinedAt: at } }));
    await bumpDataVersion(tx);
  });
  noteWrite(db);
  return { status: "done", id, quarantine: reason === null ? null : { reason, at: at!.toISOString() } };
}

/** Deletes the run and everything stored under it (phases, client results and their rows cascade), in one statement. */
export async function deleteRun(db: Db, id: string): Promise<{ status: "done"; id: string; clientResults: number } | { status: "missing" } | { status: "published" }> {
  const run = await find(db, id);
  if (!run) return { status: "missing" };
  if (run.source.kind === "published") return { status: "published" };
  const clientResults = await db.clientResult.count({ where: { runId: id } });
  const { count } = await db.$transaction(async (tx) => {
    const out = await aroundRunChange(tx, [id], () => tx.run.deleteMany({ where: { id, source: { kind: { not: "published" } } } }));
    await bumpDataVersion(tx);
    return out;
  });
  noteWrite(db);
  return count === 0 ? { status: "missing" } : { status: "done", id, clientResults };
}
