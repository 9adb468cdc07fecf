import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { flatten, toCsv } from "../../../csv.js";
import { AnovaAnalysisSchema, ErrorResponse, LeftOutSchema, RunFiltersQuery, type RunFiltersQueryT } from "../../../schemas.js";
import { anova } from "../../../store/queries.js";

const route: FastifyPluginAsync = async (app) => {
  app.get(
    "/",
    {
      onRequest: app.readAccess,
      schema: {
        summary: "Seed 003's two-way ANOVA of runtime (database x client threads) per workload and operation count, for published and measured sweeps",
        tags: ["analysis"],
        querystring: RunFiltersQuery,
        response: { 200: Type.Object({ analyses: Type.Array(AnovaAnalysisSchema), leftOut: LeftOutSchema }), 400: ErrorResponse },
      },
    },
    async (req, reply) => {
      const q = req.query as RunFiltersQueryT;
      const out = await anova(app.db, q);
      if (q.format === "csv") {
        const rows = out.analyses.flatMap((a) =>
          (["threadsNumeric", "threadsLevels"] as const).flatMap((fit) =>
            a[fit].rows.map((r) => ({ ...flatten({ scenario: a.scenario, source: a.sourceId, workload: a.workload, operationCount: a.operationCount, preset: a.preset, nodes: a.nodes }), fit, ...r })),
          ),
        );
        return reply.type("text/csv; charset=utf-8").send(toCsv(rows));
      }
      return out;
    },
  );
};
export default route;
