import rateLimit from "@fastify/rate-limit";
import fp from "fastify-plugin";
import type { AppConfig } from "../../config.js";

export default fp<{ config: AppConfig }>(async (app, { config }) => {
  await app.register(rateLimit, { max: config.rateLimit.max, timeWindow: config.rateLimit.timeWindow });
}, { name: "rate-limit" });
