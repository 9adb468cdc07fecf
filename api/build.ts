import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import Fastify, { type FastifyInstance } from "fastify";
import app from "./app.js";
import type { AppConfig } from "./config.js";
import type { Database } from "./db/open.js";

/** Default whole-request deadline: a 16 MiB batch over a slow link fits; a client trickling bytes does not hold on. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** A ready Fastify instance with the app registered (tests call it and use app.inject). */
export async function buildApp(
  config: AppConfig,
  opts: { database?: Database; logLevel?: string } = {},
): Promise<FastifyInstance> {
  const requestTimeout = config.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const fastify = Fastify({
    logger: { level: opts.logLevel ?? "info", redact: ["req.headers.authorization"] },
    bodyLimit: config.bodyLimit,
    // A hop count trusts that many proxies nearest the service (proxy-addr's rule, as a function for Fastify's types).
    trustProxy:
      typeof config.trustProxy === "number"
        ? (
            (hops: number) => (_address: string, hop: number) =>
              hop < hops
          )(config.trustProxy)
        : (config.trustProxy ?? false),
    // Slow clients (Node's http server, answered 408 and closed): headers within a third of the deadline, the whole
    // request within it. Node checks these every connectionsCheckingInterval (30 s by default): every second here, so
    // a trickling client is cut near its deadline. A slow answer is not cut: the client is waiting for it. Idle
    // keep-alive connections close after Fastify's 72 s (above a load balancer's 60 s idle timeout).
    serverFactory: (handler: (req: IncomingMessage, res: ServerResponse) => void): Server =>
      createServer(
        {
          requestTimeout,
          headersTimeout: Math.ceil(requestTimeout / 3),
          connectionsCheckingInterval: Math.min(1_000, requestTimeout),
        },
        handler,
      ),
    // Opening the database applies migrations (wasm schema engine) and may start PGlite: more than Fastify's 10 s default on a busy machine.
    pluginTimeout: 120_000,
    // Path parameters as long as their schemas allow (run ids, phase names: 200) reach validation, which names them
    // (a longer one was a 414 the contract did not state). No HEAD beside GET: the OpenAPI document states no HEAD, and
    // a method the document does not state is a 405 (api/plugins/app/contract.ts).
    routerOptions: { maxParamLength: 1_000 },
    exposeHeadRoutes: false,
    // Bodies may nest deeply only so far; Fastify's JSON parser guards against prototype poisoning.
    onProtoPoisoning: "error",
    onConstructorPoisoning: "error",
  });
  await fastify.register(app, { config, ...(opts.database ? { database: opts.database } : {}) });
  await fastify.ready();
  return fastify;
}
