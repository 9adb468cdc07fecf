import { STATUS_CODES } from "node:http";
import { fileURLToPath } from "node:url";
import { Type } from "@sinclair/typebox";
import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { AppConfig } from "./config.js";
import type { Database } from "./db/open.js";
import { isDatabaseOutage } from "./db/outage.js";
import { duplicateKey, type ReadBodyElsewhere, repeatsKey } from "./json-strict.js";
import auth from "./plugins/app/auth.js";
import computeGate from "./plugins/app/compute-gate.js";
import contract from "./plugins/app/contract.js";
import dashboard from "./plugins/app/dashboard.js";
import database from "./plugins/app/database.js";
import responseCache from "./plugins/app/response-cache.js";
import s3 from "./plugins/app/s3.js";
import helmet from "./plugins/external/helmet.js";
import rateLimit from "./plugins/external/rate-limit.js";
import sensible from "./plugins/external/sensible.js";
import swagger from "./plugins/external/swagger.js";
import anova from "./routes/api/anova/index.js";
import baselines from "./routes/api/baselines/index.js";
import capacity from "./routes/api/capacity/index.js";
import compare from "./routes/api/compare/index.js";
import durability from "./routes/api/durability/index.js";
import facets from "./routes/api/facets/index.js";
import ingest from "./routes/api/ingest/index.js";
import reference from "./routes/api/reference/index.js";
import regressions from "./routes/api/regressions/index.js";
import repeatability from "./routes/api/repeatability/index.js";
import results from "./routes/api/results/index.js";
import runs from "./routes/api/runs/index.js";
import scaling from "./routes/api/scaling/index.js";
import sweeps from "./routes/api/sweeps/index.js";
import timeline from "./routes/api/timeline/index.js";
import { FieldValidationError, typeboxValidatorCompiler } from "./validation.js";

/**
 * The built dashboard (`npm run build:web`), found relative to this file: web/dist in a checkout or a package, and
 * beside the bundle in the dashboard kit (kit/build.ts lays it out the same way relative to bin/ycsb-lab.mjs).
 */
export const DASHBOARD_DIR = fileURLToPath(new URL("../web/dist/", import.meta.url));

export interface AppOptions {
  config: AppConfig;
  /** An already open database (tests, bench); otherwise opened from config and closed with the app. */
  database?: Database;
}

export const API_PREFIX = "/api/v1";

/** The whole service as one plugin (fastify/demo): server.ts only listens. */
const app: FastifyPluginAsync<AppOptions> = async (fastify, opts) => {
  fastify.setValidatorCompiler(typeboxValidatorCompiler);
  strictJson(fastify);

  await fastify.register(sensible);
  await fastify.register(helmet);
  await fastify.register(rateLimit, { config: opts.config });
  await fastify.register(swagger);
  await fastify.register(contract, { prefix: API_PREFIX });
  await fastify.register(database, { config: opts.config, ...(opts.database ? { database: opts.database } : {}) });
  await fastify.register(auth, { config: opts.config });
  await fastify.register(s3, { config: opts.config });
  await fastify.register(responseCache, { config: opts.config, prefix: API_PREFIX });
  await fastify.register(computeGate, { config: opts.config, prefix: API_PREFIX });

  // The one error handler: 4xx say what is wrong (and which fields), 5xx are logged with context and hidden.
  fastify.setErrorHandler((err: FastifyError | FieldValidationError, req, reply) => {
    const status = err.statusCode ?? 500;
    if (err instanceof FieldValidationError) {
      return reply.code(err.statusCode).send({
        statusCode: err.statusCode,
        error: STATUS_CODES[err.statusCode] ?? "Error",
        message: err.message,
        fields: err.fields,
      });
    }
    if (isDatabaseOutage(err)) {
      // The database is down or unreachable: a client may try again (the service itself needs no restart).
      req.log.warn({ err: (err as Error).message, method: req.method, url: req.url }, "database unavailable");
      return reply
        .code(503)
        .header("retry-after", "5")
        .send({ statusCode: 503, error: "Service Unavailable", message: "database unavailable, try again shortly" });
    }
    if (status === 502) {
      // An upstream (S3) refused or was unreachable: the client may fix its request or try again; the message says which.
      req.log.warn({ err: err.message, method: req.method, url: req.url }, "upstream failed");
      return reply.code(502).send({ statusCode: 502, error: "Bad Gateway", message: err.message });
    }
    if (status >= 500) {
      req.log.error({ err, method: req.method, url: req.url, params: req.params }, "request failed");
      return reply
        .code(500)
        .send({ statusCode: 500, error: "Internal Server Error", message: "internal error (logged)" });
    }
    req.log.info({ err: err.message, status }, "request refused");
    return reply
      .code(status)
      .send({ statusCode: status, error: STATUS_CODES[status] ?? "Error", message: err.message });
  });

  // A real check: the database answers a query within 2 s, else 503 (a load balancer takes the instance out). Checks
  // asked while one is under way share it: 16 viewers' checks are one SELECT 1, not 16 queued on one connection.
  let pinging: Promise<void> | undefined;
  const ping = () =>
    (pinging ??= withDeadline(fastify.database.ping(), 2_000).finally(() => {
      pinging = undefined;
    }));
  fastify.get("/health", { schema: { hide: true } }, async (_req, reply) => {
    const kind = fastify.database.kind;
    try {
      await ping();
      return { ok: true, database: kind };
    } catch (err) {
      fastify.log.warn({ err: (err as Error).message }, "health: database unavailable");
      return reply
        .code(503)
        .header("retry-after", "5")
        .send({ ok: false, database: kind, message: "database unavailable" });
    }
  });

  await fastify.register(
    async (api) => {
      // Every route's query is closed (api/validation.ts): one that takes no parameters refuses any, naming it.
      api.addHook("onRoute", (route) => {
        route.schema ??= {};
        route.schema.querystring ??= Type.Object({}, { additionalProperties: false });
      });
      await api.register(results, { prefix: "/results", readThreads: opts.config.ingestReadThreads });
      await api.register(ingest, { prefix: "/ingest" });
      await api.register(runs, { prefix: "/runs" });
      await api.register(facets, { prefix: "/facets" });
      await api.register(timeline, { prefix: "/timeline" });
      await api.register(regressions, { prefix: "/regressions" });
      await api.register(baselines, { prefix: "/baselines" });
      await api.register(compare, { prefix: "/compare" });
      await api.register(scaling, { prefix: "/scaling" });
      await api.register(durability, { prefix: "/durability" });
      await api.register(sweeps, { prefix: "/sweeps" });
      await api.register(capacity, { prefix: "/capacity" });
      await api.register(anova, { prefix: "/anova" });
      await api.register(repeatability, { prefix: "/repeatability" });
      await api.register(reference, { prefix: "/reference" });
    },
    { prefix: API_PREFIX },
  );
  // With reads protected, the dashboard's page and the API docs are reads too (health stays open for load balancers).
  if (opts.config.protectReads) {
    fastify.addHook("onRequest", async (req, reply) => {
      const path = req.url.split("?")[0]!;
      if (path === "/health" || path.startsWith(`${API_PREFIX}/`)) return;
      await fastify.readAccess(req, reply);
    });
  }
  await fastify.register(dashboard, { root: DASHBOARD_DIR });
};

