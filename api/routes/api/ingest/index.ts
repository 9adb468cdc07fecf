import type { S3Client } from "@aws-sdk/client-s3";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { ErrorResponse } from "../../../../model/api-schemas.js";
import { importFromS3, type S3ImportRequest } from "../../../store/s3-import.js";

const S3ImportBody = Type.Object(
  {
    bucket: Type.String({ minLength: 3, maxLength: 63, pattern: "^[a-z0-9][a-z0-9.-]+[a-z0-9]$" }),
    prefix: Type.Optional(Type.String({ maxLength: 1024 })),
    runId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: "^[A-Za-z0-9._:-]+$" })),
  },
  { additionalProperties: false },
);

const S3ImportResponse = Type.Object({
  scanned: Type.Integer(),
  imported: Type.Integer(),
  unchanged: Type.Integer(),
  created: Type.Integer(),
  duplicates: Type.Integer(),
  conflicts: Type.Array(Type.Object({ key: Type.String(), message: Type.Optional(Type.String()) })),
  invalid: Type.Array(
    Type.Object({
      key: Type.String(),
      errors: Type.Array(Type.Object({ path: Type.String(), message: Type.String() })),
    }),
  ),
  skipped: Type.Array(Type.Object({ key: Type.String(), reason: Type.String() }), {
    description: "objects under the prefix the results layout does not know: not imported",
  }),
  runs: Type.Array(Type.String()),
  spans: Type.Integer({
    description: "instances' boot status markers stored now as their runs' spans (the realized cost)",
  }),
});

declare module "fastify" {
  interface FastifyInstance {
    s3: S3Client;
  }
}

/**
 * S3 refusing or unreachable (no such bucket, access denied, no route to the endpoint) is the upstream's answer, not
 * this service's fault: 502 naming it (RFC 9110 §15.6.3), never a 500. Any other error passes as it is.
 */
function s3Failure(err: unknown): unknown {
  const e = err as { name?: string; message?: string; $metadata?: unknown; code?: string; syscall?: string };
  const fromS3 = e.$metadata !== undefined || (typeof e.code === "string" && typeof e.syscall === "string");
  if (!fromS3) return err;
  return Object.assign(
    new Error(`S3 did not answer the import: ${e.name ?? e.code}: ${e.message ?? ""}`.slice(0, 500)),
    { statusCode: 502 },
  );
}

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    "/s3",
    {
      onRequest: app.requireToken,
      schema: {
        summary:
          "Import every new result object of the runs under s3://bucket/prefix (idempotent by object key and ETag)",
        tags: ["ingest"],
        security: [{ bearer: [] }],
        body: S3ImportBody,
        response: { 200: S3ImportResponse, 400: ErrorResponse, 401: ErrorResponse, 502: ErrorResponse },
      },
    },
    async (req) => {
      try {
        return await importFromS3(app.db, app.s3, req.body as S3ImportRequest, {
          maxObjectBytes: app.initialConfig.bodyLimit,
        });
      } catch (err) {
        throw s3Failure(err);
      }
    },
  );
};
export default route;
