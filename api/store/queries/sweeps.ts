/** GET /sweeps: throughput, runtime and latency against total client threads, one series per configuration. */
import { addLeftOut, deploymentIdentity, type LeftOut, selectPhases } from "../../../model/aggregate/index.js";
import { phaseNameWithoutRepeat } from "../../../model/plan.js";
import { Prisma } from "../../../prisma/generated/client.js";
import type { Db } from "../../db/client.js";
import { sqlReader } from "../../db/pg-direct.js";
import { settleAggregates } from "../aggregates/settle.js";
import { storedConfigurationSummary } from "../aggregates/stored-summaries.js";
import { type ConfigurationSummary, configurationSummary } from "../aggregates/summaries.js";
import { phaseSummaries, type RunFilters } from "./filters.js";
import { byKeys, groupWhere, summaryColumn } from "./group-rows.js";
import {
  configurations,
  groupBy,
  MERGE_LIMIT,
  NO_LEFT_OUT,
  phaseOperationParts,
  phaseProperties,
  phaseReasons,
  pointVerdict,
} from "./phase-groups.js";

/** One load level of a sweep: a configuration, as kept by ingest or computed from its phases. */
interface SweepLevel {
  scenario: string;
  engine: string;
  engineVersion: string;
  preset: string;
  nodes: number;
  sourceKind: string;
  sourceId: string;
  standIn: string | null;
  dataInstanceType: string;
  clientInstanceType: string;
  workload: string | null;
  clients: number;
  operationCount: number | null;
  operationCountPer: string | null;
  phase: string;
  threadsPerClient: number;
  target: number | null;
  runs: string[];
  summary: ConfigurationSummary;
}

/**
 * Throughput, runtime and latency against total threads (threads per client x clients), one series per
 * configuration but its load level: its deployment (model/aggregate/repeats.ts deploymentIdentity: scenario, engine
 * and version, preset, nodes, source, stand-in, machines), workload, clients and operation count (seed 003's 1k..1M
 * operations are four series, never one line). A point is one configuration's repeats (a run's "-r<N>" phases and
 * other runs of it): throughput and runtime as mean, CI and n over the repeats counted, latency from all their
 * clients. Read from the configurations ingest keeps, unless a filter cuts through them.
 */
export async function sweeps(db: Db, f: RunFilters, mergeLimit = MERGE_LIMIT) {
  const where = groupWhere(f, "configuration");
  const levels = where ? await keptLevels(db, f, where) : await computedLevels(db, f, mergeLimit);
  return assemble(
    levels,
    await phaseReasons(
      db,
      levels.flatMap((l) => (l.summary.throughput.n > 0 ? l.summary.suspect : [])),
    ),
  );
}

async function keptLevels(db: Db, f: RunFilters, where: Prisma.Sql): Promise<SweepLevel[]> {
  await settleAggregates(db);
  const rows = await sqlReader(db).$queryRaw<(Omit<SweepLevel, "target"> & { target: number | null })[]>`
    SELECT g.scenario, g.engine, g.engine_version AS "engineVersion", g.preset, g.nodes, g.source_kind AS "sourceKind", g.source_id AS "sourceId",
           g.stand_in AS "standIn", g.data_instance_type AS "dataInstanceType", g.client_instance_type AS "clientInstanceType",
           g.workload, g.clients, g.operation_count AS "operationCount", g.operation_count_per AS "operationCountPer", g.phase,
           g.threads_per_client AS "threadsPerClient", g.target, g.runs, ${sweepSummary(f)} AS summary
    FROM configuration_aggregates g WHERE g.kind = 'workload' ${where}`;
  return rows.map((r) => ({
    ...r,
    nodes: Number(r.nodes),
    operationCount: r.operationCount === null ? null : Number(r.operationCount),
    runs: Array.isArray(r.runs) ? r.runs.map(String) : [],
    summary: storedConfigurationSummary(r.summary),
  }));
}

