import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { ErrorResponse, RegressionsResponse, RunFiltersQuery } from "../../../../model/api-schemas.js";
import { regressions } from "../../../store/histories.js";

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    "/",
    {
      onRequest: app.readAccess,
      schema: {
        summary:
          "Change points in each configuration's history (E-Divisive means as Otava/Hunter), ordered by time or engine version, with the difference of each run to the configuration's baseline",
        tags: ["analysis"],
        querystring: Type.Composite([
          Type.Omit(RunFiltersQuery, ["format", "include", "source"]),
          // Optional: left out it is "time" (a required parameter with a default contradicted the document).
          Type.Object({
            order: Type.Optional(
              Type.Union([Type.Literal("time"), Type.Literal("version")], {
                default: "time",
                description: "runs in start order, or by engine version",
              }),
            ),
            // Left out: every run (the whole history); the Regressions view asks for a window.
            last: Type.Optional(
              Type.Integer({
                minimum: 1,
                maximum: 100_000,
                description: "each configuration's newest runs only (by start time), at most this many",
              }),
            ),
          }),
        ]),
        response: { 200: RegressionsResponse, 400: ErrorResponse },
      },
    },
    async (req) => regressions(app.db, req.query, req.query.order ?? "time", req.query.last),
  );
};
export default route;
