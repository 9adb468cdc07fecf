import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { DurabilityResponse, ErrorResponse, RunFiltersQuery } from "../../../../model/api-schemas.js";
import { flatten, toCsv } from "../../../csv.js";
import { jsonOrCsv } from "../../../responses.js";
import { durability } from "../../../store/queries/durability.js";

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    "/",
    {
      onRequest: app.readAccess,
      schema: {
        summary: "Durability presets side by side per engine and workload: throughput and latency",
        tags: ["analysis"],
        querystring: RunFiltersQuery,
        response: { 200: jsonOrCsv(DurabilityResponse), 400: ErrorResponse },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const out = await durability(app.db, q);
      if (q.format === "csv") {
        return reply.type("text/csv; charset=utf-8").send(
          toCsv(
            out.rows.flatMap((r) =>
              Object.entries(r.operations).map(([op, o]) => ({
                ...flatten({ ...r, operations: undefined }),
                operation: op,
                ...o,
              })),
            ),
          ),
        );
      }
      return out;
    },
  );
};
export default route;