/**
 * The parts of a kept summary a sweep draws: its repeats (one entry per phase counted, most of a summary's bytes: 4 MB
 * over 10,000 runs) are /repeatability's, so the summary without them is read, as ingest keeps it
 * (api/store/aggregates/listing.ts), or cut from the summary for a row kept before that.
 */
const sweepSummary = (f: RunFilters) =>
  Prisma.sql`coalesce(${Prisma.raw(f.include === "all" ? "g.head_all" : "g.head_valid")}, (${summaryColumn(f)} - 'repeats') || '{"repeats":[]}'::jsonb)`;

/** The same levels from the phases (a filter cuts through configurations): the summaries ingest would keep. */
async function computedLevels(db: Db, f: RunFilters, mergeLimit: number): Promise<SweepLevel[]> {
  const rows = await phaseSummaries(db, f, [Prisma.sql`p.kind = 'workload'`]);
  const levels = configurations(rows, await phaseProperties(db, rows));
  const ops = await phaseOperationParts(
    db,
    levels.flatMap((ps) => selectPhases(ps, f.include).counted.map((p) => p.phaseId)),
    mergeLimit,
  );
  return levels.map((ps) => {
    const r = ps[0]!;
    return {
      ...r,
      standIn: r.standIn ?? null,
      phase: phaseNameWithoutRepeat(r.phase),
      runs: [...new Set(ps.map((p) => p.runId))],
      summary: configurationSummary(ps, f.include ?? "valid", ops),
    };
  });
}

function assemble(levels: readonly SweepLevel[], reasons: ReadonlyMap<number, string[]>) {
  let leftOut: LeftOut = NO_LEFT_OUT;
  // A series keeps the engine's versions apart (deploymentIdentity whole); /scaling and /durability span them.
  const key = (l: SweepLevel) => [
    ...deploymentIdentity(l),
    l.workload,
    l.clients,
    l.operationCount,
    l.operationCountPer,
  ];
  const series = groupBy(levels, key).map(({ rows }) => {
    const first = rows[0]!;
    // Counted, not listed: every run id of each series made /sweeps about 1 MB at 10,000 runs (docs/benchmarks.md).
    const runs = [...new Set(rows.flatMap((l) => l.runs))].sort();
    let seriesLeftOut: LeftOut = NO_LEFT_OUT;
    for (const l of rows) seriesLeftOut = addLeftOut(seriesLeftOut, l.summary.leftOut);
    leftOut = addLeftOut(leftOut, seriesLeftOut);
    return {
      runId: runs[0]!,
      runCount: runs.length,
      scenario: first.scenario,
      engine: first.engine,
      preset: first.preset,
      nodes: first.nodes,
      workload: first.workload,
      operationCount: first.operationCount,
      operationCountPer: first.operationCountPer,
      sourceKind: first.sourceKind,
      sourceId: first.sourceId,
      standIn: first.standIn ?? null,
      instanceTypes: { data: first.dataInstanceType, client: first.clientInstanceType },
      engineVersion: first.engineVersion,
      leftOut: seriesLeftOut,
      points: rows
        .filter((l) => l.summary.throughput.n > 0)
        .map(({ phase, threadsPerClient, clients, target, summary: s }) => ({
          phase,
          phases: s.phases,
          threads: threadsPerClient * clients,
          target,
          complete: s.leftOut.incomplete === 0,
          throughputOpsSec: s.throughput.mean!,
          throughput: s.throughput,
          runtimeMs: s.runtime.mean,
          runtime: s.runtime,
          leftOut: s.leftOut,
          ...pointVerdict(s, reasons),
          latency: s.latency,
        }))
        .sort((a, b) => a.threads - b.threads || (a.target ?? 0) - (b.target ?? 0)),
    };
  });
  const ordered = series
    .filter((s) => s.points.length > 0)
    .sort(
      byKeys((s) => [
        s.engine,
        s.nodes,
        s.runId,
        s.scenario,
        s.engineVersion,
        s.preset,
        s.sourceId,
        s.workload,
        s.operationCount,
        s.standIn,
        s.instanceTypes.data,
        s.instanceTypes.client,
      ]),
    );
  return { series: ordered, leftOut };
}
