import helmet from "@fastify/helmet";
import fp from "fastify-plugin";

/**
 * Security headers; the CSP allows the Swagger UI's inline styles at /docs. No upgrade-insecure-requests: the service
 * speaks plain HTTP (TLS, where used, ends at a proxy in front), and on plain HTTP that directive makes a browser fetch
 * the dashboard's own script over https from a host name, which fails and leaves the page blank.
 */
export default fp(
  async (app) => {
    await app.register(helmet, {
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
  },
  { name: "helmet" },
);
