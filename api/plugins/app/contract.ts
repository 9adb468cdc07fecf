import { OptionalKind, Type } from "@sinclair/typebox";
import type { FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import fp from "fastify-plugin";
import { ErrorResponse } from "../../../model/api-schemas.js";
import { NAME_PATTERN } from "../../../model/identifiers.js";

/**
 * The OpenAPI document is the contract: every status a route can answer is declared on it, and a method a path does
 * not take is a 405 naming the ones it does (RFC 9110 §15.5.6: "MUST generate an Allow header field"), never a 404.
 * Checked by Schemathesis against the served document (test/api/api-schemathesis.test.ts).
 */
/**
 * Operations whose body may be left out (Type.Optional: PUT /baselines/:runId, POST /reference/load), as "METHOD
 * /path/{param}": @fastify/swagger marks every body required, the document says otherwise for these (swagger.ts).
 */
export const OPTIONAL_BODIES = new Set<string>();
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, "{$1}");

export interface ContractOptions {
  prefix: string;
}

/**
 * What any route of the API may answer besides its own statuses: a query or body the contract refuses (400), a request
 * too slow to arrive (408), over the address's budget (429), headers over Node's 16 KiB (431), an error the log holds
 * (500), the database unreachable (503); with a path parameter, nothing under it (404) or a parameter longer than the
 * router takes (414); with a body, one over BODY_LIMIT_BYTES (413) or not UTF-8 JSON (415); reads when reads are
 * protected and every write need a token (401).
 */
function declaredStatuses(route: RouteOptions): number[] {
  const schema = (route.schema ?? {}) as { params?: unknown; body?: unknown };
  const statuses = [400, 401, 408, 429, 431, 500, 503];
  if (schema.params) statuses.push(404, 414);
  if (schema.body) statuses.push(413, 415);
  return statuses;
}

/** A path's pattern as a regular expression (":id" one segment; a trailing slash optional, as the router takes it). */
function patternOf(url: string): RegExp {
  const body = url
    .replace(/\/+$/, "")
    .split("/")
    .map((s) => (s.startsWith(":") ? "[^/]+" : s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${body}/?$`);
}

type SchemaNode = Record<string, unknown> & {
  type?: unknown;
  properties?: Record<string, unknown>;
  anyOf?: unknown[];
  items?: unknown;
};

/**
 * A query's or path's values are names (api/validation.ts refuses U+0000 and invisible characters in them): the
 * document states it as NAME_PATTERN on each free string, so a value it calls valid is one the API takes. A copy:
 * schemas may be shared.
 */
export function withNamePatterns<T>(schema: T): T {
  if (schema === null || typeof schema !== "object") return schema;
  const s = schema as SchemaNode;
  const free = s.pattern === undefined && s.const === undefined && s.enum === undefined && s.format === undefined;
  if (s.type === "string") return (free ? { ...s, pattern: NAME_PATTERN } : s) as T;
  const out: SchemaNode = { ...s };
  if (s.properties) {
    out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, withNamePatterns(v)]));
  }
  if (s.anyOf) out.anyOf = s.anyOf.map(withNamePatterns);
  if (s.items) out.items = withNamePatterns(s.items);
  return out as T;
}

interface DocumentedPath {
  pattern: RegExp;
  /** Path parameters: of the paths a request matches, the document's resource is the one with fewest (static wins). */
  params: number;
  methods: Set<string>;
}

/**
 * The methods of the document's path for a request path: the most specific matching one, as the router picks, so
 * /reference/load takes POST only though GET /reference/:id would also match it (its Allow named GET, undocumented).
 */
export function documentedMethods(paths: DocumentedPath[], path: string): string[] {
  const matching = paths.filter((p) => p.pattern.test(path));
  const fewest = Math.min(...matching.map((p) => p.params));
  return [...new Set(matching.filter((p) => p.params === fewest).flatMap((p) => [...p.methods]))].sort();
}

export default fp<ContractOptions>(
  async (app, { prefix }) => {
    const routes: DocumentedPath[] = [];
    app.addHook("onRoute", (route) => {
      if (!route.url.startsWith(prefix) || route.schema?.hide) return;
      type RouteSchema = { response?: Record<string, unknown>; querystring?: unknown; params?: unknown };
      const schema = (route.schema ??= {}) as RouteSchema;
      if (schema.querystring) schema.querystring = withNamePatterns(schema.querystring);
      if (schema.params) schema.params = withNamePatterns(schema.params);
      const response = (schema.response ??= {});
      for (const status of declaredStatuses(route)) response[status] ??= ErrorResponse;
      // An answer kept in the cache revalidates: If-None-Match with its ETag is answered 304, without a body.
      if ([route.method].flat().includes("GET"))
        response[304] ??= Type.Null({ description: "not modified: the ETag sent in If-None-Match is the answer's" });
      const methods = [route.method].flat();
      const body = (schema as { body?: { [OptionalKind]?: string } }).body;
      if (body?.[OptionalKind] === "Optional")
        for (const m of methods) OPTIONAL_BODIES.add(`${m} ${openApiPath(route.url)}`);
      const known = routes.find((r) => r.pattern.source === patternOf(route.url).source);
      if (known) for (const m of methods) known.methods.add(m);
      else {
        const params = (route.url.match(/:/g) ?? []).length;
        routes.push({ pattern: patternOf(route.url), params, methods: new Set(methods) });
      }
    });

    // Before the body is read (a QUERY without a body was a 400 about its Content-Type): a method the path does not take.
    // A path the router matched only with an empty parameter (DELETE /runs/ as /runs/:id) is the parameterless path;
    // one it matched with a parameter where the document has a static path (GET /reference/load) is that static path.
    app.addHook("onRequest", async (req: FastifyRequest, reply: FastifyReply) => {
      const path = req.url.split("?")[0]!;
      const allowed = documentedMethods(routes, path);
      if (allowed.length === 0 || allowed.includes(req.method)) return;
      return reply
        .code(405)
        .header("allow", allowed.join(", "))
        .send({
          statusCode: 405,
          error: "Method Not Allowed",
          message: `${req.method} is not a method of ${path}: it takes ${allowed.join(", ")}`,
        });
    });
  },
  { name: "contract" },
);
