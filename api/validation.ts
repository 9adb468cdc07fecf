import { OptionalKind, type TSchema } from "@sinclair/typebox";
import { type TypeCheck, TypeCompiler } from "@sinclair/typebox/compiler";
import { Value } from "@sinclair/typebox/value";
import type { FastifySchemaCompiler } from "fastify";
import { withCodePointLengths } from "../model/code-point-lengths.js";
import { identifierProblem, nfc } from "../model/identifiers.js";
import { textProblems } from "../model/result-checks.js";
import { type FieldError, schemaErrorMessage } from "../model/result-validation.js";

/** A 400 (or another 4xx: a 409 conflict) naming every offending field (JSON pointer into the request part). */
export class FieldValidationError extends Error {
  constructor(
    readonly part: string,
    readonly fields: FieldError[],
    readonly statusCode = 400,
    message?: string,
  ) {
    super(message ?? `invalid ${part}: ${fields.map((f) => `${f.path} ${f.message}`).join("; ")}`);
  }
}

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();
function check(schema: TSchema): TypeCheck<TSchema> {
  let c = compiled.get(schema);
  // String lengths in code points, as the OpenAPI document (JSON Schema) counts them (model/code-point-lengths.ts).
  if (!c) compiled.set(schema, (c = TypeCompiler.Compile(withCodePointLengths(schema))));
  return c;
}

/**
 * TypeBox checks every request part. Bodies are checked strictly (no type coercion, no dropping of unknown
 * properties: a wrong type is an error, never silently fixed); querystring and params are converted from text first.
 */
export const typeboxValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema: given, httpPart }) => {
  // A query or path is closed: a parameter the route does not name is a 400 naming it, never ignored (an ignored one
  // made every "?nonce=<i>" a new answer to compute).
  const schema =
    (httpPart === "querystring" || httpPart === "params") &&
    given.type === "object" &&
    given.additionalProperties === undefined
      ? { ...given, additionalProperties: false }
      : given;
  const c = check(schema);
  // Type.Optional(body): a request without a body is valid (PUT /baselines/:runId, POST /reference/load). Fastify
  // passes one left out as null; a JSON null sent as the body is refused by the JSON parser (app.ts strictJson).
  const bodyOptional = httpPart === "body" && (schema as { [OptionalKind]?: string })[OptionalKind] === "Optional";
  return (data: unknown) => {
    if (bodyOptional && (data === undefined || data === null)) return { value: undefined };
    const named = httpPart === "querystring" || httpPart === "params";
    const value = httpPart === "body" ? data : Value.Default(schema, convertQuery(schema, data));
    // Text Postgres cannot take (U+0000, lone surrogates: "%00" in a URL) is a 400 here, not a driver error later; a
    // query's or path's values are names (filters, ids): no invisible characters, compared in NFC (model/identifiers.ts).
    const text = [...textProblems(value), ...(named ? nameProblems(value) : [])];
    if (text.length) return { error: new FieldValidationError(httpPart ?? "request", text) };
    if (named) normalizeNames(value);
    if (c.Check(value)) return { value };
    const fields = [...c.Errors(value)]
      .slice(0, 20)
      .map((e) => ({ path: e.path || "/", message: schemaErrorMessage(e) }));
    return { error: new FieldValidationError(httpPart ?? "request", fields) };
  };
};

/** Every string value of a query or path (a value, or a list of them) holding an invisible character. */
function nameProblems(value: unknown): FieldError[] {
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
    [v].flat().flatMap((x) => {
      const p = typeof x === "string" ? identifierProblem(x) : null;
      return p ? [{ path: `/${k}`, message: p }] : [];
    }),
  );
}

function normalizeNames(value: unknown): void {
  if (value === null || typeof value !== "object") return;
  const o = value as Record<string, unknown>;
  for (const [k, v] of Object.entries(o)) if (typeof v === "string") o[k] = nfc(v);
}

const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** The JSON types a schema (or the members of its union) admits. */
function typesOf(schema: TSchema): Set<string> {
  const s = schema as { type?: string | string[]; anyOf?: TSchema[] };
  if (s.anyOf) return new Set(s.anyOf.flatMap((m) => [...typesOf(m)]));
  return new Set([s.type ?? []].flat());
}

/**
 * Query and path values arrive as text: the text of a number becomes the number and "true"/"false" a boolean, only where
 * the parameter's schema takes one; nothing else is converted (TypeBox's Value.Convert read "nodes=true" as 1).
 */
function convertQuery(schema: TSchema, data: unknown): unknown {
  if (data === null || typeof data !== "object" || Array.isArray(data)) return data;
  const properties = (schema as { properties?: Record<string, TSchema> }).properties ?? {};
  const out: Record<string, unknown> = { ...(data as Record<string, unknown>) };
  for (const [k, v] of Object.entries(out)) {
    const p = properties[k];
    if (!p || typeof v !== "string") continue;
    const types = typesOf(p);
    if ((types.has("integer") || types.has("number")) && NUMBER.test(v)) out[k] = Number(v);
    else if (types.has("boolean") && (v === "true" || v === "false")) out[k] = v === "true";
  }
  return out;
}
