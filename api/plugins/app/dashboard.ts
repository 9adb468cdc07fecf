import { existsSync } from "node:fs";
import fastifyStatic from "@fastify/static";
import type { FastifyPluginAsync } from "fastify";

/**
 * Serves the built dashboard (index.html, app.js, styles.css) at `/`. The API only serves those files: building them is
 * `npm run build:web` (run by `npm start`, and when the server package is packed), so a server installed without
 * dev tools never needs esbuild, and the API imports nothing of web/.
 */
export interface DashboardOptions {
  /** Directory holding index.html and app.js (api/app.ts: web/dist). */
  root: string;
}

const dashboard: FastifyPluginAsync<DashboardOptions> = async (app, options) => {
  const { root } = options;
  if (!existsSync(`${root}/index.html`) || !existsSync(`${root}/app.js`)) {
    // The API still serves; the page says what to do instead of a bare 404. Not an API operation: hidden from the
    // OpenAPI document, as @fastify/static hides the built dashboard's files.
    const why = `the dashboard is not built (${root} has no index.html and app.js): run "npm run build:web"`;
    app.log.warn(why);
    app.get("/", { schema: { hide: true } }, async (_req, reply) =>
      reply.code(503).type("text/plain").send(`${why}\n`),
    );
    return;
  }
  // decorateReply false: the API's own static assets (swagger-ui) keep their reply.sendFile.
  await app.register(fastifyStatic, {
    root,
    prefix: "/",
    decorateReply: false,
    index: ["index.html"],
    wildcard: false,
  });
};

export default dashboard;
