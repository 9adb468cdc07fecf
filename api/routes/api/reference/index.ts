import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { toCsv } from "../../../csv.js";
import { referenceSeries } from "../../../../model/reference-series.js";
import { ErrorResponse } from "../../../schemas.js";
import { loadReferenceData, SEEDS } from "../../../../prisma/reference/load.js";

const ReferenceTableSchema = Type.Object({
  id: Type.String(),
  seed: Type.String(),
  tableRef: Type.String(),
  title: Type.String(),
  citation: Type.String(),
  unit: Type.Union([Type.String(), Type.Null()]),
  columns: Type.Array(Type.String()),
  rows: Type.Array(Type.Array(Type.Union([Type.String(), Type.Number(), Type.Null()]))),
  notes: Type.Union([Type.String(), Type.Null()]),
  /** How the table reads as results (prisma/reference/load.ts RunsDerive / LatencyDerive); null for tables kept as text only. */
  derive: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  /** A latency table (derive metric "mean-latency") as one series per engine, in microseconds (model/reference-series.ts). */
  series: Type.Array(
    Type.Object({
      engine: Type.String(),
      metric: Type.Literal("mean-latency"),
      workload: Type.Union([Type.String(), Type.Null()]),
      operation: Type.Union([Type.String(), Type.Null()]),
      points: Type.Array(Type.Object({ nodes: Type.Integer(), valueUs: Type.Number() })),
    }),
  ),
});

const route: FastifyPluginAsync = async (app) => {
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
        body: Type.Optional(Type.Object({ seeds: Type.Optional(Type.Array(Type.Union(SEEDS.map((s) => Type.Literal(s))), { minItems: 1, uniqueItems: true })) }, { additionalProperties: false })),
        response: { 200: Type.Object({ tables: Type.Integer(), documents: Type.Integer(), created: Type.Integer(), replaced: Type.Integer() }), 401: ErrorResponse },
      },
    },
    async (req) => loadReferenceData(app.db, (req.body as { seeds?: string[] } | undefined)?.seeds ?? SEEDS),
  );

  app.get(
    "/",
    {
      onRequest: app.readAccess,
      schema: {
        summary: "The seeds' published tables, transcribed verbatim with their citation",
        tags: ["reference"],
        querystring: Type.Object({ seed: Type.Optional(Type.String({ maxLength: 10 })) }),
        response: { 200: Type.Object({ tables: Type.Array(ReferenceTableSchema) }) },
      },
    },
    async (req) => {
      const { seed } = req.query as { seed?: string };
      const tables = await app.db.referenceTable.findMany({ where: seed ? { seed } : {}, orderBy: { id: "asc" } });
      return { tables: tables.map((t) => ({ ...t, series: referenceSeries(t) })) };
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
        response: { 200: ReferenceTableSchema, 404: ErrorResponse },
      },
    },
    async (req, reply) => {
      const { id } = req.params as { id: string };
      const t = await app.db.referenceTable.findUnique({ where: { id } });
      if (!t) throw app.httpErrors.notFound(`reference table ${id} not found`);
      if ((req.query as { format?: string }).format === "csv") {
        const cols = t.columns as string[];
        return reply.type("text/csv; charset=utf-8").send(toCsv((t.rows as unknown[][]).map((r) => Object.fromEntries(cols.map((c, i) => [c, r[i]])))));
      }
      return { ...t, series: referenceSeries(t) };
    },
  );
};
export default route;
