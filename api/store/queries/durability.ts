/** GET /durability: the presets side by side, each at its peak, with the latency of those peak phases. */
import { addLeftOut, type LeftOut, peakKey } from "../../../model/aggregate/index.js";
import { Prisma } from "../../../prisma/generated/client.js";
import type { Db } from "../../db/client.js";
import { sqlReader } from "../../db/pg-direct.js";
import { settleAggregates } from "../aggregates/settle.js";
import { storedPeakSummary } from "../aggregates/stored-summaries.js";
import { type PeakSummary, peakSummary } from "../aggregates/summaries.js";
import { phaseSummaries, type RunFilters } from "./filters.js";
import { byKeys, groupWhere, summaryColumn } from "./group-rows.js";
import {
  atPeakOverRepeats,
  groupBy,
  MERGE_LIMIT,
  NO_LEFT_OUT,
  phaseOperationParts,
  phaseReasons,
  pointVerdict,
} from "./phase-groups.js";

/** A cell: one peak group (model/aggregate/groups.ts peakKey) of workload phases. */
interface Cell {
  engine: string;
  workload: string | null;
  preset: string;
  nodes: number;
  operationCount: number | null;
  operationCountPer: string | null;
  scenario: string;
  sourceKind: string;
  sourceId: string;
  citation: string | null;
  standIn: string | null;
  dataInstanceType: string;
  clientInstanceType: string;
  phases: number;
  summary: PeakSummary;
}

/**
 * Presets side by side per deployment (model/aggregate/repeats.ts deploymentIdentity: engine, cluster size,
 * scenario, source, stand-in, machines; its versions together), workload and operation count: one peak group
 * (model/aggregate/groups.ts peakKey). A cell is the mean over repeats at each load level, at the level of the highest
 * mean (seed 004's "maximum throughput"), with its CI and n; its latency comes from that level's phases only
 * (count-weighted mean; p99 from their merged HDR histograms, else the max of the clients' own, labelled). Read from
 * the peak groups ingest keeps, unless a filter cuts through them.
 */
export async function durability(db: Db, f: RunFilters, mergeLimit = MERGE_LIMIT) {
  const where = groupWhere(f, "peak");
  const cells = where ? await keptCells(db, f, where) : await computedCells(db, f, mergeLimit);
  const reasons = await phaseReasons(
    db,
    cells.flatMap((c) => (c.summary.runs > 0 ? c.summary.suspect : [])),
  );
  let leftOut: LeftOut = NO_LEFT_OUT;
  const rows = cells
    .filter((c) => {
      leftOut = addLeftOut(leftOut, c.summary.leftOut);
      return c.summary.runs > 0;
    })
    .sort(
      byKeys((c) => [
        c.engine,
        c.nodes,
        c.scenario,
        c.sourceId,
        c.workload,
        c.preset,
        c.operationCount,
        c.operationCountPer,
        c.standIn,
        c.dataInstanceType,
        c.clientInstanceType,
      ]),
    )
    .map(({ summary: s, phases, dataInstanceType, clientInstanceType, ...c }) => ({
      ...c,
      instanceTypes: { data: dataInstanceType, client: clientInstanceType },
      phases,
      runs: s.runs,
      peakThreads: s.peakThreads,
      throughputOpsSec: s.throughput.mean,
      throughput: s.throughput,
      leftOut: s.leftOut,
      // The verdict of the peak phases the cell stands on, with their reasons.
      ...pointVerdict(s, reasons),
      // Every client of every peak phase (repeats pooled): merged HDR histograms where all have one, else max of clients.
      operations: s.latency,
    }));
  return { rows, leftOut };
}

async function keptCells(db: Db, f: RunFilters, where: Prisma.Sql): Promise<Cell[]> {
  await settleAggregates(db);
  const rows = await sqlReader(db).$queryRaw<Cell[]>`
    SELECT g.engine, g.workload, g.preset, g.nodes, g.operation_count AS "operationCount", g.operation_count_per AS "operationCountPer",
           g.scenario, g.source_kind AS "sourceKind", g.source_id AS "sourceId", g.citation,
           g.stand_in AS "standIn", g.data_instance_type AS "dataInstanceType", g.client_instance_type AS "clientInstanceType",
           g.phases, ${summaryColumn(f)} AS summary
    FROM peak_aggregates g WHERE g.kind = 'workload' ${where}`;
  return rows.map((r) => ({
    ...r,
    nodes: Number(r.nodes),
    phases: Number(r.phases),
    operationCount: r.operationCount === null ? null : Number(r.operationCount),
    summary: storedPeakSummary(r.summary),
  }));
}

/** The same cells from the phases (a filter cuts through peak groups): the summaries ingest would keep. */
async function computedCells(db: Db, f: RunFilters, mergeLimit: number): Promise<Cell[]> {
  const rows = await phaseSummaries(db, f, [Prisma.sql`p.kind = 'workload'`]);
  const groups = groupBy(rows, (r) => [peakKey(r)]).map((g) => g.rows);
  const include = f.include ?? "valid";
  const ops = await phaseOperationParts(
    db,
    groups.flatMap((rs) => atPeakOverRepeats(rs, include, rs[0]!.sourceId).peaks.map((p) => p.phaseId)),
    mergeLimit,
  );
  return groups.map((rs) => {
    const r = rs[0]!;
    return {
      engine: r.engine,
      workload: r.workload,
      preset: r.preset,
      nodes: r.nodes,
      operationCount: r.operationCount,
      operationCountPer: r.operationCountPer,
      scenario: r.scenario,
      sourceKind: r.sourceKind,
      sourceId: r.sourceId,
      citation: r.citation,
      standIn: r.standIn ?? null,
      dataInstanceType: r.dataInstanceType,
      clientInstanceType: r.clientInstanceType,
      phases: rs.length,
      summary: peakSummary(rs, include, ops),
    };
  });
}
