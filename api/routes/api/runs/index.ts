import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { flatten, toCsv } from "../../../csv.js";
import { ErrorResponse, RunFiltersQuery, RunSummary, RunWithPhases, FormatQuery, type RunFiltersQueryT } from "../../../schemas.js";
import { getRun, listRuns, phaseSeries } from "../../../store/queries.js";
import { deleteRun, quarantineRun } from "../../../store/run-admin.js";

/** Pages reach at most this far: Postgres OFFSET beyond int4 went through the driver as a wrapped value and returned rows. */
const MAX_OFFSET = 2 ** 31 - 1;

const route: FastifyPluginAsync = async (app) => {
  app.get(
    "/",
    {
      onRequest: app.readAccess,
      schema: {
        summary: "Runs, newest first, filtered by engine, version, preset, nodes, workload, instance type, scenario, date and source",
        tags: ["runs"],
        querystring: Type.Composite([RunFiltersQuery, Type.Object({ verdict: Type.Optional(Type.Union([Type.Literal("valid"), Type.Literal("warning"), Type.Literal("invalid")])), quarantined: Type.Optional(Type.Union([Type.Literal("include"), Type.Literal("exclude"), Type.Literal("only")], { description: "quarantined runs: listed too (default), left out, or only they" })), limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }), offset: Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0 }) })]),
        response: { 200: Type.Object({ total: Type.Integer(), runs: Type.Array(RunSummary) }), 400: ErrorResponse },
      },
    },
    async (req, reply) => {
      const q = req.query as RunFiltersQueryT & { verdict?: "valid" | "warning" | "invalid"; quarantined?: "include" | "exclude" | "only"; limit: number; offset: number };
      const out = await listRuns(app.db, q, { limit: q.limit, offset: q.offset });
      if (q.format === "csv") return reply.type("text/csv; charset=utf-8").send(toCsv(out.runs.map((r) => flatten({ ...r, quarantine: r.quarantine ?? undefined, reasons: r.reasons.join("; "), workloads: r.workloads.join(" ") }))));
      return out;
    },
  );

  app.get(
    "/:id",
    {
      onRequest: app.readAccess,
      schema: {
        summary: "One run with every phase aggregated over its clients",
        tags: ["runs"],
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) }),
        querystring: FormatQuery,
        response: { 200: RunWithPhases, 404: ErrorResponse },
      },
    },
    async (req, reply) => {
      const { id } = req.params as { id: string };
      const out = await getRun(app.db, id);
      if (!out) throw app.httpErrors.notFound(`run ${id} not found`);
      if ((req.query as { format?: string }).format === "csv") return reply.type("text/csv; charset=utf-8").send(toCsv(phaseRows(out)));
      return out;
    },
  );

  const RunId = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });
  const QuarantineAnswer = Type.Object({ id: Type.String(), quarantine: Type.Union([Type.Object({ reason: Type.String(), at: Type.String() }), Type.Null()]) });
  const refused = (id: string, outcome: { status: string }) => {
    if (outcome.status === "missing") return app.httpErrors.notFound(`run ${id} not found`);
    return app.httpErrors.conflict(`run ${id} is published: published runs change only through the reference loader (ycsb-lab ingest --reference)`);
  };

  app.post(
    "/:id/quarantine",
    {
      onRequest: app.requireToken,
      schema: {
        summary: "Quarantine a run: it stays listed, with the reason, and is left out of every aggregate view",
        tags: ["runs"],
        security: [{ bearer: [] }],
        params: RunId,
        body: Type.Object({ reason: Type.String({ minLength: 1, maxLength: 1000 }) }, { additionalProperties: false }),
        response: { 200: QuarantineAnswer, 401: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req) => {
      const { id } = req.params as { id: string };
      const out = await quarantineRun(app.db, id, (req.body as { reason: string }).reason);
      if (out.status !== "done") throw refused(id, out);
      return { id: out.id, quarantine: out.quarantine };
    },
  );

  app.delete(
    "/:id/quarantine",
    {
      onRequest: app.requireToken,
      schema: {
        summary: "Lift a run's quarantine",
        tags: ["runs"],
        security: [{ bearer: [] }],
        params: RunId,
        response: { 200: QuarantineAnswer, 401: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req) => {
      const { id } = req.params as { id: string };
      const out = await quarantineRun(app.db, id, null);
      if (out.status !== "done") throw refused(id, out);
      return { id: out.id, quarantine: null };
    },
  );

  app.delete(
    "/:id",
    {
      onRequest: app.requireToken,
      schema: {
        summary: "Delete a run and everything stored under it (an S3 object already imported is not imported again)",
        tags: ["runs"],
        security: [{ bearer: [] }],
        params: RunId,
        response: { 200: Type.Object({ deleted: Type.String(), clientResults: Type.Integer() }), 401: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req) => {
      const { id } = req.params as { id: string };
      const out = await deleteRun(app.db, id);
      if (out.status !== "done") throw refused(id, out);
      return { deleted: out.id, clientResults: out.clientResults };
    },
  );

  // The dashboard's time series and latency histogram (issue 7): per client, as ingested.
  app.get(
    "/:id/phases/:phase/series",
    {
      onRequest: app.readAccess,
      schema: {
        summary: "One phase's status-line series and latency histogram buckets, per client",
        tags: ["runs"],
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }), phase: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: {
          200: Type.Object({
            runId: Type.String(),
            phase: Type.String(),
            clients: Type.Array(
              Type.Object({
                clientIndex: Type.Integer(),
                /** Two columns of the status series, one entry per status line. */
                status: Type.Object({ elapsedSec: Type.Array(Type.Number()), opsPerSec: Type.Array(Type.Union([Type.Number(), Type.Null()])) }),
                histograms: Type.Record(Type.String(), Type.Array(Type.Object({ bucket: Type.String(), count: Type.Number() }))),
              }),
            ),
            /** Per operation, from every client's merged HDR histogram: the percentile spectrum and 1 ms buckets. */
            latency: Type.Record(
              Type.String(),
              Type.Object({
                method: Type.Literal("merged-hdr"),
                clients: Type.Integer(),
                count: Type.Number(),
                spectrum: Type.Array(Type.Object({ percentile: Type.Number(), valueUs: Type.Number() })),
                buckets: Type.Array(Type.Object({ bucket: Type.String(), count: Type.Number() })),
              }),
            ),
          }),
          404: ErrorResponse,
        },
      },
    },
    async (req) => {
      const { id, phase } = req.params as { id: string; phase: string };
      const out = await phaseSeries(app.db, id, phase);
      if (!out) throw app.httpErrors.notFound(`phase ${phase} of run ${id} not found`);
      return out;
    },
  );
};

export function phaseRows(out: { run: { id: string; engine: string; nodes: number; preset: string }; phases: { phase: object; verdict: string; aggregate: { operations: Record<string, object> } & object }[] }) {
  return out.phases.flatMap((p) =>
    Object.entries(p.aggregate.operations).map(([op, o]) => ({
      run: out.run.id,
      engine: out.run.engine,
      nodes: out.run.nodes,
      preset: out.run.preset,
      ...flatten({ phase: p.phase }),
      verdict: p.verdict,
      ...flatten({ aggregate: { ...p.aggregate, operations: undefined } }),
      operation: op,
      ...flatten(o as Record<string, unknown>),
    })),
  );
}
export default route;
