import fp from "fastify-plugin";
import type { AppConfig } from "../../config.js";
import { type Database, type Db, openDatabase } from "../../db/open.js";
import { keepPGliteStatistics } from "../../db/pglite-statistics.js";
import { settleAggregates, settlingRound } from "../../store/aggregates/settle.js";
import { localWriteCount } from "../../store/data-version.js";

declare module "fastify" {
  interface FastifyInstance {
    db: Db;
    database: Database;
  }
}

/** Opens Postgres (DATABASE_URL) or the embedded PGlite, applies the committed migrations, closes on shutdown. */
export default fp<{ config: AppConfig; database?: Database }>(
  async (app, { config, database }) => {
    const opened =
      database ??
      (await openDatabase({
        ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
        ...(config.pgliteDir ? { pgliteDir: config.pgliteDir } : {}),
      }));
    if (opened.appliedMigrations.length) app.log.info({ migrations: opened.appliedMigrations }, "applied migrations");
    app.decorate("database", opened);
    app.decorate("db", opened.prisma);
    if (opened.kind === "pglite") {
      const statistics = keepPGliteStatistics(
        opened.prisma,
        () => localWriteCount(opened.prisma),
        (msg, err) => app.log.warn({ err }, msg),
      );
      // At start, before the first view plans its queries on tables the planner knows nothing of.
      app.addHook("onReady", async () => statistics.analyze());
      app.addHook("onClose", async () => statistics.stop());
    }
    // The groups writes marked dirty are recomputed within a second even when nobody reads (api/store/aggregates/settle.ts).
    const settler = setInterval(
      () => void settleAggregates(opened.prisma).catch((err) => app.log.warn({ err }, "aggregates: settling failed")),
      1_000,
    );
    settler.unref();
    // A round in flight finishes before the database closes (cut off, its transaction failed: "Transaction not found").
    app.addHook("onClose", async () => {
      clearInterval(settler);
      await settlingRound(opened.prisma)?.catch(() => {});
    });
    // A database handed in by the caller (tests, bench) stays open: its owner closes it.
    if (!database) app.addHook("onClose", async () => opened.close());
  },
  { name: "database" },
);
