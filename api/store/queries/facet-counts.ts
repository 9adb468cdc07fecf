/**
 * The runs per value of every filter and the phases per workload, as kept beside the tables (migration
 * 20261210000000_run_facet_counts): triggers append each write's changes, and a reader folds them into the totals
 * first, so an answer reads the groups and what the writes since the last read touched, never every run or phase.
 */
import { Prisma } from "../../../prisma/generated/client.js";
import { sqlReader } from "../../db/pg-direct.js";
import { MEASURED_SOURCE } from "../sources.js";
import type { Queryable, RunFilters } from "./filters.js";

/** One group of runs with equal filter values, and how many runs it holds. */
export interface FacetGroup {
  engine: string;
  version: string;
  preset: string;
  nodes: number;
  scenario: string;
  data: string;
  client: string;
  sourceId: string;
  kind: string;
  verdict: string;
  quarantined: boolean;
  runs: number;
}

type Writer = Queryable & { $executeRaw: (q: TemplateStringsArray, ...v: unknown[]) => Promise<number> };

const KEY = Prisma.raw(
  "engine, engine_version, preset, nodes, scenario, data_instance_type, client_instance_type, source_id, verdict, quarantined",
);

/**
 * Moves the changes logged so far into the totals, in one statement each (the rows it deletes are its own: a
 * concurrent reader folds the others). Totals are upserted in key order, so two readers folding at once take their
 * row locks in the same order.
 */
export async function foldFacetChanges(db: Writer): Promise<void> {
  // Whether there is anything to fold, read first: most readers find nothing (the last reader folded it), and a read
  // is not a write (PGlite's one connection takes writes in turn with reads, fair-queue.ts: two writes per /facets
  // and /runs answer were about a sixteenth of PGlite's time beside one writer, docs/benchmarks.md).
  const [pending] = await sqlReader(db).$queryRaw<{ runs: boolean; phases: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM run_facet_changes) AS runs, EXISTS (SELECT 1 FROM workload_phase_changes) AS phases`;
  if (pending?.runs !== false)
    await db.$executeRaw`
    WITH moved AS (DELETE FROM run_facet_changes RETURNING ${KEY}, runs),
         summed AS (SELECT ${KEY}, sum(runs)::int AS runs FROM moved GROUP BY ${KEY} ORDER BY ${KEY})
    INSERT INTO run_facet_totals (${KEY}, runs) SELECT ${KEY}, runs FROM summed WHERE runs <> 0
    ON CONFLICT (${KEY}) DO UPDATE SET runs = run_facet_totals.runs + EXCLUDED.runs`;
  if (pending?.phases !== false)
    await db.$executeRaw`
    WITH moved AS (DELETE FROM workload_phase_changes RETURNING workload, phases),
         summed AS (SELECT workload, sum(phases)::int AS phases FROM moved GROUP BY workload ORDER BY workload)
    INSERT INTO workload_phase_totals (workload, phases) SELECT workload, phases FROM summed WHERE phases <> 0
    ON CONFLICT (workload) DO UPDATE SET phases = workload_phase_totals.phases + EXCLUDED.phases`;
}

/** The groups of runs with their counts (empty groups left out), as of the last fold (foldFacetChanges). */
export async function facetGroups(db: Queryable): Promise<FacetGroup[]> {
  const rows = await sqlReader(db).$queryRaw<FacetGroup[]>`
    SELECT f.engine, f.engine_version AS version, f.preset, f.nodes, f.scenario, f.data_instance_type AS data,
           f.client_instance_type AS client, f.source_id AS "sourceId", s.kind, f.verdict, f.quarantined, f.runs
    FROM run_facet_totals f JOIN sources s ON s.id = f.source_id WHERE f.runs > 0`;
  return rows.map((r) => ({ ...r, nodes: Number(r.nodes), runs: Number(r.runs) }));
}

/** The phases per workload (workloads without phases left out), as of the last fold (foldFacetChanges). */
export async function workloadPhases(db: Queryable): Promise<{ workload: string; phases: number }[]> {
  const rows = await sqlReader(db).$queryRaw<{ workload: string; phases: number }[]>`
    SELECT workload, phases FROM workload_phase_totals WHERE phases > 0`;
  return rows.map((r) => ({ workload: r.workload, phases: Number(r.phases) }));
}

/** Whether the kept counts answer how many runs match these filters: only filters on a counted column. */
export function countedByFacets(f: RunFilters): boolean {
  return !f.workload && !f.from && !f.to;
}

/** How many runs match these filters (countedByFacets must hold), from the kept counts. */
export async function facetCount(db: Writer, f: RunFilters): Promise<number> {
  const matches = (g: FacetGroup) =>
    (!f.engine || g.engine === f.engine) &&
    (!f.version || g.version === f.version) &&
    (!f.preset || g.preset === f.preset) &&
    (!f.nodes || g.nodes === f.nodes) &&
    (!f.scenario || g.scenario === f.scenario) &&
    (!f.instanceType || g.data === f.instanceType || g.client === f.instanceType) &&
    // As runWhere selects them: the measured source by its id, a published one by its kind.
    (!f.source || (f.source === "measured" ? g.sourceId === MEASURED_SOURCE : g.kind === f.source)) &&
    (!f.verdict || g.verdict === f.verdict) &&
    (f.quarantined === "exclude" ? !g.quarantined : f.quarantined === "only" ? g.quarantined : true);
  await foldFacetChanges(db);
  return (await facetGroups(db)).filter(matches).reduce((n, g) => n + g.runs, 0);
}
