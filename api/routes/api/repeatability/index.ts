import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ErrorResponse, RepeatabilityQuery, RepeatabilityResponse } from "../../../../model/api-schemas.js";
import { flatten, toCsv } from "../../../csv.js";
import { jsonOrCsv } from "../../../responses.js";
import { repeatability } from "../../../store/queries/repeatability.js";

/** A group's verdict counts as one CSV cell ("valid:3 suspect:1"). */
const verdictList = (g: { verdicts: Record<string, number> }) =>
  Object.entries(g.verdicts)
    .map(([v, n]) => `${v}:${n}`)
    .join(" ");

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    "/",
    {
      onRequest: app.readAccess,
      schema: {
        summary:
          "Repeats of each configuration: mean, standard deviation, 95% CI, coefficient of variation, max difference of throughput over all of them; the first ?repeats listed",
        tags: ["analysis"],
        querystring: RepeatabilityQuery,
        response: { 200: jsonOrCsv(RepeatabilityResponse), 400: ErrorResponse },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const { repeats, ...filters } = q;
      const out = await repeatability(app.db, filters, repeats);
      if (q.format === "csv")
        return reply
          .type("text/csv; charset=utf-8")
          .send(
            toCsv(
              out.groups.map((g) =>
                flatten({ ...g, runs: g.runs.join(" "), repeats: g.repeats.length, verdicts: verdictList(g) }),
              ),
            ),
          );
      return out;
    },
  );
};
export default route;
