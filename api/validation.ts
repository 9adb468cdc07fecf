import { OptionalKind, type TSchema } from "@sinclair/typebox";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import { Value } from "@sinclair/typebox/value";
import type { FastifySchemaCompiler } from "fastify";
import type { FieldError } from "../model/result-validation.js";
import { textProblems } from "../model/result-checks.js";

/** A 400 naming every offending field (JSON pointer into the request part). */
export class FieldValidationError extends Error {
  readonly statusCode = 400;
  constructor(
    readonly part: string,
    readonly fields: FieldError[],
  ) {
    super(`invalid ${part}: ${fields.map((f) => `${f.path} ${f.message}`).join("; ")}`);
  }
}

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();
function check(schema: TSchema): TypeCheck<TSchema> {
  let c = compiled.get(schema);
  if (!c) compiled.set(schema, (c = TypeCompiler.Compile(schema)));
  return c;
}

/**
 * TypeBox checks every request part. Bodies are checked strictly (no type coercion, no dropping of unknown
 * properties: a wrong type is an error, never silently fixed); querystring and params are converted from text first.
 */
export const typeboxValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const c = check(schema);
  // Type.Optional(body): a request without a body is valid (PUT /baselines/:runId, POST /reference/load).
  const bodyOptional = httpPart === "body" && (schema as { [OptionalKind]?: string })[OptionalKind] === "Optional";
  return (data: unknown) => {
    if (bodyOptional && (data === undefined || data === null)) return { value: undefined };
    const value = httpPart === "body" ? data : Value.Default(schema, Value.Convert(schema, data));
    // Text Postgres cannot take (U+0000, lone surrogates: "%00" in a URL) is a 400 here, not a driver error later.
    const text = textProblems(value);
    if (text.length) return { error: new FieldValidationError(httpPart ?? "request", text) };
    if (c.Check(value)) return { value };
    const fields = [...c.Errors(value)].slice(0, 20).map((e) => ({ path: e.path || "/", message: e.message }));
    return { error: new FieldValidationError(httpPart ?? "request", fields) };
  };
};
