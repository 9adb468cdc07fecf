import { randomBytes } from "node:crypto";
import { buildApp } from "./build.js";
import { configFromEnv, loadEnv, type Env } from "./config.js";

/** Listens; everything else is the app plugin. Returns the running instance (the serve command stops it on signals). */
export async function startServer(envOverrides: Partial<Record<keyof Env, string>> = {}) {
  const env = loadEnv({ ...process.env, ...envOverrides });
  const config = configFromEnv(env);
  let generated = false;
  if (!config.token) {
    // Local convenience: a fresh write token per start, printed once (set YCSB_LAB_TOKEN to keep one).
    config.token = randomBytes(24).toString("base64url");
    generated = true;
  }
  const app = await buildApp(config, { logLevel: env.LOG_LEVEL });
  await app.listen({ host: env.HOST, port: env.PORT });
  return { app, env, token: generated ? config.token : undefined };
}
