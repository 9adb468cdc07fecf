/**
 * Fastify plugin serving the built dashboard (web/dist) at `/`. api/app.ts registers it; it builds the
 * dashboard first when web/dist is missing (a fresh clone running `npm start`).
 */
import { existsSync } from "node:fs";
import fastifyStatic from "@fastify/static";
import type { FastifyPluginAsync } from "fastify";
import { buildDashboard, DIST_DIR } from "./build.js";

export interface DashboardOptions {
  /** Directory holding index.html and app.js. @default web/dist */
  root?: string;
  /** Build into `root` when its index.html is missing. @default true */
  buildIfMissing?: boolean;
}

const dashboard: FastifyPluginAsync<DashboardOptions> = async (app, options) => {
  const root = options.root ?? DIST_DIR;
  if (!existsSync(`${root}/index.html`)) {
    if (options.buildIfMissing === false || root !== DIST_DIR) {
      throw new Error(`dashboard: ${root}/index.html is missing; run "npm run build:web" first`);
    }
    app.log.info("dashboard: web/dist missing, building it");
    await buildDashboard();
  }
  // decorateReply false: the API's own static assets (swagger-ui) keep their reply.sendFile.
  await app.register(fastifyStatic, { root, prefix: "/", decorateReply: false, index: ["index.html"], wildcard: false });
};

export default dashboard;
export { dashboard };
