/** GET /scaling: throughput against nodes per series, with the ideal-linear line and seed 002's score. */
import {
  addLeftOut,
  analyseScaling,
  deploymentIdentity,
  type LeftOut,
  type OverRepeats,
  peakKey,
  type ScalingAnalysis,
} from "../../../model/aggregate/index.js";
import { Prisma } from "../../../prisma/generated/client.js";
import type { Db } from "../../db/client.js";
import { sqlReader } from "../../db/pg-direct.js";
import { settleAggregates } from "../aggregates/settle.js";
import { storedPeakSummary } from "../aggregates/stored-summaries.js";
import { type PeakSummary, peakSummary } from "../aggregates/summaries.js";
import { phaseSummaries, type RunFilters } from "./filters.js";
import { groupWhere, summaryColumn } from "./group-rows.js";
import { groupBy, NO_LEFT_OUT, phaseReasons, pointVerdict } from "./phase-groups.js";

export interface ScalingSeries {
  engine: string;
  workload: string | null;
  preset: string;
  scenario: string;
  sourceKind: string;
  sourceId: string;
  citation: string | null;
  /** The stand-in that served instead of the engine, if any, and the machines: a series of their own. */
  standIn: string | null;
  instanceTypes: { data: string; client: string };
  operationCount: number | null;
  operationCountPer: string | null;
  points: {
    nodes: number;
    throughputOpsSec: number;
    throughput: OverRepeats;
    runs: number;
    phases: number;
    leftOut: LeftOut;
    verdict: string;
    reasons: string[];
  }[];
  leftOut: LeftOut;
  analysis: ScalingAnalysis;
}

/** One cluster size of a series: a peak group (model/aggregate/groups.ts peakKey). */
interface ScalingGroup {
  engine: string;
  workload: string | null;
  preset: string;
  scenario: string;
  sourceKind: string;
  sourceId: string;
  citation: string | null;
  standIn: string | null;
  dataInstanceType: string;
  clientInstanceType: string;
  operationCount: number | null;
  operationCountPer: string | null;
  nodes: number;
  summary: PeakSummary;
}

/**
 * Throughput against nodes per deployment without its size and engine version (model/aggregate/repeats.ts
 * deploymentIdentity: engine, preset, scenario, source, stand-in, machines), workload (the load is workload "load")
 * and operation count. A point is one peak group (model/aggregate/groups.ts peakKey): the mean over repeats of each
 * load level, at the level of the highest mean (seed 002 raised threads until throughput stopped rising), with its CI
 * and n. A published study's figures never merge with another's or with measured runs, and carry the n the study
 * printed. Read from the peak groups ingest keeps, unless a filter cuts through them.
 */
export async function scaling(db: Db, f: RunFilters): Promise<{ series: ScalingSeries[]; leftOut: LeftOut }> {
  const where = groupWhere(f, "peak");
  const groups = where ? await keptGroups(db, f, where) : await computedGroups(db, f);
  // The reasons of the peaks not judged valid (kept by id with each summary): one query, none when all are valid.
  const reasons = await phaseReasons(
    db,
    groups.flatMap((g) => g.summary.suspect),
  );
  let total = NO_LEFT_OUT;
  const series = groupBy(groups, (g) => [
    ...deploymentIdentity(g, SERIES_SPANS),
    g.workload,
    g.operationCount,
    g.operationCountPer,
  ])
    .sort((a, b) => JSON.stringify(a.key).localeCompare(JSON.stringify(b.key)))
    .map(({ rows: gs }) => {
      const g0 = gs[0]!;
      let leftOut = NO_LEFT_OUT;
      const points = gs
        .map(({ nodes, summary: s }) => {
          leftOut = addLeftOut(leftOut, s.leftOut);
          return {
            nodes,
            throughputOpsSec: s.throughput.mean,
            throughput: s.throughput,
            runs: s.runs,
            phases: s.counted,
            leftOut: s.leftOut,
            ...pointVerdict(s, reasons),
          };
        })
        .filter((p): p is typeof p & { throughputOpsSec: number } => p.throughputOpsSec !== null)
        .sort((a, b) => a.nodes - b.nodes);
      total = addLeftOut(total, leftOut);
      return {
        engine: g0.engine,
        workload: g0.workload,
        preset: g0.preset,
        scenario: g0.scenario,
        sourceKind: g0.sourceKind,
        sourceId: g0.sourceId,
        citation: g0.citation,
        standIn: g0.standIn ?? null,
        instanceTypes: { data: g0.dataInstanceType, client: g0.clientInstanceType },
        operationCount: g0.operationCount,
        operationCountPer: g0.operationCountPer,
        points,
        leftOut,
        analysis: analyseScaling(points),
      };
    })
    .filter((s) => s.points.length > 0);
  return { series, leftOut: total };
}

/** What one series spans: its cluster sizes, and the engine's versions (as /durability's cells do). */
const SERIES_SPANS = ["nodes", "engineVersion"] as const;

async function keptGroups(db: Db, f: RunFilters, where: Prisma.Sql): Promise<ScalingGroup[]> {
  await settleAggregates(db);
  const rows = await sqlReader(db).$queryRaw<ScalingGroup[]>`
    SELECT g.engine, g.workload, g.preset, g.scenario, g.source_kind AS "sourceKind", g.source_id AS "sourceId", g.citation,
           g.stand_in AS "standIn", g.data_instance_type AS "dataInstanceType", g.client_instance_type AS "clientInstanceType",
           g.operation_count AS "operationCount", g.operation_count_per AS "operationCountPer", g.nodes, ${summaryColumn(f)} AS summary
    FROM peak_aggregates g WHERE g.kind IN ('workload', 'load') ${where}`;
  return rows.map((r) => ({
    ...r,
    nodes: Number(r.nodes),
    operationCount: r.operationCount === null ? null : Number(r.operationCount),
    summary: storedPeakSummary(r.summary),
  }));
}

/** The same groups from the phases (a filter cuts through peak groups); no latency (scaling shows none). */
async function computedGroups(db: Db, f: RunFilters): Promise<ScalingGroup[]> {
  const rows = await phaseSummaries(db, f, [Prisma.sql`p.kind IN ('workload', 'load')`]);
  const groups = groupBy(rows, (r) => [peakKey(r)]).map((g) => g.rows);
  return groups.map((rs) => {
    const r = rs[0]!;
    return {
      engine: r.engine,
      workload: r.workload,
      preset: r.preset,
      scenario: r.scenario,
      sourceKind: r.sourceKind,
      sourceId: r.sourceId,
      citation: r.citation,
      standIn: r.standIn ?? null,
      dataInstanceType: r.dataInstanceType,
      clientInstanceType: r.clientInstanceType,
      operationCount: r.operationCount,
      operationCountPer: r.operationCountPer,
      nodes: r.nodes,
      summary: peakSummary(rs, f.include ?? "valid", new Map()),
    };
  });
}
