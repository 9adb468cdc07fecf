import { buildApp } from "./build.js";
import { configFromEnv, type Env, loadEnv } from "./config.js";
import type { Database } from "./db/open.js";
import { exposureWarnings } from "./exposure.js";
import { loadOrCreateToken } from "./token-file.js";

export interface StartOptions {
  /** A database the caller opened (the dashboard service's, over its secret-backed pool) replaces DATABASE_URL's. */
  database?: Database;
  /** Runs after the database is open and before the port is bound (start and serve --load-reference load the seeds here). */
  beforeListen?: (app: Awaited<ReturnType<typeof buildApp>>) => Promise<void>;
}

/**
 * Listens; everything else is the app plugin. Returns the running instance (the serve command stops it on signals),
 * where it listens, the write token and where it came from, and warnings an operator should see.
 */
export async function startServer(envOverrides: Partial<Record<keyof Env, string>> = {}, options: StartOptions = {}) {
  const env = loadEnv({ ...process.env, ...envOverrides });
  const config = configFromEnv(env);
  let tokenFrom: "YCSB_LAB_TOKEN" | "file" | "new file" = "YCSB_LAB_TOKEN";
  if (!config.token) {
    // Kept on disk, not generated per start: runners given the token keep writing after a restart.
    const kept = await loadOrCreateToken(env.YCSB_LAB_TOKEN_FILE);
    config.token = kept.token;
    tokenFrom = kept.created ? "new file" : "file";
  }
  const app = await buildApp(config, {
    logLevel: env.LOG_LEVEL,
    ...(options.database ? { database: options.database } : {}),
  });
  // What must be stored before anyone is answered (the seeds' tables): no view answers empty meanwhile.
  if (options.beforeListen) {
    try {
      await options.beforeListen(app);
    } catch (e) {
      await app.close();
      throw e;
    }
  }
  const address = await app.listen({ host: env.HOST, port: env.PORT });
  // The PGlite directory's lock says where its owner serves: `ycsb-lab ingest` writes through this API then.
  app.database.dataDirLock?.announce(address);
  const warnings = exposureWarnings({ host: env.HOST, protectReads: config.protectReads });
  for (const w of warnings) app.log.warn(w);
  return { app, env, url: address, token: config.token, tokenFrom, tokenFile: env.YCSB_LAB_TOKEN_FILE, warnings };
}
