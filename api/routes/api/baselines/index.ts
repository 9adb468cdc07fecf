import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { BaselinesResponse, ErrorResponse, PinResponse } from "../../../../model/api-schemas.js";
import { listBaselines, type PinOutcome, pinBaseline, unpinBaseline } from "../../../store/histories.js";

const RunId = Type.Object({ runId: Type.String({ minLength: 1, maxLength: 200 }) });

const route: FastifyPluginAsyncTypebox = async (app) => {
  const answer = (runId: string, out: PinOutcome) => {
    if (out.status === "done")
      return { configurationId: out.configurationId, runId: out.runId, replaced: out.replaced };
    if (out.status === "missing") throw app.httpErrors.notFound(`run ${runId} not found`);
    if (out.status === "not-baseline") throw app.httpErrors.notFound(`run ${runId} is not a baseline`);
    throw app.httpErrors.conflict(`run ${runId} is published: a baseline is a measured run of the configuration`);
  };

  app.get(
    "/",
    {
      onRequest: app.readAccess,
      schema: {
        summary: "The runs pinned as their configuration's baseline, each workload at its peak",
        tags: ["baselines"],
        response: { 200: BaselinesResponse },
      },
    },
    async () => listBaselines(app.db),
  );

  app.put(
    "/:runId",
    {
      onRequest: app.requireToken,
      schema: {
        summary:
          "Pin a measured run as the baseline of its configuration (scenario, engine, preset, nodes, instance type), replacing the one pinned before",
        tags: ["baselines"],
        security: [{ bearer: [] }],
        params: RunId,
        body: Type.Optional(
          Type.Object({ note: Type.Optional(Type.String({ maxLength: 1000 })) }, { additionalProperties: false }),
        ),
        response: { 200: PinResponse, 401: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req) => answer(req.params.runId, await pinBaseline(app.db, req.params.runId, req.body?.note ?? null)),
  );

  app.delete(
    "/:runId",
    {
      onRequest: app.requireToken,
      schema: {
        summary: "Unpin a baseline",
        tags: ["baselines"],
        security: [{ bearer: [] }],
        params: RunId,
        response: { 200: PinResponse, 401: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req) => answer(req.params.runId, await unpinBaseline(app.db, req.params.runId)),
  );
};
export default route;
