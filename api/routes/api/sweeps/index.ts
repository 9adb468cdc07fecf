import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { toCsv } from "../../../csv.js";
import { ErrorResponse, RunFiltersQuery, SweepSeries, type RunFiltersQueryT } from "../../../schemas.js";
import { sweeps } from "../../../store/queries.js";

const route: FastifyPluginAsync = async (app) => {
  app.get(
    "/",
    {
      preHandler: app.readAccess,
      schema: {
        summary: "Throughput and latency against total client threads, one series per run and workload",
        tags: ["analysis"],
        querystring: RunFiltersQuery,
        response: { 200: Type.Object({ series: Type.Array(SweepSeries) }), 400: ErrorResponse },
      },
    },
    async (req, reply) => {
      const q = req.query as RunFiltersQueryT;
      const series = await sweeps(app.db, q);
      if (q.format === "csv") {
        const rows = series.flatMap((s) =>
          s.points.flatMap((p) => {
            const base = { run: s.runId, engine: s.engine, preset: s.preset, nodes: s.nodes, workload: s.workload, source: s.sourceKind, phase: p.phase, threads: p.threads, target: p.target, complete: p.complete, throughputOpsSec: p.throughputOpsSec };
            const ops = Object.entries(p.latency);
            return ops.length ? ops.map(([op, l]) => ({ ...base, operation: op, ...l })) : [base];
          }),
        );
        return reply.type("text/csv; charset=utf-8").send(toCsv(rows));
      }
      return { series };
    },
  );
};
export default route;
