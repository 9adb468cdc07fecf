import fp from "fastify-plugin";
import helmet from "helmet";

/**
 * Security headers; the CSP allows the Swagger UI's inline styles at /docs. No upgrade-insecure-requests: the service
 * speaks plain HTTP (TLS, where used, ends at a proxy in front), and on plain HTTP that directive makes a browser fetch
 * the dashboard's own script over https from a host name, which fails and leaves the page blank.
 *
 * Helmet's middleware is built once and applied to every request. @fastify/helmet built it again per request (every
 * header's middleware made and the CSP's directives parsed each time): 2.5 % of the API's thread under 16 viewers and a
 * writer (the team table, docs/benchmarks.md), for the same headers on every answer. No route sets options of its
 * own, and no CSP nonces are used.
 */
export const SECURITY_HEADERS = helmet({
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:", "validator.swagger.io"],
      scriptSrc: ["'self'"],
      upgradeInsecureRequests: null,
    },
  },
});

export default fp(
  async (app) => {
    app.addHook("onRequest", (req, reply, next) =>
      SECURITY_HEADERS(req.raw, reply.raw, (err) => next(err instanceof Error ? err : undefined)),
    );
  },
  { name: "helmet" },
);
