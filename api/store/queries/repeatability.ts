/** GET /repeatability: each configuration's repeats with their mean, spread and confidence interval. */
import { addLeftOut, type LeftOut } from "../../../model/aggregate/index.js";
import { REPEATS_LISTED } from "../../../model/api-schemas.js";
import { phaseNameWithoutRepeat } from "../../../model/plan.js";
import type { RepeatStatistics } from "../../../model/statistics.js";
import { Prisma } from "../../../prisma/generated/client.js";
import type { Db } from "../../db/client.js";
import { sqlReader } from "../../db/pg-direct.js";
import { type RepeatListing, repeatListing } from "../aggregates/listing.js";
import { settleAggregates } from "../aggregates/settle.js";
import { storedRepeatsSummary } from "../aggregates/stored-summaries.js";
import { type ConfigurationSummary, configurationSummary, type RepeatEntry } from "../aggregates/summaries.js";
import { phaseSummaries, type RunFilters } from "./filters.js";
import { byKeys, groupWhere } from "./group-rows.js";
import { configurations, NO_LEFT_OUT, phaseProperties } from "./phase-groups.js";

export interface RepeatGroup {
  scenario: string;
  engine: string;
  engineVersion: string;
  preset: string;
  nodes: number;
  workload: string | null;
  /** The phase name without its repeat suffix ("a-t4" for a-t4-r0, a-t4-r1). */
  phase: string;
  threadsPerClient: number;
  clients: number;
  target: number | null;
  operationCount: number | null;
  sourceKind: string;
  sourceId: string;
  /** The stand-in that served instead of the engine, if any, and the machines (part of the configuration). */
  standIn: string | null;
  instanceTypes: { data: string; client: string };
  /** All the repeats, the runs they come from and their verdicts, counted. */
  repeatCount: number;
  runCount: number;
  verdicts: Record<string, number>;
  /** The runs of the repeats listed. */
  runs: string[];
  /** The first repeats (at most `listed`): run, phase and what it achieved, in run then phase order. */
  repeats: RepeatEntry[];
  throughput: RepeatStatistics;
  leftOut: LeftOut;
}

type Configuration = Omit<
  RepeatGroup,
  "runs" | "repeats" | "throughput" | "leftOut" | "instanceTypes" | "repeatCount" | "runCount" | "verdicts"
> & {
  dataInstanceType: string;
  clientInstanceType: string;
  firstRunId: string;
  summary: Pick<ConfigurationSummary, "statistics" | "leftOut">;
  listed: Listed;
};

/** A group's repeats: all counted, the first few listed. */
type Listed = Pick<RepeatGroup, "repeatCount" | "runCount" | "verdicts" | "runs" | "repeats">;

/**
 * Repeats of one configuration (model/aggregate/repeats.ts configurationKey: same deployment, source, stand-in,
 * machines, workload, load level and YCSB properties): phases of runs that differ only in their repeat index, or
 * repeat phases of one run ("-r<N>"). Read from the configurations ingest keeps, unless a filter cuts through them.
 * Each group lists its first `listed` repeats and counts them all: at 10,000 runs every repeat of every configuration
 * was a 5 MB answer, written whole to every viewer (docs/benchmarks.md), for a chart that draws a few per configuration.
 */
export async function repeatability(
  db: Db,
  f: RunFilters,
  listed = REPEATS_LISTED,
): Promise<{ groups: RepeatGroup[]; leftOut: LeftOut }> {
  const where = groupWhere(f, "configuration");
  const all = where ? await keptConfigurations(db, f, where, listed) : await computedConfigurations(db, f, listed);
  let leftOut = NO_LEFT_OUT;
  const groups = all
    .filter((c) => {
      leftOut = addLeftOut(leftOut, c.summary.leftOut);
      return c.listed.repeatCount >= 2;
    })
    .sort(
      byKeys((c) => [
        c.engine,
        c.nodes,
        c.firstRunId,
        c.scenario,
        c.engineVersion,
        c.phase,
        c.threadsPerClient * c.clients,
        c.target,
        c.standIn,
        c.dataInstanceType,
        c.clientInstanceType,
      ]),
    )
    .map(({ summary: s, listed: l, firstRunId: _first, dataInstanceType, clientInstanceType, ...c }) => ({
      ...c,
      instanceTypes: { data: dataInstanceType, client: clientInstanceType },
      ...l,
      throughput: s.statistics,
      leftOut: s.leftOut,
    }));
  return { groups, leftOut };
}

/** A group's repeats counted whole, and its first `listed` with their runs. */
export function listedRepeats(repeats: readonly RepeatEntry[], listed: number): Listed {
  const { repeatCount, runCount, verdicts, shown } = repeatListing(repeats, listed);
  return { repeatCount, runCount, verdicts, runs: [...new Set(shown.map((r) => r.runId))], repeats: shown };
}

type KeptRow = Omit<Configuration, "listed" | "summary"> & { summary: unknown; listing: unknown };

