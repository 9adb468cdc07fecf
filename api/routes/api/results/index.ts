import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { ErrorResponse } from "../../../../model/api-schemas.js";
import { normalizeIdentifiers, noteKeysPlain } from "../../../../model/identifiers.js";
import { MeasuredResultDocumentSchema, type ResultDocument } from "../../../../model/result-document.js";
import { checkResultsBody, MAX_BATCH } from "../../../ingest-body/check.js";
import { bodyThreads, defaultReadThreads } from "../../../ingest-body/threads.js";
import type { ReadBodyElsewhere } from "../../../json-strict.js";
import { legacyDocumentHash } from "../../../store/document-hash.js";
import { type DocumentsDigest, FactConflictError, ingestDocuments } from "../../../store/ingest.js";
import { FieldValidationError, typeboxValidatorCompiler } from "../../../validation.js";

export { checkResultsBody, MAX_BATCH };

const IngestResponse = Type.Object({
  created: Type.Integer(),
  duplicates: Type.Integer(),
  conflicts: Type.Integer(),
  results: Type.Array(
    Type.Object({
      runId: Type.String(),
      phase: Type.String(),
      clientIndex: Type.Integer(),
      status: Type.Union([Type.Literal("created"), Type.Literal("duplicate"), Type.Literal("conflict")]),
    }),
  ),
});

export interface ResultsRouteOptions {
  /** Threads that read large bodies beside the API's thread (INGEST_READ_THREADS); 0: the API's thread reads all. */
  readThreads?: number;
}

const route: FastifyPluginAsyncTypebox<ResultsRouteOptions> = async (app, opts) => {
  const threads = bodyThreads(opts.readThreads ?? defaultReadThreads(), (message) => app.log.warn(message));
  app.addHook("onClose", () => threads.close());
  /** Bodies read on a thread, with what the thread computed for them (checked there: not checked again). */
  const digests = new WeakMap<object, DocumentsDigest>();
  const readBody: ReadBodyElsewhere = async (text) => {
    const read = await threads.read(text);
    if (!read) return undefined;
    const value = JSON.parse(read.withoutSeries) as object;
    // Their keys were checked on the thread: normalizeIdentifiers need not walk them again (model/identifiers.ts).
    const docs = Array.isArray(value) ? value : [value];
    for (let i = 0; i < docs.length; i++) if (read.keysPlain[i]) noteKeysPlain(docs[i]);
    let sent: unknown[] | undefined;
    digests.set(value, {
      seriesJson: read.seriesJson,
      hashes: read.hashes,
      // Only for a retry of a document stored before hashes were canonical: the body as sent, read again.
      legacyHash: (i) => {
        if (!sent) {
          const whole = JSON.parse(text) as unknown;
          sent = Array.isArray(whole) ? whole : [whole];
        }
        return legacyDocumentHash(normalizeIdentifiers(sent[i] as ResultDocument));
      },
    });
    return value;
  };

  app.post(
    "/",
    {
      onRequest: app.requireToken,
      config: { readBody },
      schema: {
        summary: "Store one result document or a batch (idempotent: the same document twice is stored once)",
        tags: ["ingest"],
        security: [{ bearer: [] }],
        // Documented as measured-only; checked by checkResultsBody, which names a published source's field.
        body: Type.Union([
          MeasuredResultDocumentSchema,
          Type.Array(MeasuredResultDocumentSchema, { minItems: 1, maxItems: MAX_BATCH }),
        ]),
        response: {
          200: IngestResponse,
          201: IngestResponse,
          400: ErrorResponse,
          401: ErrorResponse,
          409: ErrorResponse,
          413: ErrorResponse,
        },
      },
      // Field-by-field errors for batches (a union's error would not name the field); the query as every route's.
      validatorCompiler: (route) =>
        route.httpPart !== "body"
          ? typeboxValidatorCompiler(route as unknown as Parameters<typeof typeboxValidatorCompiler>[0])
          : (data: unknown) => {
              if (data !== null && typeof data === "object" && digests.has(data)) return { value: data };
              const errors = checkResultsBody(data);
              // Names are put in Unicode NFC by ingestDocuments, as for every other way in (model/identifiers.ts).
              return errors.length ? { error: new FieldValidationError("body", errors) } : { value: data };
            },
    },
    async (req, reply) => {
      const docs = (Array.isArray(req.body) ? req.body : [req.body]) as ResultDocument[];
      try {
        const digest = digests.get(req.body as object);
        const results = await ingestDocuments(app.db, docs, [], digest ? { digest } : {});
        const count = (s: string) => results.filter((r) => r.status === s).length;
        const created = count("created");
        return reply
          .code(created > 0 ? 201 : 200)
          .send({ created, duplicates: count("duplicate"), conflicts: count("conflict"), results });
      } catch (e) {
        // 409 naming the document and the fact (and, inside one batch, the document it disagrees with).
        if (e instanceof FactConflictError) {
          const at = (i: number) => (Array.isArray(req.body) ? `/${i}` : "");
          const fields = [{ path: `${at(e.docIndex)}${e.pointer}`, message: e.message }];
          if (e.otherIndex !== null)
            fields.push({ path: `${at(e.otherIndex)}${e.pointer}`, message: "the document it disagrees with" });
          throw new FieldValidationError("body", fields, 409, e.message);
        }
        throw e;
      }
    },
  );
};
export default route;
