import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { AnovaResponse, ErrorResponse, RunFiltersQuery } from "../../../../model/api-schemas.js";
import { flatten, toCsv } from "../../../csv.js";
import { jsonOrCsv } from "../../../responses.js";
import { anova } from "../../../store/queries/anova.js";

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    "/",
    {
      onRequest: app.readAccess,
      schema: {
        summary:
          "Seed 003's two-way ANOVA of runtime (database x client threads) per workload and operation count, for published and measured sweeps",
        tags: ["analysis"],
        querystring: RunFiltersQuery,
        response: { 200: jsonOrCsv(AnovaResponse), 400: ErrorResponse },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const out = await anova(app.db, q);
      if (q.format === "csv") {
        const rows = out.analyses.flatMap((a) =>
          (["threadsNumeric", "threadsLevels"] as const).flatMap((fit) =>
            a[fit].rows.map((r) => ({
              ...flatten({
                scenario: a.scenario,
                source: a.sourceId,
                workload: a.workload,
                operationCount: a.operationCount,
                preset: a.preset,
                nodes: a.nodes,
              }),
              fit,
              ...r,
            })),
          ),
        );
        return reply.type("text/csv; charset=utf-8").send(toCsv(rows));
      }
      return out;
    },
  );
};
export default route;
