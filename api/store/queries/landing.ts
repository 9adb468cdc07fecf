/** The landing's queries: the filters' values with their run counts (facets) and the runs' timeline. */
import type { Db } from "../../db/client.js";
import { headlinesOf } from "../aggregates/run-headlines.js";
import { facetGroups, foldFacetChanges, workloadPhases } from "./facet-counts.js";
import { type RunFilters, runWhere } from "./filters.js";

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
  const rows = await db.run.findMany({
    where: runWhere({ ...f, source: "measured" }),
    orderBy: [{ startedAt: "desc" }, { id: "asc" }],
    take: limit + 1,
    select: {
      id: true,
      engine: true,
      engineVersion: true,
      preset: true,
      nodes: true,
      scenario: true,
      verdict: true,
      startedAt: true,
    },
  });
  const shown = rows.slice(0, limit);
  // Each run's peak as kept on it (run-headlines.ts), not from all of its phases.
  const headlines = await headlinesOf(
    db,
    shown.map((r) => r.id),
  );
  return {
    more: rows.length > limit,
    runs: shown.map(({ startedAt, ...r }) => ({
      ...r,
      startedAt: startedAt.toISOString(),
      peak: headlines.get(r.id)?.peak ?? null,
    })),
  };
}
