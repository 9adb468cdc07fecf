/**
 * The view's state lives in the URL so every chart is a permalink: `?view=scaling&workload=a`.
 * Pure: parse and serialise only; main.ts does the history calls.
 */

export const VIEWS = [
  "runs",
  "compare",
  "regressions",
  "scaling",
  "durability",
  "sweeps",
  "latency",
  "timeseries",
  "repeatability",
  "capacity",
  "study",
] as const;
export type ViewName = (typeof VIEWS)[number];

export interface ViewState {
  view: ViewName;
  /** Every other query parameter, by name; empty values are dropped. */
  params: Record<string, string>;
}

export function isViewName(value: unknown): value is ViewName {
  return typeof value === "string" && (VIEWS as readonly string[]).includes(value);
}

/** Reads `?view=...&k=v`; an unknown or missing view falls back to the runs explorer. */
export function parseState(search: string): ViewState {
  const query = new URLSearchParams(search.startsWith("?") ? search.slice(1) : search);
  const view = query.get("view");
  const params: Record<string, string> = {};
  for (const [key, value] of query) {
    if (key === "view" || value === "") continue;
    params[key] = value;
  }
  return { view: isViewName(view) ? view : "runs", params };
}

/** Canonical form: `view` first, other keys sorted, so equal states give equal permalinks. */
export function serializeState(state: ViewState): string {
  const query = new URLSearchParams();
  query.set("view", state.view);
  for (const key of Object.keys(state.params).sort()) {
    const value = state.params[key];
    if (value !== undefined && value !== "") query.set(key, value);
  }
  return `?${query.toString()}`;
}

/** A new state with some parameters set (empty string or undefined removes one). */
export function withParams(state: ViewState, changes: Record<string, string | undefined>): ViewState {
  const params = { ...state.params };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined || value === "") delete params[key];
    else params[key] = value;
  }
  return { view: state.view, params };
}

/** Comma lists in the URL (`runs=a,b,c`), trimmed, without empties or duplicates. */
export function listParam(value: string | undefined): string[] {
  if (!value) return [];
  return [
    ...new Set(
      value
        .split(",")
        .map((v) => v.trim())
        .filter((v) => v !== ""),
    ),
  ];
}
