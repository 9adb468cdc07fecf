import helmet from "@fastify/helmet";
import fp from "fastify-plugin";

// Security headers; the CSP allows the Swagger UI's inline styles at /docs.
export default fp(async (app) => {
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: { defaultSrc: ["'self'"], styleSrc: ["'self'", "'unsafe-inline'"], imgSrc: ["'self'", "data:", "validator.swagger.io"], scriptSrc: ["'self'"] },
    },
  });
}, { name: "helmet" });
