import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import fp from "fastify-plugin";
import { OPTIONAL_BODIES } from "../app/contract.js";

type Operations = Record<string, Record<string, { requestBody?: { required?: boolean } }>>;

/** A body the route takes as optional is not required in the document (the plugin marks every body required). */
function optionalBodies<T extends { paths?: unknown }>(doc: T): T {
  for (const [path, operations] of Object.entries((doc.paths ?? {}) as Operations)) {
    for (const [method, op] of Object.entries(operations)) {
      if (op.requestBody && OPTIONAL_BODIES.has(`${method.toUpperCase()} ${path}`)) op.requestBody.required = false;
    }
  }
  return doc;
}

/** OpenAPI document from the routes' TypeBox schemas, served at /docs (UI) and /docs/json. */
export default fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        info: {
          title: "ycsb-lab results API",
          version: "1",
          description: "YCSB results: ingest, runs, comparisons, scaling, durability, sweeps, repeatability, capacity.",
        },
        components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
      },
      transformObject: (document) =>
        "openapiObject" in document ? optionalBodies(document.openapiObject) : document.swaggerObject,
    });
    await app.register(swaggerUi, { routePrefix: "/docs" });
  },
  { name: "swagger" },
);
