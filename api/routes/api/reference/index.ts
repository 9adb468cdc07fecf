import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { ErrorResponse, ReferenceTableSchema, ReferenceTablesResponse } from "../../../../model/api-schemas.js";
import { referenceSeries } from "../../../../model/reference-series.js";
import type { ReferenceTable } from "../../../../prisma/generated/client.js";
import { toCsv } from "../../../csv.js";
import { jsonOrCsv } from "../../../responses.js";
import { loadReferenceData, SEEDS } from "../../../store/reference-data.js";
import { storedObject } from "../../../store/stored-values.js";

const route: FastifyPluginAsyncTypebox = async (app) => {
  // The reference loader behind the API: `ycsb-lab ingest --reference` writes through the server that owns a PGlite
  // directory. Published runs come only from the transcribed seed files, never from the request.
  app.post(
    "/load",
    {
      onRequest: app.requireToken,
      schema: {
        summary: "Load the seeds' published tables (prisma/reference) into the store: the reference loader, idempotent",
        tags: ["reference"],
        security: [{ bearer: [] }],
        body: Type.Optional(
          Type.Object(
            {
              seeds: Type.Optional(
                Type.Array(Type.Union(SEEDS.map((s) => Type.Literal(s))), { minItems: 1, uniqueItems: true }),
              ),
            },
            { additionalProperties: false },
          ),
        ),
        response: {
          200: Type.Object({
            tables: Type.Integer(),
            documents: Type.Integer(),
            created: Type.Integer(),
            replaced: Type.Integer(),
          }),
          401: ErrorResponse,
        },
      },
    },
    async (req) => loadReferenceData(app.db, req.body?.seeds ?? SEEDS),
  );

  app.get(
    "/",
    {
      onRequest: app.readAccess,
      schema: {
        summary: "The seeds' published tables, transcribed verbatim with their citation",
        tags: ["reference"],
        querystring: Type.Object({ seed: Type.Optional(Type.String({ maxLength: 10 })) }),
        response: { 200: ReferenceTablesResponse },
      },
    },
    async (req) => {
      const { seed } = req.query;
      const tables = await app.db.referenceTable.findMany({ where: seed ? { seed } : {}, orderBy: { id: "asc" } });
      return { tables: tables.map(tableView) };
    },
  );
  app.get(
    "/:id",
    {
      onRequest: app.readAccess,
      schema: {
        summary: "One published table (JSON or ?format=csv)",
        tags: ["reference"],
        params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
        querystring: Type.Object({ format: Type.Optional(Type.Union([Type.Literal("json"), Type.Literal("csv")])) }),
        response: { 200: jsonOrCsv(ReferenceTableSchema), 404: ErrorResponse },
      },
    },
    async (req, reply) => {
      const { id } = req.params;
      const t = await app.db.referenceTable.findUnique({ where: { id } });
      if (!t) throw app.httpErrors.notFound(`reference table ${id} not found`);
      if (req.query.format === "csv") {
        const { columns, rows } = tableView(t);
        return reply
          .type("text/csv; charset=utf-8")
          .send(toCsv(rows.map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i]])))));
      }
      return tableView(t);
    },
  );
};
/** A stored table as the contract states it: JSON of another shape reads as empty, a cell of another type as its text. */
function tableView(t: ReferenceTable) {
  const cell = (v: unknown): string | number | null =>
    v === null || typeof v === "string" || typeof v === "number" ? v : String(v);
  return {
    ...t,
    columns: Array.isArray(t.columns) ? t.columns.map(String) : [],
    rows: Array.isArray(t.rows) ? t.rows.flatMap((r) => (Array.isArray(r) ? [r.map(cell)] : [])) : [],
    derive: storedObject(t.derive),
    series: referenceSeries(t),
  };
}
export default route;
