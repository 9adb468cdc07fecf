import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ErrorResponse, RunFiltersQuery, ScalingResponse } from "../../../../model/api-schemas.js";
import { toCsv } from "../../../csv.js";
import { jsonOrCsv } from "../../../responses.js";
import { scaling } from "../../../store/queries/scaling.js";

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    "/",
    {
      onRequest: app.readAccess,
      schema: {
        summary:
          "Throughput against nodes per engine (mean, CI and n over repeats), with the ideal-linear line and seed 002's scalability score",
        tags: ["analysis"],
        querystring: RunFiltersQuery,
        response: { 200: jsonOrCsv(ScalingResponse), 400: ErrorResponse },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const out = await scaling(app.db, q);
      if (q.format === "csv") {
        const rows = out.series.flatMap((s) =>
          s.points.map((p, i) => ({
            engine: s.engine,
            workload: s.workload,
            preset: s.preset,
            source: s.sourceKind,
            operationCount: s.operationCount,
            nodes: p.nodes,
            throughputOpsSec: p.throughputOpsSec,
            n: p.throughput.n,
            ci95Low: p.throughput.ci95?.low ?? null,
            ci95High: p.throughput.ci95?.high ?? null,
            idealLinearOpsSec: s.analysis.idealLinear[i]?.throughputOpsSec,
            efficiency: s.analysis.steps.find((st) => st.toNodes === p.nodes)?.efficiency ?? null,
            score: s.analysis.score,
            runs: p.runs,
            leftOutInvalid: p.leftOut.invalid,
          })),
        );
        return reply.type("text/csv; charset=utf-8").send(toCsv(rows));
      }
      return out;
    },
  );
};
export default route;
