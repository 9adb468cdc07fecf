/**
 * The types the views use, none written by hand: the API's TypeBox schemas (Static) where the views read the API's
 * shape as it is; where an answer is reshaped, its type is the return type of the one function that reshapes it,
 * beside that function (api/runs.ts, api/aggregates.ts). A new column of a schema reaches the views without an edit.
 */
import type { Static } from "@sinclair/typebox";
import type {
  AnovaResponse,
  BaselinesResponse,
  FacetsResponse,
  PhaseSeriesResponse,
  ReferenceTablesResponse,
  RegressionsResponse,
  RunPeakSchema,
  RunSummary,
  TimelineResponse,
} from "../../../model/api-schemas.js";
import type { Validity } from "../../../model/result-document.js";

export type Verdict = Validity["verdict"];

type ApiSource = Static<typeof RunSummary>["source"];
/** Where a run or a series comes from: a published study (citation, seed) or measured, on a stand-in or not. */
export type RunSource = Pick<ApiSource, "kind"> &
  Partial<Pick<ApiSource, "citation" | "seed">> & { standIn?: Static<typeof RunSummary>["standIn"] };

export type PhaseDistribution = Static<typeof PhaseSeriesResponse>["latency"][string];
export type StatusColumnsView = Static<typeof PhaseSeriesResponse>["clients"][number]["status"];

export type RunPeak = Static<typeof RunPeakSchema>;
export type Facets = Static<typeof FacetsResponse>;
export type Timeline = Static<typeof TimelineResponse>;
export type Baselines = Static<typeof BaselinesResponse>;
export type Regressions = Static<typeof RegressionsResponse>;
export type ReferenceTable = Static<typeof ReferenceTablesResponse>["tables"][number];
export type Anova = Static<typeof AnovaResponse>;
