/**
 * The results API (api/, all under /api/v1) as the dashboard sees it: fetch + types.
 * Views use only these types; the API's response shapes are mapped in api/ and nowhere else:
 *   api/http.ts        GET with errors that name the request, requests in order, once per page load
 *   api/types.ts       the API's TypeBox schemas as the views' types (Static); reshaped answers are typed by their mapper
 *   api/runs.ts        runs, a run's detail and phase series, compare, the landing timeline
 *   api/catalog.ts     facets, baselines, regressions, the published tables
 *   api/aggregates.ts  scaling, durability, sweeps, repeatability, mapped to series and cells
 */

export * from "./api/aggregates.js";
export * from "./api/catalog.js";
export * from "./api/http.js";
export * from "./api/runs.js";
export * from "./api/types.js";
