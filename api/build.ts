import Fastify, { type FastifyInstance } from "fastify";
import app from "./app.js";
import type { AppConfig } from "./config.js";
import type { Database } from "./db/open.js";

/** A ready Fastify instance with the app registered (tests call it and use app.inject). */
export async function buildApp(config: AppConfig, opts: { database?: Database; logLevel?: string } = {}): Promise<FastifyInstance> {
  const fastify = Fastify({
    logger: { level: opts.logLevel ?? "info", redact: ["req.headers.authorization"] },
    bodyLimit: config.bodyLimit,
    // Opening the database applies migrations (wasm schema engine) and may start PGlite: more than Fastify's 10 s default on a busy machine.
    pluginTimeout: 120_000,
    // Bodies may nest deeply only so far; Fastify's JSON parser guards against prototype poisoning.
    onProtoPoisoning: "error",
    onConstructorPoisoning: "error",
  });
  await fastify.register(app, { config, ...(opts.database ? { database: opts.database } : {}) });
  await fastify.ready();
  return fastify;
}
