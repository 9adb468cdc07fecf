import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { CapacityResponse, ErrorResponse, RunFiltersQuery } from "../../../../model/api-schemas.js";
import { toCsv } from "../../../csv.js";
import { jsonOrCsv } from "../../../responses.js";
import { capacity } from "../../../store/queries/capacity.js";

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    "/",
    {
      onRequest: app.readAccess,
      schema: {
        summary:
          "Sustainable throughput under each capacity search's latency SLO per configuration (mean, CI and n over repeats), its price per hour and per million operations, and each search's step ladder",
        tags: ["analysis"],
        querystring: RunFiltersQuery,
        response: { 200: jsonOrCsv(CapacityResponse), 400: ErrorResponse },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const out = await capacity(app.db, q);
      if (q.format === "csv") {
        const rows = out.configurations.map((c) => ({
          engine: c.engine,
          preset: c.preset,
          nodes: c.nodes,
          dataInstanceType: c.instanceTypes.data,
          standIn: c.standIn,
          scenario: c.scenario,
          search: c.search,
          sloPercentile: c.slo.percentile,
          sloLimitMs: c.slo.limitMs,
          sustainableOpsSec: c.sustainable.mean,
          n: c.sustainable.n,
          ci95Low: c.sustainable.ci95?.low ?? null,
          ci95High: c.sustainable.ci95?.high ?? null,
          usdPerHour: c.price.priced ? c.price.usdPerHour : null,
          usdPerMillionOps: c.price.priced ? c.price.usdPerMillionOps : null,
          price: c.price.priced ? `${c.price.source} as of ${c.price.pricesAsOf}` : c.price.statement,
          verdict: c.verdict,
          leftOutInvalid: c.leftOut.invalid,
        }));
        return reply.type("text/csv; charset=utf-8").send(toCsv(rows));
      }
      return out;
    },
  );
};
export default route;
