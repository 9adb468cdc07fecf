/**
 * How the response cache names and invalidates an answer (pure). An answer is keyed by its route and its validated,
 * normalised query and path (api/validation.ts: closed, converted, NFC), parameters in a fixed order: two equivalent
 * requests are one entry, and a request with an unknown parameter never gets this far. What it depends on comes from
 * the route: a write drops only the answers it can change (api/store/touched.ts).
 */
import type { RunFilters } from "../../store/queries/filters.js";
import type { Dependency } from "../../store/touched.js";

const sorted = (o: unknown): unknown => {
  if (Array.isArray(o)) return o.map(sorted);
  if (o === null || typeof o !== "object") return o;
  return Object.fromEntries(
    Object.keys(o as Record<string, unknown>)
      .filter((k) => (o as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => [k, sorted((o as Record<string, unknown>)[k])]),
  );
};

/** One key per answer: the route's pattern, then its path parameters and query in key order. */
export function answerKey(route: string, params: unknown, query: unknown): string {
  return JSON.stringify([route, sorted(params ?? {}), sorted(query ?? {})]);
}

/** The run ids of /compare?runs=a,b (as the route reads them). */
const runList = (runs: unknown) =>
  typeof runs === "string"
    ? runs
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

/** What the answer of a route depends on, given its validated path parameters and query; anything else by default. */
export function answerDependency(
  route: string,
  prefix: string,
  params: Record<string, unknown>,
  query: Record<string, unknown>,
): Dependency {
  const path = route.startsWith(prefix) ? route.slice(prefix.length) : route;
  const filters = query as RunFilters;
  switch (path) {
    case "/runs/:id":
    case "/runs/:id/audit":
    case "/runs/:id/phases/:phase/series":
      return { on: "runs", ids: [String(params.id)] };
    case "/compare":
      return { on: "runs", ids: runList(query.runs) };
    case "/reference":
    case "/reference/:id":
      return { on: "reference" };
    case "/runs":
    case "/timeline":
    case "/scaling":
    case "/durability":
    case "/sweeps":
    case "/repeatability":
    case "/capacity":
    case "/anova":
      return { on: "filters", filters };
    case "/regressions":
      return { on: "filters", filters, baselines: true };
    default:
      return { on: "anything" };
  }
}
