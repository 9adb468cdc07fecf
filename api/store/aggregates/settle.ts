/**
 * A round and a write never wait for each other: a write appends its marks (refresh.ts) and a round takes the rows it
 * sees, so a mark appended by a write still open is left for the next round, which recounts what the write stored
 * once it has committed. Rounds take one lock of their own (rounds of several processes on one store, a service and an
 * import, take turns), and a round never waits for a run's row a write holds (run-headlines.ts marks that run again
 * instead). Before, a write's upsert of a mark a round had taken waited for the round's whole recount (docs/
 * benchmarks.md), and a round holding marks that waited for a run a write had updated deadlocked with it.
 *
 * Recounting the groups (and runs' headlines, run-headlines.ts) writes marked dirty (refresh.ts), before a view reads the kept rows and every second in the
 * background: each dirty group once, in transactions of at most `batchOf` groups, the marks and the phases written into
 * them taken in the transaction that recounts them (a write marking a group again meanwhile marks it for the next
 * round). One round at a time per process; a reader arriving during a round waits for it.
 */
import type { Db } from "../../db/client.js";
import { runsSideBySide, sqlReader, writeTransaction } from "../../db/pg-direct.js";
import { applyWriteSettings } from "../write-settings.js";
import { refreshGroups } from "./groups.js";
import { refreshRunHeadlines, runDirtyId } from "./run-headlines.js";

/**
 * The most groups one transaction of a round recounts. On Postgres a round's transaction holds back no write. On
 * PGlite's one connection it holds back every statement until it ends: a write arriving during a round of 200 groups
 * waited for all of them (a retried batch of 1,000 took 2.2 s where alone it took 0.3), so a round there commits every
 * 20 groups and a waiting write goes between two of its transactions (fair-queue.ts takes the lanes in turn).
 */
const batchOf = (db: Db) => (runsSideBySide(db) ? 200 : 20);
const rounds = new WeakMap<Db, Promise<void>>();

/** Brings every kept group up to date with what is stored (a no-op, one indexed read, when nothing is dirty). */
export function settleAggregates(db: Db): Promise<void> {
  const running = rounds.get(db);
  if (running) return running;
  const round = settle(db).finally(() => rounds.delete(db));
  rounds.set(db, round);
  return round;
}

/** The round running now, if any (a closing service waits for it rather than cut its transaction off). */
export function settlingRound(db: Db): Promise<void> | undefined {
  return rounds.get(db);
}

async function settle(db: Db): Promise<void> {
  for (;;) {
    const any = await sqlReader(db).$queryRaw<{ id: string }[]>`SELECT id FROM dirty_groups LIMIT 1`;
    if (any.length === 0) return;
    const progress = await writeTransaction(
      db,
      async (tx) => {
        await applyWriteSettings(tx, { lz4: false });
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended('ycsb-lab settling round', 0))`;
        // Every row of the first groups marked (a group's writes each appended one), as many as one transaction takes.
        const taken = await tx.$queryRaw<{ id: string; whole: boolean }[]>`
          DELETE FROM dirty_groups WHERE id IN (SELECT DISTINCT id FROM dirty_groups ORDER BY id LIMIT ${batchOf(db)})
          RETURNING id, whole`;
        const ids = [...new Set(taken.map((t) => t.id))].sort();
        const phases = await tx.$queryRaw<{ id: string; phaseId: number }[]>`
          DELETE FROM dirty_group_phases WHERE id = ANY(${ids}::text[]) RETURNING id, phase_id AS "phaseId"`;
        // A group marked whole is recounted from all of its phases: it is left out of the written phases.
        const whole = new Set(taken.filter((t) => t.whole).map((t) => t.id));
        const written = new Map<string, Set<number>>(ids.filter((id) => !whole.has(id)).map((id) => [id, new Set()]));
        for (const p of phases) written.get(p.id)?.add(Number(p.phaseId));
        await refreshGroups(
          tx,
          {
            configurations: ids
              .filter((id) => id.startsWith("c:"))
              .map((id) => id.slice(2))
              .sort(),
            peaks: ids
              .filter((id) => id.startsWith("p:"))
              .map((id) => id.slice(2))
              .sort(),
          },
          new Map([...written].map(([id, phaseIds]) => [id, [...phaseIds]])),
        );
        const held = await refreshRunHeadlines(
          tx,
          ids.filter((id) => id.startsWith(runDirtyId(""))).map((id) => id.slice(runDirtyId("").length)),
        );
        return ids.length > held;
      },
      { timeout: 10 * 60_000, maxWait: 60_000 },
    );
    // Only runs a write holds are left (marked again): the next round takes them once it has committed.
    if (!progress) return;
  }
}
