import type { Db } from "../db/client.js";
import { aroundRunChange } from "./aggregates/refresh.js";
import { noteWrite, recordWrite } from "./data-version.js";
import type { Touched } from "./touched.js";
import { touchedRuns } from "./touched-runs.js";

/**
 * What a token holder may do to a stored run besides adding to it: quarantine it (with a reason), release it, delete
 * it. Each action is recorded in the run's audit (run_audit: who, when, why, the state before), in its transaction.
 */
export type RunAdminOutcome =
  | { status: "done"; id: string; quarantine: { reason: string; at: string } | null }
  | { status: "missing" }
  | { status: "published" };

/** Who acts: the name of the token the request carried (api/plugins/app/auth.ts), or the command that ran. */
export type Actor = string;

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/** The run as it is before an action, its row locked until the action commits (two actions on one run queue up). */
async function lockedState(tx: Tx, id: string) {
  const [run] = await tx.$queryRaw<
    {
      id: string;
      kind: string;
      quarantine_reason: string | null;
      quarantined_at: Date | null;
      scenario: string;
      engine: string;
      engine_version: string;
      preset: string;
      nodes: number;
      started_at: Date;
      verdict: string;
    }[]
  >`
    SELECT r.id, s.kind, r.quarantine_reason, r.quarantined_at, r.scenario, r.engine, r.engine_version, r.preset, r.nodes, r.started_at, r.verdict
    FROM runs r JOIN sources s ON s.id = r.source_id WHERE r.id = ${id} FOR UPDATE OF r`;
  if (!run) return undefined;
  return {
    published: run.kind === "published",
    quarantine: run.quarantined_at
      ? { reason: run.quarantine_reason ?? "", at: new Date(run.quarantined_at).toISOString() }
      : null,
    run: {
      scenario: run.scenario,
      engine: run.engine,
      engineVersion: run.engine_version,
      preset: run.preset,
      nodes: Number(run.nodes),
      startedAt: new Date(run.started_at).toISOString(),
      verdict: run.verdict,
    },
  };
}

async function audit(
  tx: Tx,
  id: string,
  action: AuditAction,
  actor: Actor,
  reason: string | null,
  previous: object,
): Promise<void> {
  await tx.$executeRaw`INSERT INTO run_audit (run_id, action, actor, reason, previous) VALUES (${id}, ${action}, ${actor}, ${reason}, ${JSON.stringify(previous)}::jsonb)`;
}

/** Quarantines the run with a reason (again: the new reason replaces the old one, which the audit keeps), or releases it (null). */
export async function quarantineRun(db: Db, id: string, reason: string | null, actor: Actor): Promise<RunAdminOutcome> {
  const touched: Touched = { runs: await touchedRuns(db, [id]) };
  const at = reason === null ? null : new Date();
  const out = await db.$transaction(async (tx): Promise<RunAdminOutcome> => {
    const before = await lockedState(tx, id);
    if (!before) return { status: "missing" };
    if (before.published) return { status: "published" };
    // The run leaves (or rejoins) every aggregate: the groups of its phases are marked for recomputing.
    await aroundRunChange(tx, [id], () =>
      tx.run.update({ where: { id }, data: { quarantineReason: reason, quarantinedAt: at } }),
    );
    await audit(tx, id, reason === null ? "release" : "quarantine", actor, reason, { quarantine: before.quarantine });
    await recordWrite(tx, touched);
    return { status: "done", id, quarantine: reason === null ? null : { reason, at: at!.toISOString() } };
  });
  if (out.status === "done") noteWrite(db, touched);
  return out;
}

/** Deletes the run and everything stored under it (phases, client results and their rows cascade), recording it. */
export async function deleteRun(
  db: Db,
  id: string,
  actor: Actor,
): Promise<{ status: "done"; id: string; clientResults: number } | { status: "missing" } | { status: "published" }> {
  const touched: Touched = { runs: await touchedRuns(db, [id]) };
  const out = await db.$transaction(async (tx) => {
    const before = await lockedState(tx, id);
    if (!before) return { status: "missing" as const };
    if (before.published) return { status: "published" as const };
    const [counts] = await tx.$queryRaw<{ phases: number; clients: number }[]>`
      SELECT (SELECT count(*) FROM phases WHERE run_id = ${id})::int AS phases, (SELECT count(*) FROM client_results WHERE run_id = ${id})::int AS clients`;
    await aroundRunChange(tx, [id], () => tx.run.delete({ where: { id } }));
    const clientResults = Number(counts?.clients ?? 0);
    await audit(tx, id, "delete", actor, null, {
      ...before.run,
      quarantine: before.quarantine,
      phases: Number(counts?.phases ?? 0),
      clientResults,
    });
    await recordWrite(tx, touched);
    return { status: "done" as const, id, clientResults };
  });
  if (out.status === "done") noteWrite(db, touched);
  return out;
}

export type AuditAction = "quarantine" | "release" | "delete";

export interface AuditEntry {
  action: AuditAction;
  actor: string;
  at: string;
  reason: string | null;
  previous: unknown;
}

/** The run's audit, oldest first; null when the run neither exists nor ever had an entry. */
export async function runAudit(
  db: Db,
  id: string,
): Promise<{ runId: string; exists: boolean; entries: AuditEntry[] } | null> {
  const [entries, run] = await Promise.all([
    db.runAudit.findMany({ where: { runId: id }, orderBy: { id: "asc" } }),
    db.run.findUnique({ where: { id }, select: { id: true } }),
  ]);
  if (!run && entries.length === 0) return null;
  return {
    runId: id,
    exists: run !== null,
    entries: entries.map((e) => ({
      action: e.action as AuditAction,
      actor: e.actor,
      at: e.at.toISOString(),
      reason: e.reason,
      previous: e.previous,
    })),
  };
}
