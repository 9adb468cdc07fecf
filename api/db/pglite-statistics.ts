import type { Db } from "./open.js";

/**
 * PGlite is Postgres in single-user mode: no autovacuum, so no table is ever analyzed on its own, and after thousands
 * of ingested runs the planner still plans for empty tables (measured: /scaling over 32,000 client results 3x slower
 * before ANALYZE). So the owner of a PGlite directory analyzes once at start, and again after writes, at most every
 * `minIntervalMs` (ANALYZE samples a bounded number of rows per table: seconds even for a large store).
 */
export function keepPGliteStatistics(
  db: Db,
  writes: () => number,
  log: (msg: string, err?: unknown) => void,
  minIntervalMs = 10 * 60_000,
) {
  let analyzedAt = 0;
  let writesAtAnalyze = -1;
  let running = false;
  const analyze = async () => {
    if (running) return;
    running = true;
    const seen = writes();
    try {
      await db.$executeRawUnsafe("ANALYZE");
      analyzedAt = Date.now();
      writesAtAnalyze = seen;
    } catch (err) {
      log("pglite: ANALYZE failed", err);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => {
    if (writes() !== writesAtAnalyze && Date.now() - analyzedAt >= minIntervalMs) void analyze();
  }, 30_000);
  timer.unref();
  return { analyze, stop: () => clearInterval(timer) };
}
