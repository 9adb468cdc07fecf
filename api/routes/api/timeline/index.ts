import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { ErrorResponse, RunFiltersQuery, TimelineResponse } from "../../../../model/api-schemas.js";
import { timeline } from "../../../store/queries/landing.js";

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    "/",
    {
      onRequest: app.readAccess,
      schema: {
        summary:
          "The latest measured runs matching the filters, newest first, each with its headline throughput (the landing chart)",
        tags: ["runs"],
        querystring: Type.Composite([
          Type.Omit(RunFiltersQuery, ["format", "include", "source"]),
          Type.Object({
            verdict: Type.Optional(
              Type.Union([Type.Literal("valid"), Type.Literal("warning"), Type.Literal("invalid")]),
            ),
            limit: Type.Integer({ minimum: 1, maximum: 5000, default: 1000 }),
          }),
        ]),
        response: { 200: TimelineResponse, 400: ErrorResponse },
      },
    },
    async (req) => timeline(app.db, req.query, req.query.limit),
  );
};
export default route;
