import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { CompareResponse, ErrorResponse } from "../../../../model/api-schemas.js";
import { RUN_ID_CLASS } from "../../../../model/result-document.js";
import { toCsv } from "../../../csv.js";
import { jsonOrCsv } from "../../../responses.js";
import { compareRuns } from "../../../store/queries/runs.js";
import { phaseRows } from "../runs/index.js";

const RUN_ID = `${RUN_ID_CLASS}{1,200}`;
export const COMPARE_RUNS_PATTERN = `^ *${RUN_ID} *(, *${RUN_ID} *){0,19}$`;

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    "/",
    {
      onRequest: app.readAccess,
      schema: {
        summary:
          "Runs side by side: per phase, throughput summed over clients and percentiles from merged HDR histograms",
        tags: ["analysis"],
        querystring: Type.Object({
          // The rule stated as a pattern (1 to 20 run ids, as a run's id is written): a value the document calls valid
          // is one the route answers, and its longest fits Node's 16 KiB of headers (a free 4000 characters of text,
          // percent-encoded, was a 431 the schema called valid).
          runs: Type.String({
            minLength: 1,
            maxLength: 4200,
            pattern: COMPARE_RUNS_PATTERN,
            description: "comma-separated run ids (at most 20)",
          }),
          format: Type.Optional(Type.Union([Type.Literal("json"), Type.Literal("csv")])),
        }),
        response: { 200: jsonOrCsv(CompareResponse), 400: ErrorResponse },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const ids = [
        ...new Set(
          q.runs
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean),
        ),
      ];
      if (ids.length === 0 || ids.length > 20)
        throw app.httpErrors.badRequest(`runs: give 1 to 20 run ids, got ${ids.length}`);
      const out = await compareRuns(app.db, ids);
      if (q.format === "csv") return reply.type("text/csv; charset=utf-8").send(toCsv(out.runs.flatMap(phaseRows)));
      return out;
    },
  );
};
export default route;