/**
 * JSON bodies read strictly: UTF-8 only (RFC 8259 §8.1; a body declared UTF-16 was read as UTF-8 and stored garbled:
 * 415), and a repeated key is a 400 naming it (json-strict.ts); then Fastify's own parser, which refuses __proto__ and
 * constructor poisoning.
 */
function strictJson(fastify: FastifyInstance): void {
  const parse = fastify.getDefaultJsonParser("error", "error");
  fastify.removeContentTypeParser("application/json");
  fastify.addContentTypeParser("application/json", { parseAs: "string" }, (req, body, done) => {
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.headers["content-type"] ?? "")?.[1]?.toLowerCase();
    if (charset !== undefined && charset !== "utf-8" && charset !== "utf8") {
      const err = Object.assign(
        new Error(`charset ${charset} is not supported: send JSON as UTF-8 (RFC 8259 section 8.1)`),
        { statusCode: 415 },
      );
      return done(err, undefined);
    }
    const text = body as string;
    // A route may read its bodies elsewhere (the ingest route: on threads beside this one); what it leaves is read here.
    const readElsewhere = req.routeOptions.config?.readBody;
    if (readElsewhere) {
      readElsewhere(text).then(
        (value) => (value === undefined ? readHere(req, text, done) : done(null, value)),
        () => readHere(req, text, done),
      );
      return;
    }
    readHere(req, text, done);
  });

  function readHere(req: FastifyRequest, text: string, done: (err: Error | null, value?: unknown) => void): void {
    // A repeated key is named before the parser's own complaints (its text may also poison a prototype).
    const refuseDuplicate = () => {
      const duplicate = duplicateKey(text);
      if (!duplicate) return false;
      const message = `duplicate key ${JSON.stringify(duplicate.key)}: an object names each key once (a parser would keep one of them silently)`;
      done(new FieldValidationError("body", [{ path: duplicate.path, message }]), undefined);
      return true;
    };
    parse(req, text, (err: Error | null, value?: unknown) => {
      // Parsed first: counting its properties against the text's members is cheaper than scanning every body's keys.
      if ((err || repeatsKey(text, value)) && refuseDuplicate()) return;
      // Fastify validates a body left out as null: a JSON null sent as the body would read as no body at all (POST
      // /reference/load loaded every seed). No route takes null, so it is refused here, where it is still told apart.
      if (!err && value === null) {
        const field = { path: "/", message: "a body of JSON null: send an object, or no body" };
        return done(new FieldValidationError("body", [field]), undefined);
      }
      done(err, value);
    });
  }
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route reads its JSON bodies itself where it can (json-strict.ts ReadBodyElsewhere). */
    readBody?: ReadBodyElsewhere;
  }
}

function withDeadline<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)),
  );
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}

export default fp(app, { name: "ycsb-lab-api" });
