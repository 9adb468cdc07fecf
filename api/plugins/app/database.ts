import fp from "fastify-plugin";
import type { AppConfig } from "../../config.js";
import { openDatabase, type Database, type Db } from "../../db/open.js";

declare module "fastify" {
  interface FastifyInstance {
    db: Db;
    database: Database;
  }
}

/** Opens Postgres (DATABASE_URL) or the embedded PGlite, applies the committed migrations, closes on shutdown. */
export default fp<{ config: AppConfig; database?: Database }>(async (app, { config, database }) => {
  const opened = database ?? (await openDatabase({ ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}), ...(config.pgliteDir ? { pgliteDir: config.pgliteDir } : {}) }));
  if (opened.appliedMigrations.length) app.log.info({ migrations: opened.appliedMigrations }, "applied migrations");
  app.decorate("database", opened);
  app.decorate("db", opened.prisma);
  // A database handed in by the caller (tests, bench) stays open: its owner closes it.
  if (!database) app.addHook("onClose", async () => opened.close());
}, { name: "database" });
