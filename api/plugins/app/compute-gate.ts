import type { FastifyRequest, RouteHandlerMethod } from "fastify";
import fp from "fastify-plugin";
import type { AppConfig } from "../../config.js";
import { ComputeQueue } from "./compute-queue.js";

/**
 * Reads that compute an answer (a cache miss, api/plugins/app/response-cache.ts) take turns (compute-queue.ts): a few
 * at once, so the database's connections stay free for writes, /health and the cache's own lookups (Postgres' pool
 * holds 10; a view runs up to 3 queries at once), and per client address in turn, so a client asking for answers
 * nobody else wants waits behind itself. A request whose client disconnects while it waits is dropped: no answer is
 * computed for a client that is gone. A computation already running finishes (Postgres cannot be interrupted through
 * Prisma) and its answer is kept for the next request.
 */
export interface ComputeGateOptions {
  config: AppConfig;
  prefix: string;
}

declare module "fastify" {
  interface FastifyRequest {
    computeRelease?: () => void;
  }
}

/** Computations at once: Postgres leaves 4 of its 10 connections to the rest; PGlite runs one statement at a time. */
export const COMPUTE_SLOTS = { postgres: 3, pglite: 2 } as const;

/** A request dropped while waiting for its turn because its client closed the connection (nginx's code for it). */
export class ClientGoneError extends Error {
  readonly statusCode = 499;
  constructor() {
    super("the client closed the connection before its answer was computed");
  }
}

export default fp<ComputeGateOptions>(
  async (app, { config, prefix }) => {
    const queue = new ComputeQueue(config.computeSlots ?? COMPUTE_SLOTS[app.database.kind]);
    app.decorate("computeQueue", queue);
    const gated = (req: FastifyRequest) => req.method === "GET" && req.url.startsWith(prefix);

    app.addHook("preHandler", async (req, reply) => {
      if (!req.url.startsWith(prefix)) return;
      // A write, or a read that computes its answer, spends the address's budget; an answer kept in the cache does not.
      if (!gated(req)) return app.spendBudget(req, reply);
      if (req.responseCache?.served) return;
      await app.spendBudget(req, reply);
      const gone = new AbortController();
      const onClose = () => {
        if (!reply.raw.writableEnded) gone.abort(new ClientGoneError());
      };
      reply.raw.once("close", onClose);
      try {
        req.computeRelease = await queue.acquire(req.ip, gone.signal);
      } finally {
        reply.raw.off("close", onClose);
      }
    });

    // The slot is held until the handler returns (or throws): wrapped per route, so no path can leak it.
    app.addHook("onRoute", (route) => {
      const handler = route.handler as RouteHandlerMethod;
      route.handler = async function (this: unknown, req, reply) {
        try {
          return await handler.call(this as never, req, reply);
        } finally {
          req.computeRelease?.();
        }
      } as RouteHandlerMethod;
    });
  },
  { name: "compute-gate", dependencies: ["database", "rate-limit"] },
);

declare module "fastify" {
  interface FastifyInstance {
    computeQueue: ComputeQueue;
  }
}
