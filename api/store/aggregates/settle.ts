/**
 * Recomputing the groups writes marked dirty (refresh.ts), before a view reads the kept rows and every second in the
 * background: each dirty group once, in transactions of at most BATCH groups, the marks taken in the transaction that
 * recomputes them (a write marking a group again meanwhile marks it for the next round). One round at a time per
 * process; a reader arriving during a round waits for it.
 */
import type { Db } from "../../db/client.js";
import { refreshGroups } from "./groups.js";

const BATCH = 200;
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
    const any = await db.$queryRaw<{ id: string }[]>`SELECT id FROM dirty_groups LIMIT 1`;
    if (any.length === 0) return;
    await db.$transaction(
      async (tx) => {
        const taken = await tx.$queryRaw<{ id: string }[]>`
          DELETE FROM dirty_groups WHERE id IN (SELECT id FROM dirty_groups ORDER BY id LIMIT ${BATCH}) RETURNING id`;
        const ids = taken.map((t) => t.id);
        await refreshGroups(tx, {
          configurations: ids
            .filter((id) => id.startsWith("c:"))
            .map((id) => id.slice(2))
            .sort(),
          peaks: ids
            .filter((id) => id.startsWith("p:"))
            .map((id) => id.slice(2))
            .sort(),
        });
      },
      { timeout: 10 * 60_000, maxWait: 60_000 },
    );
  }
}
