/**
 * The ingest route's check of a body (pure, no I/O): made by the thread that reads the body (reader.ts), by the route
 * for bodies read on the API's thread, and by `ycsb-lab ingest` before it stores a file's documents.
 */
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { withCodePointLengths } from "../../model/code-point-lengths.js";
import { type ResultDocument, ResultDocumentSchema } from "../../model/result-document.js";
import { checkAgainst, documentProblems, type FieldError, HistogramBudget } from "../../model/result-validation.js";

export const MAX_BATCH = 1000;

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