/**
 * The kept configurations with their kept listing (api/store/aggregates/listing.ts): the first REPEATS_LISTED repeats
 * and the counts, written at ingest. Asked for more repeats than that (or a row kept before the listing, NULL), the
 * summary's repeats are counted and sliced where they are stored: the API's one thread parses the few repeats it
 * lists, never every repeat of every configuration (40,000 at 10,000 runs).
 */
async function keptConfigurations(db: Db, f: RunFilters, where: Prisma.Sql, listed: number): Promise<Configuration[]> {
  await settleAggregates(db);
  const all = f.include === "all";
  const column = Prisma.raw(all ? "g.summary_all" : "g.summary_valid");
  const head = Prisma.sql`coalesce(${Prisma.raw(all ? "g.head_all" : "g.head_valid")}, ${column})`;
  const kept = Prisma.raw(all ? "g.listing_all" : "g.listing_valid");
  const repeats = Prisma.sql`jsonb_array_elements(coalesce(${column}->'repeats', '[]'::jsonb))`;
  const counted = Prisma.sql`jsonb_build_object(
           'shown', (SELECT coalesce(jsonb_agg(t.e ORDER BY t.i), '[]'::jsonb) FROM ${repeats} WITH ORDINALITY AS t(e, i) WHERE t.i <= ${listed}),
           'repeatCount', (SELECT count(*)::int FROM ${repeats}),
           'runCount', (SELECT count(DISTINCT e->>'runId')::int FROM ${repeats} AS e),
           'verdicts', (SELECT coalesce(jsonb_object_agg(v.verdict, v.n), '{}'::jsonb)
              FROM (SELECT e->>'verdict' AS verdict, count(*) AS n FROM ${repeats} AS e GROUP BY 1) v))`;
  const rows = await sqlReader(db).$queryRaw<KeptRow[]>`
    SELECT g.scenario, g.engine, g.engine_version AS "engineVersion", g.preset, g.nodes, g.workload, g.phase, g.threads_per_client AS "threadsPerClient",
           g.clients, g.target, g.operation_count AS "operationCount", g.source_kind AS "sourceKind", g.source_id AS "sourceId", g.first_run_id AS "firstRunId",
           g.stand_in AS "standIn", g.data_instance_type AS "dataInstanceType", g.client_instance_type AS "clientInstanceType",
           jsonb_build_object('repeats', '[]'::jsonb, 'statistics', ${head}->'statistics', 'leftOut', ${head}->'leftOut') AS summary,
           coalesce(CASE WHEN ${listed}::int <= ${REPEATS_LISTED}::int THEN ${kept} END, ${counted}) AS listing
    FROM configuration_aggregates g WHERE g.kind IN ('workload', 'load') ${where}`;
  return rows.map(({ summary, listing, ...r }) => {
    const l = (listing ?? {}) as Partial<RepeatListing>;
    const shown = Array.isArray(l.shown) ? l.shown.slice(0, listed) : [];
    const s = storedRepeatsSummary({ ...(summary as object), repeats: shown });
    const ok = (s.repeats === shown && typeof l.repeatCount === "number") || l.repeatCount === 0;
    return {
      ...r,
      nodes: Number(r.nodes),
      operationCount: r.operationCount === null ? null : Number(r.operationCount),
      summary: s,
      // A stored summary of another shape reads as no repeats (stored-summaries.ts), counted as none too.
      listed: ok
        ? {
            repeatCount: Number(l.repeatCount),
            runCount: Number(l.runCount),
            verdicts: Object.fromEntries(Object.entries(l.verdicts ?? {}).map(([k, n]) => [k, Number(n)])),
            runs: [...new Set(s.repeats.map((x) => x.runId))],
            repeats: s.repeats,
          }
        : listedRepeats([], listed),
    };
  });
}

/** The same configurations from the phases (a filter cuts through them): the summaries ingest would keep. */
async function computedConfigurations(db: Db, f: RunFilters, listed: number): Promise<Configuration[]> {
  const rows = await phaseSummaries(db, f, [Prisma.sql`p.kind IN ('workload', 'load')`]);
  return configurations(rows, await phaseProperties(db, rows)).map((ps) => {
    const r = ps[0]!;
    return {
      scenario: r.scenario,
      engine: r.engine,
      engineVersion: r.engineVersion,
      preset: r.preset,
      nodes: r.nodes,
      workload: r.workload,
      phase: phaseNameWithoutRepeat(r.phase),
      threadsPerClient: r.threadsPerClient,
      clients: r.clients,
      target: r.target,
      operationCount: r.operationCount,
      sourceKind: r.sourceKind,
      sourceId: r.sourceId,
      standIn: r.standIn ?? null,
      dataInstanceType: r.dataInstanceType,
      clientInstanceType: r.clientInstanceType,
      firstRunId: r.runId,
      ...summaryAndListed(configurationSummary(ps, f.include ?? "valid", new Map()), listed),
    };
  });
}

const summaryAndListed = (s: ConfigurationSummary, listed: number) => ({
  summary: { statistics: s.statistics, leftOut: s.leftOut },
  listed: listedRepeats(s.repeats, listed),
});
