import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ErrorResponse, RunFiltersQuery, SweepsResponse } from "../../../../model/api-schemas.js";
import { toCsv } from "../../../csv.js";
import { jsonOrCsv } from "../../../responses.js";
import { sweeps } from "../../../store/queries/sweeps.js";

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    "/",
    {
      onRequest: app.readAccess,
      schema: {
        summary:
          "Throughput, runtime and latency against total client threads, one series per configuration (workload, operation count, ...); points are means over repeats with CI and n",
        tags: ["analysis"],
        querystring: RunFiltersQuery,
        response: { 200: jsonOrCsv(SweepsResponse), 400: ErrorResponse },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const out = await sweeps(app.db, q);
      if (q.format === "csv") {
        const rows = out.series.flatMap((s) =>
          s.points.flatMap((p) => {
            const base = {
              run: s.runId,
              engine: s.engine,
              preset: s.preset,
              nodes: s.nodes,
              workload: s.workload,
              operationCount: s.operationCount,
              source: s.sourceKind,
              phase: p.phase,
              threads: p.threads,
              target: p.target,
              complete: p.complete,
              n: p.throughput.n,
              throughputOpsSec: p.throughputOpsSec,
              throughputCi95HalfWidth: p.throughput.ci95?.halfWidth ?? null,
              runtimeMs: p.runtimeMs,
              runtimeCi95HalfWidth: p.runtime.ci95?.halfWidth ?? null,
            };
            const ops = Object.entries(p.latency);
            return ops.length ? ops.map(([op, l]) => ({ ...base, operation: op, ...l })) : [base];
          }),
        );
        return reply.type("text/csv; charset=utf-8").send(toCsv(rows));
      }
      return out;
    },
  );
};
export default route;
