/**
 * Fastify plugin serving the built dashboard (web/dist) at `/`. api/app.ts registers it; it builds the
 * dashboard first when web/dist is missing (a fresh clone running `npm start`) or older than its sources (a pull).
 */
import { existsSync } from "node:fs";
import fastifyStatic from "@fastify/static";
import type { FastifyPluginAsync } from "fastify";
import { buildDashboard, dashboardBuildReason, DIST_DIR } from "./build.js";

export interface DashboardOptions {
  /** Directory holding index.html and app.js. @default web/dist */
  root?: string;
  /** Build into `root` when it is missing or older than its sources. @default true */
  buildIfMissing?: boolean;
}

const dashboard: FastifyPluginAsync<DashboardOptions> = async (app, options) => {
  const root = options.root ?? DIST_DIR;
  const reason = root === DIST_DIR && options.buildIfMissing !== false ? dashboardBuildReason(root) : null;
  if (reason) {
    app.log.info(`dashboard: ${reason}, building it`);
    try {
      await buildDashboard();
    } catch (err) {
      // A stale bundle still serves (an install without the dev tools cannot rebuild it); a missing one cannot.
      if (!existsSync(`${root}/index.html`) || !existsSync(`${root}/app.js`)) throw err;
      app.log.warn(`dashboard: rebuild failed (${(err as Error).message}); serving the existing web/dist`);
    }
  } else if (!existsSync(`${root}/index.html`)) {
    throw new Error(`dashboard: ${root}/index.html is missing; run "npm run build:web" first`);
  }
  // decorateReply false: the API's own static assets (swagger-ui) keep their reply.sendFile.
  await app.register(fastifyStatic, { root, prefix: "/", decorateReply: false, index: ["index.html"], wildcard: false });
};

export default dashboard;
export { dashboard };
