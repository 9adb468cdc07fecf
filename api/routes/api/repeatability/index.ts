import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ErrorResponse, RepeatabilityResponse, RunFiltersQuery } from "../../../../model/api-schemas.js";
import { flatten, toCsv } from "../../../csv.js";
import { jsonOrCsv } from "../../../responses.js";
import { repeatability } from "../../../store/queries/repeatability.js";

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    "/",
    {
      onRequest: app.readAccess,
      schema: {
        summary:
          "Repeats of one configuration: mean, standard deviation, 95% CI, coefficient of variation, max difference of throughput",
        tags: ["analysis"],
        querystring: RunFiltersQuery,
        response: { 200: jsonOrCsv(RepeatabilityResponse), 400: ErrorResponse },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const out = await repeatability(app.db, q);
      if (q.format === "csv")
        return reply
          .type("text/csv; charset=utf-8")
          .send(toCsv(out.groups.map((g) => flatten({ ...g, runs: g.runs.join(" "), repeats: g.repeats.length }))));
      return out;
    },
  );
};
export default route;
