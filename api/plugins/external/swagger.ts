import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import fp from "fastify-plugin";

/** OpenAPI document from the routes' TypeBox schemas, served at /docs (UI) and /docs/json. */
export default fp(async (app) => {
  await app.register(swagger, {
    openapi: {
      info: { title: "ycsb-lab results API", version: "1", description: "YCSB results: ingest, runs, comparisons, scaling, durability, sweeps, repeatability." },
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    },
  });
  await app.register(swaggerUi, { routePrefix: "/docs" });
}, { name: "swagger" });
