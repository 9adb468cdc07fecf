/** The landing's queries: the filters' values with their run counts (facets) and the runs' timeline. */
import type { Db } from "../../db/client.js";
import { sqlReader } from "../../db/pg-direct.js";
import { HEADLINE_MARK, HEADLINE_PENDING, headlinesFromKept, type KeptHeadline } from "../aggregates/run-headlines.js";
import { facetGroups, foldFacetChanges, workloadPhases } from "./facet-counts.js";
import { newestRunsPage, type RunFilters, runsWhereSql } from "./filters.js";

/**
 * The values each filter can take and how many runs have each, from the counts kept per group of runs and per
 * workload (facet-counts.ts: a few hundred rows for 100,000 runs): the dashboard's options, never a read of every
 * run or phase.
 */
export async function facets(db: Db) {
  await foldFacetChanges(db);
  const [groups, workloads, sources] = await Promise.all([
    facetGroups(db),
    // Phases, not runs, per workload: counting distinct runs made this the slowest part of the answer.
    workloadPhases(db),
    db.source.findMany({ select: { id: true, kind: true, citation: true, seed: true } }),
  ]);
  const count = <K extends string | number>(pick: (g: (typeof groups)[number]) => K | K[]) => {
    const m = new Map<K, number>();
    for (const g of groups) for (const v of [pick(g)].flat() as K[]) m.set(v, (m.get(v) ?? 0) + Number(g.runs));
    return [...m]
      .map(([value, runs]) => ({ value, runs }))
      .sort((a, b) =>
        typeof a.value === "number"
          ? (a.value as number) - (b.value as number)
          : String(a.value).localeCompare(String(b.value), "en", { numeric: true }),
      );
  };
  const versions = new Map<string, { engine: string; value: string; runs: number }>();
  for (const g of groups) {
    const k = `${g.engine}\u0000${g.version}`;
    const v = versions.get(k) ?? { engine: g.engine, value: g.version, runs: 0 };
    v.runs += Number(g.runs);
    versions.set(k, v);
  }
  const measured = groups.filter((g) => g.kind === "measured");
  const total = (gs: typeof groups) => gs.reduce((a, g) => a + Number(g.runs), 0);
  return {
    runs: total(groups),
    measured: total(measured),
    published: total(groups.filter((g) => g.kind === "published")),
    engines: count((g) => g.engine),
    versions: [...versions.values()].sort(
      (a, b) => a.engine.localeCompare(b.engine) || a.value.localeCompare(b.value, "en", { numeric: true }),
    ),
    presets: count((g) => g.preset),
    nodes: count((g) => Number(g.nodes)),
    scenarios: count((g) => g.scenario),
    scenarioPresets: [...new Set(groups.map((g) => g.scenario))].sort().map((scenario) => ({
      scenario,
      presets: [...new Set(groups.filter((g) => g.scenario === scenario).map((g) => g.preset))].sort(),
    })),
    workloads: workloads
      .map((w) => ({ value: w.workload, phases: Number(w.phases) }))
      .sort((a, b) => a.value.localeCompare(b.value)),
    instanceTypes: count((g) => [...new Set([g.data, g.client])]),
    verdicts: count((g) => g.verdict),
    sources: sources
      .map((s) => {
        const of = groups.filter((g) => g.sourceId === s.id);
        return { ...s, scenarios: [...new Set(of.map((g) => g.scenario))].sort(), runs: total(of) };
      })
      .filter((s) => s.runs > 0)
      .sort((a, b) => a.id.localeCompare(b.id)),
  };
}

/**
 * The latest measured runs matching the filters with their headline throughput (runPeak), newest first: `limit` of
 * them and whether there are more (no count: counting every run is the slowest part of a listing).
 */
export async function timeline(db: Db, f: RunFilters, limit: number) {
  // One statement: the runs' keys in the newest-first index order, each run by key with its kept headline and pending
  // mark (run-headlines.ts). Through Prisma's query API and a second statement for the headlines, an unfiltered
  // timeline was one of the answers every write drops that cost the API's thread most (docs/benchmarks.md).
  const rows = await sqlReader(db).$queryRaw<(TimelineRow & KeptHeadline)[]>`
    SELECT r.id, r.engine, r.engine_version AS "engineVersion", r.preset, r.nodes, r.scenario, r.verdict,
           r.started_at AS "startedAt", r.headline, ${HEADLINE_PENDING}
    FROM ${newestRunsPage(runsWhereSql({ ...f, source: "measured" }), limit + 1)} ${HEADLINE_MARK}
    ORDER BY r.started_at DESC, r.id ASC`;
  const shown = rows.slice(0, limit);
  // Each run's peak as kept on it (run-headlines.ts), not from all of its phases.
  const headlines = await headlinesFromKept(db, shown);
  return {
    more: rows.length > limit,
    runs: shown.map((r) => ({
      id: r.id,
      engine: r.engine,
      engineVersion: r.engineVersion,
      preset: r.preset,
      nodes: Number(r.nodes),
      scenario: r.scenario,
      verdict: r.verdict,
      startedAt: r.startedAt.toISOString(),
      peak: headlines.get(r.id)?.peak ?? null,
    })),
  };
}

/** A run as the timeline lists it. */
interface TimelineRow {
  id: string;
  engine: string;
  engineVersion: string;
  preset: string;
  nodes: number;
  scenario: string;
  verdict: string;
  startedAt: Date;
}
