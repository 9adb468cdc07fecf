import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { flatten, toCsv } from "../../../csv.js";
import { ErrorResponse, LeftOutSchema, RepeatGroupSchema, RunFiltersQuery, type RunFiltersQueryT } from "../../../schemas.js";
import { repeatability } from "../../../store/queries.js";

const route: FastifyPluginAsync = async (app) => {
  app.get(
    "/",
    {
      onRequest: app.readAccess,
      schema: {
        summary: "Repeats of one configuration: mean, standard deviation, 95% CI, coefficient of variation, max difference of throughput",
        tags: ["analysis"],
        querystring: RunFiltersQuery,
        response: { 200: Type.Object({ groups: Type.Array(RepeatGroupSchema), leftOut: LeftOutSchema }), 400: ErrorResponse },
      },
    },
    async (req, reply) => {
      const q = req.query as RunFiltersQueryT;
      const out = await repeatability(app.db, q);
      if (q.format === "csv") return reply.type("text/csv; charset=utf-8").send(toCsv(out.groups.map((g) => flatten({ ...g, runs: g.runs.join(" "), repeats: g.repeats.length }))));
      return out;
    },
  );
};
export default route;
