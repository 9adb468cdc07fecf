/** What views look things up in: facets, baselines, change points, the published tables and their latency cells. */
import type { Static } from "@sinclair/typebox";
import type {
  AnovaResponse,
  BaselinesResponse,
  FacetsResponse,
  ReferenceTablesResponse,
  RegressionsResponse,
} from "../../../model/api-schemas.js";
import { publishedMs } from "../analysis.js";
import { getJson, oncePerPage } from "./http.js";
import type { RunRow } from "./runs.js";
import { fetchRunPage } from "./runs.js";
import type { Anova, ReferenceTable, Regressions, RunSource } from "./types.js";

/** The values every filter can take (GET /facets), once per page load: no view downloads the runs for its options. */
export const fetchFacets = oncePerPage(async () => (await getJson("/facets")) as Static<typeof FacetsResponse>);

/** The runs pinned as their configuration's baseline (GET /baselines), once per page load: every view shows the difference to them. */
export const fetchBaselines = oncePerPage(
  async () => (await getJson("/baselines")) as Static<typeof BaselinesResponse>,
);

/** Change points in each configuration's history (GET /regressions). */
export async function fetchRegressions(params: Record<string, string | undefined>): Promise<Regressions> {
  return (await getJson("/regressions", params)) as Static<typeof RegressionsResponse>;
}

/** One seed's published tables, verbatim, with latency tables as series (GET /reference?seed=). */
export async function fetchReference(seed: string): Promise<ReferenceTable[]> {
  return ((await getJson("/reference", { seed })) as Static<typeof ReferenceTablesResponse>).tables;
}

/** Seed 003's two-way ANOVA for published and measured sweeps (GET /anova). */
export async function fetchAnova(params: Record<string, string | undefined>): Promise<Anova> {
  return (await getJson("/anova", params)) as Static<typeof AnovaResponse>;
}

/** One published p99 latency (seed 004's tables): engine, preset, workload and operation, as printed. */
export interface PublishedLatencyCell {
  scenario: string;
  engine: string;
  preset: string;
  workload: string;
  nodes: number;
  operation: string;
  ms: number;
  /** Printed as "<1ms": an upper bound, drawn at its value. */
  below: boolean;
  printed: string;
  source: RunSource;
}

/** The published latency tables (GET /reference, derive.metric "p99"), as cells; fetched once per page load. */
export const fetchPublishedLatency = oncePerPage(async (): Promise<PublishedLatencyCell[]> => {
  const body = (await getJson("/reference")) as Static<typeof ReferenceTablesResponse>;
  const cells: PublishedLatencyCell[] = [];
  for (const t of body.tables) {
    const d = t.derive as {
      metric?: string;
      scenario: string;
      workload: string;
      preset: string;
      nodes: number;
      engines: Record<string, string>;
      operations: Record<string, string>;
    } | null;
    if (d?.metric !== "p99") continue;
    for (const row of t.rows) {
      const engine = d.engines[String(row[0])];
      if (!engine) continue;
      for (const [column, operation] of Object.entries(d.operations)) {
        const printed = row[t.columns.indexOf(column)];
        const value = publishedMs(printed);
        if (!value) continue;
        const source = { kind: "published", citation: t.citation, seed: t.seed };
        cells.push({
          scenario: d.scenario,
          engine,
          preset: d.preset,
          workload: d.workload,
          nodes: d.nodes,
          operation,
          ...value,
          printed: String(printed),
          source,
        });
      }
    }
  }
  return cells;
});

/** The latest 50 measured runs, once per page load: what a view opens on (their scenarios, the newest configuration). */
export const fetchRecentRuns = oncePerPage(
  async (): Promise<RunRow[]> => (await fetchRunPage({ source: "measured" }, 0, 50)).runs,
);

/** Scenarios in the order of their newest measured run (the latest 50 runs): the scenario a view opens on. */
export async function fetchRecentScenarios(): Promise<string[]> {
  return [...new Set((await fetchRecentRuns()).map((r) => r.scenario))];
}
