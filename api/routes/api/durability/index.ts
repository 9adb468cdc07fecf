import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { flatten, toCsv } from "../../../csv.js";
import { DurabilityRow, ErrorResponse, LeftOutSchema, RunFiltersQuery, type RunFiltersQueryT } from "../../../schemas.js";
import { durability } from "../../../store/queries.js";

const route: FastifyPluginAsync = async (app) => {
  app.get(
    "/",
    {
      onRequest: app.readAccess,
      schema: {
        summary: "Durability presets side by side per engine and workload: throughput and latency",
        tags: ["analysis"],
        querystring: RunFiltersQuery,
        response: { 200: Type.Object({ rows: Type.Array(DurabilityRow), leftOut: LeftOutSchema }), 400: ErrorResponse },
      },
    },
    async (req, reply) => {
      const q = req.query as RunFiltersQueryT;
      const out = await durability(app.db, q);
      if (q.format === "csv") {
        return reply
          .type("text/csv; charset=utf-8")
          .send(toCsv(out.rows.flatMap((r) => Object.entries(r.operations).map(([op, o]) => ({ ...flatten({ ...r, operations: undefined }), operation: op, ...o })))));
      }
      return out;
    },
  );
};
export default route;
