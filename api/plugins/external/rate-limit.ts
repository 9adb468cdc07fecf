import rateLimit from "@fastify/rate-limit";
import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { AppConfig } from "../../config.js";

declare module "fastify" {
  interface FastifyInstance {
    /**
     * Spends one unit of the client address's budget (RATE_LIMIT_MAX per RATE_LIMIT_WINDOW) or answers 429: called for
     * what costs the service work, a write or a read computing its answer (api/plugins/app/compute-gate.ts). An
     * answer kept in the cache costs nothing, so sixteen viewers of one team behind one address are not refused.
     */
    spendBudget: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

export default fp<{ config: AppConfig }>(
  async (app, { config }) => {
    await app.register(rateLimit, {
      global: false,
      max: config.rateLimit.max,
      timeWindow: config.rateLimit.timeWindow,
    });
    const limit = app.createRateLimit({ max: config.rateLimit.max, timeWindow: config.rateLimit.timeWindow });
    app.decorate("spendBudget", async (req: FastifyRequest, reply: FastifyReply) => {
      const r = await limit(req);
      if (r.isAllowed || !r.isExceeded) return;
      reply.header("retry-after", String(r.ttlInSeconds));
      throw app.httpErrors.tooManyRequests(
        `over ${r.max} requests that compute or write per ${config.rateLimit.timeWindow} from this address: try again in ${r.ttlInSeconds} s (answers already computed are not counted)`,
      );
    });
  },
  { name: "rate-limit", dependencies: ["sensible"] },
);
