import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { lengthFormatMessage, withCodePointLengths } from "./code-point-lengths.js";
import { identifierFieldProblems, normalizeIdentifiers } from "./identifiers.js";
import {
  consistencyProblems,
  type FieldError,
  HistogramBudget,
  histogramProblems,
  textProblems,
} from "./result-checks.js";
import { type ClientOutput, ClientOutputSchema, type ResultDocument, ResultDocumentSchema } from "./result-document.js";
import { DATE_TIME_PATTERN } from "./result-limits.js";
import { statusSeriesProblems } from "./status-series.js";

/**
 * Checking a value against the result document's schemas (result-document.ts) and the rules JSON Schema cannot
 * say (result-checks.ts, status-series.ts): apart from the schemas, which those rules read as types.
 */
export { type FieldError, HistogramBudget };

export interface CheckOptions {
  /**
   * Published figures (source kind "published") are accepted only from the reference loader (prisma/reference), which
   * transcribes the seeds; anywhere else such a document would join a study's series under its citation.
   */
  allowPublished?: boolean;
  /** Shared by the documents of one request: bounds the histogram decoding work of the whole request. */
  histogramBudget?: HistogramBudget;
}

/** Validate without throwing: every error names its field. */
/** A schema error as a sentence (a date's pattern is not shown as its regular expression). */
export function schemaErrorMessage(e: { schema: unknown; message: string }): string {
  const s = e.schema as { pattern?: string; format?: string };
  if (s.pattern === DATE_TIME_PATTERN) return "expected an ISO 8601 date-time from 1970 to 9999, a day that exists";
  return lengthFormatMessage(s.format) ?? e.message;
}

export function checkAgainst(schema: TSchema, value: unknown, options: CheckOptions = {}): FieldError[] {
  const errors = [...Value.Errors(withCodePointLengths(schema), value)]
    .slice(0, 20)
    .map((e) => ({ path: e.path || "/", message: schemaErrorMessage(e) }));
  if (errors.length > 0) return errors;
  // Equal column lengths are beyond JSON Schema: checked here for the two schemas that hold a status series.
  if (schema === ClientOutputSchema) return statusSeriesProblems((value as ClientOutput).statusSeries);
  if (schema === ResultDocumentSchema) return documentProblems(value as ResultDocument, options);
  return errors;
}

/**
 * What JSON Schema cannot say about a document that passed it: text that Postgres stores as given, status-series
 * columns of equal length, internal consistency (result-checks.ts), histograms that decode within bounds.
 */
export function documentProblems(doc: ResultDocument, options: CheckOptions = {}): FieldError[] {
  const text = [...textProblems(doc), ...identifierFieldProblems(doc)];
  if (text.length) return text.slice(0, 20);
  return [
    ...consistencyProblems(doc, options),
    ...statusSeriesProblems(doc.result.statusSeries, "/result/statusSeries"),
    ...histogramProblems(
      doc.hdrHistograms ?? {},
      options.histogramBudget ?? new HistogramBudget(),
      doc.result.operations,
    ),
  ].slice(0, 20);
}

/** A document that passed, as it is stored: its names in Unicode NFC (model/identifiers.ts). */
export function validateResultDocument(
  value: unknown,
  options: CheckOptions = {},
): { ok: true; value: ResultDocument } | { ok: false; errors: FieldError[] } {
  const errors = checkAgainst(ResultDocumentSchema, value, options);
  return errors.length === 0
    ? { ok: true, value: normalizeIdentifiers(value as ResultDocument) }
    : { ok: false, errors };
}
