import { InputError } from "../command.js";

/**
 * The store `export` and `import` work on: DATABASE_URL (PostgreSQL), else the embedded PGlite in PGLITE_DIR. A
 * PGlite directory has one owner: while `ycsb-lab serve` holds it, stop the service first (its lock names it).
 */
export async function openStore(command: string) {
  const { configFromEnv, loadEnv } = await import("../../api/config.js");
  const config = configFromEnv(loadEnv());
  if (config.pgliteDir) {
    const { dataDirOwner } = await import("../../api/db/data-dir-lock.js");
    const owner = dataDirOwner(config.pgliteDir);
    if (owner)
      throw new InputError(
        `${config.pgliteDir} is owned by ${owner.command} (pid ${owner.pid}${owner.url ? `, serving ${owner.url}` : ""}): stop it first, or point DATABASE_URL at a PostgreSQL`,
      );
  }
  const { openDatabase } = await import("../../api/db/open.js");
  return openDatabase({
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
    ...(config.pgliteDir ? { pgliteDir: config.pgliteDir } : {}),
    command,
  });
}
