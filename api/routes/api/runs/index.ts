import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import {
  ErrorResponse,
  FormatQuery,
  PhaseSeriesResponse,
  RunAuditResponse,
  RunFiltersQuery,
  RunsPage,
  RunWithPhases,
} from "../../../../model/api-schemas.js";
import { flatten, toCsv } from "../../../csv.js";
import { jsonOrCsv } from "../../../responses.js";
import { getRun, listRuns } from "../../../store/queries/runs.js";
import { phaseSeries } from "../../../store/queries/series.js";
import { deleteRun, quarantineRun, runAudit } from "../../../store/run-admin.js";

/** Pages reach at most this far: Postgres OFFSET beyond int4 went through the driver as a wrapped value and returned rows. */
const MAX_OFFSET = 2 ** 31 - 1;

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    "/",
    {
      onRequest: app.readAccess,
      schema: {
        summary:
          "Runs, newest first, filtered by engine, version, preset, nodes, workload, instance type, scenario, date and source",
        tags: ["runs"],
        querystring: Type.Composite([
          RunFiltersQuery,
          Type.Object({
            verdict: Type.Optional(
              Type.Union([Type.Literal("valid"), Type.Literal("warning"), Type.Literal("invalid")]),
            ),
            quarantined: Type.Optional(
              Type.Union([Type.Literal("include"), Type.Literal("exclude"), Type.Literal("only")], {
                description: "quarantined runs: listed too (default), left out, or only they",
              }),
            ),
            limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
            offset: Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0 }),
          }),
        ]),
        response: { 200: jsonOrCsv(RunsPage), 400: ErrorResponse },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const out = await listRuns(app.db, q, { limit: q.limit, offset: q.offset });
      if (q.format === "csv")
        return reply.type("text/csv; charset=utf-8").send(
          toCsv(
            out.runs.map((r) =>
              flatten({
                ...r,
                quarantine: r.quarantine ?? undefined,
                reasons: r.reasons.join("; "),
                workloads: r.workloads.join(" "),
              }),
            ),
          ),
        );
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
        response: { 200: jsonOrCsv(RunWithPhases), 404: ErrorResponse },
      },
    },
    async (req, reply) => {
      const { id } = req.params;
      const out = await getRun(app.db, id);
      if (!out) throw app.httpErrors.notFound(`run ${id} not found`);
      if (req.query.format === "csv") return reply.type("text/csv; charset=utf-8").send(toCsv(phaseRows(out)));
      return out;
    },
  );

  const RunId = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });
  const QuarantineAnswer = Type.Object({
    id: Type.String(),
    quarantine: Type.Union([Type.Object({ reason: Type.String(), at: Type.String() }), Type.Null()]),
  });
  const refused = (id: string, outcome: { status: string }) => {
    if (outcome.status === "missing") return app.httpErrors.notFound(`run ${id} not found`);
    return app.httpErrors.conflict(
      `run ${id} is published: published runs change only through the reference loader (ycsb-lab ingest --reference)`,
    );
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
      const { id } = req.params;
      const out = await quarantineRun(app.db, id, req.body.reason, req.tokenName ?? "write-token");
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
      const { id } = req.params;
      const out = await quarantineRun(app.db, id, null, req.tokenName ?? "write-token");
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
        response: {
          200: Type.Object({ deleted: Type.String(), clientResults: Type.Integer() }),
          401: ErrorResponse,
          404: ErrorResponse,
          409: ErrorResponse,
        },
      },
    },
    async (req) => {
      const { id } = req.params;
      const out = await deleteRun(app.db, id, req.tokenName ?? "write-token");
      if (out.status !== "done") throw refused(id, out);
      return { deleted: out.id, clientResults: out.clientResults };
    },
  );

  app.get(
    "/:id/audit",
    {
      onRequest: app.readAccess,
      schema: {
        summary:
          "Who quarantined, released or deleted the run, when, why, and what it was before (kept after a delete)",
        tags: ["runs"],
        params: RunId,
        response: { 200: RunAuditResponse, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      const out = await runAudit(app.db, req.params.id);
      if (!out) throw app.httpErrors.notFound(`run ${req.params.id} not found, nor any action on it`);
      return out;
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
        params: Type.Object({
          id: Type.String({ minLength: 1, maxLength: 200 }),
          phase: Type.String({ minLength: 1, maxLength: 200 }),
        }),
        response: {
          200: PhaseSeriesResponse,
          404: ErrorResponse,
        },
      },
    },
    async (req) => {
      const { id, phase } = req.params;
      const out = await phaseSeries(app.db, id, phase);
      if (!out) throw app.httpErrors.notFound(`phase ${phase} of run ${id} not found`);
      return out;
    },
  );
};

export function phaseRows(out: {
  run: { id: string; engine: string; nodes: number; preset: string };
  phases: { phase: object; verdict: string; aggregate: { operations: Record<string, object> } & object }[];
}) {
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
