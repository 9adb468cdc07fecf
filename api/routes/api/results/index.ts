import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { ErrorResponse } from "../../../../model/api-schemas.js";
import { withCodePointLengths } from "../../../../model/code-point-lengths.js";
import {
  MeasuredResultDocumentSchema,
  type ResultDocument,
  ResultDocumentSchema,
} from "../../../../model/result-document.js";
import {
  checkAgainst,
  documentProblems,
  type FieldError,
  HistogramBudget,
} from "../../../../model/result-validation.js";
import { FactConflictError, ingestDocuments } from "../../../store/ingest.js";
import { FieldValidationError, typeboxValidatorCompiler } from "../../../validation.js";

export const MAX_BATCH = 1000;

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

// Compiled once: checking a valid document is then a fast path; errors are only enumerated for bad ones.
const compiledDocument = TypeCompiler.Compile(withCodePointLengths(ResultDocumentSchema));
const checkDocument = (doc: unknown, histogramBudget: HistogramBudget): FieldError[] =>
  compiledDocument.Check(doc)
    ? documentProblems(doc as ResultDocument, { histogramBudget })
    : checkAgainst(ResultDocumentSchema, doc, { histogramBudget });

/**
 * A document or a batch; every error names its field as a JSON pointer ("/3/run/nodes" in a batch). Measured
 * results only (published figures come from the reference loader); histogram decoding bounded over the whole body.
 */
export function checkResultsBody(body: unknown): FieldError[] {
  const budget = new HistogramBudget();
  if (!Array.isArray(body)) return checkDocument(body, budget);
  if (body.length === 0) return [{ path: "/", message: "a batch needs at least one document" }];
  if (body.length > MAX_BATCH)
    return [{ path: "/", message: `a batch holds at most ${MAX_BATCH} documents, got ${body.length}` }];
  const errors: FieldError[] = [];
  body.forEach((doc, i) => {
    if (errors.length < 20)
      errors.push(
        ...checkDocument(doc, budget).map((e) => ({
          path: `/${i}${e.path === "/" ? "" : e.path}`,
          message: e.message,
        })),
      );
  });
  return errors.slice(0, 20);
}

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    "/",
    {
      onRequest: app.requireToken,
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
              const errors = checkResultsBody(data);
              // Names are put in Unicode NFC by ingestDocuments, as for every other way in (model/identifiers.ts).
              return errors.length ? { error: new FieldValidationError("body", errors) } : { value: data };
            },
    },
    async (req, reply) => {
      const docs = (Array.isArray(req.body) ? req.body : [req.body]) as ResultDocument[];
      try {
        const results = await ingestDocuments(app.db, docs);
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
