/** GET /scaling: throughput against nodes per series, with the ideal-linear line and seed 002's score. */
import { addLeftOut, analyseScaling, type LeftOut, type OverRepeats, type ScalingAnalysis } from "../../../model/aggregate/index.js";
import { Prisma } from "../../../prisma/generated/client.js";
import type { Db } from "../../db/open.js";
import { storedPhaseThroughput } from "../stored-values.js";
import { NOT_QUARANTINED, type RunFilters, SANE_PHASE, sqlFilters } from "./filters.js";
import { NO_LEFT_OUT, atPeakOverRepeats, groupBy, phaseReasons, pointVerdict } from "./phase-groups.js";

export interface ScalingSeries {
  engine: string;
  workload: string | null;
  preset: string;
  scenario: string;
  sourceKind: string;
  sourceId: string;
  citation: string | null;
  operationCount: number | null;
  operationCountPer: string | null;
  points: { nodes: number; throughputOpsSec: number; throughput: OverRepeats; runs: number; phases: number; leftOut: LeftOut; verdict: string; reasons: string[] }[];
  leftOut: LeftOut;
  analysis: ScalingAnalysis;
}

/**
 * Throughput against nodes per engine, workload (the load is workload "load"), preset, operation count and source:
 * each repeat at its peak complete phase (seed 002 raised threads until throughput stopped rising), then the mean
 * over repeats with its CI and n. A published study's figures never merge with another's or with measured runs.
 */
export async function scaling(db: Db, f: RunFilters): Promise<{ series: ScalingSeries[]; leftOut: LeftOut }> {
  // One row per series and cluster size, its phases as arrays: SQL only groups (100,000 client results are some 10,000
  // phases); which phases count and each repeat's peak are the model's rules, applied below.
  const groups = await db.$queryRaw<
    { engine: string; workload: string | null; preset: string; scenario: string; sourceKind: string; sourceId: string; citation: string | null; operationCount: number | null; operationCountPer: string | null; nodes: number; phaseIds: number[]; runIds: string[]; repeats: number[]; throughputs: number[]; reported: number[]; clients: number[]; verdicts: string[] }[]
  >`
    SELECT r.engine, p.workload, p.preset, r.scenario, s.kind AS "sourceKind", s.id AS "sourceId", s.citation,
           p.operation_count AS "operationCount", p.operation_count_per AS "operationCountPer", r.nodes,
           array_agg(p.id) AS "phaseIds", array_agg(p.run_id) AS "runIds", array_agg(p.repeat) AS repeats, array_agg(p.throughput_sum) AS throughputs,
           array_agg(p.clients_reported) AS reported, array_agg(p.clients) AS clients, array_agg(p.verdict) AS verdicts
    FROM phases p
    JOIN runs r ON r.id = p.run_id
    JOIN sources s ON s.id = r.source_id
    ${sqlFilters(f, [Prisma.sql`p.kind IN ('workload', 'load')`, Prisma.sql`p.clients_reported > 0`, SANE_PHASE, NOT_QUARANTINED])}
    GROUP BY r.engine, p.workload, p.preset, r.scenario, s.kind, s.id, s.citation, p.operation_count, p.operation_count_per, r.nodes`;
  let total = NO_LEFT_OUT;
  const series = groupBy(groups, (g) => [g.engine, g.workload, g.preset, g.scenario, g.sourceKind, g.sourceId, g.citation, g.operationCount === null ? null : Number(g.operationCount), g.operationCountPer])
    .sort((a, b) => JSON.stringify(a.key).localeCompare(JSON.stringify(b.key)))
    .map(({ key, rows: gs }) => {
      const [engine, workload, preset, scenario, sourceKind, sourceId, citation, operationCount, operationCountPer] = key as [string, string | null, string, string, string, string, string | null, number | null, string | null];
      let leftOut = NO_LEFT_OUT;
      const points = gs
        .map((g) => {
          const phases = g.runIds.map((runId, i) => ({
            phaseId: Number(g.phaseIds[i]),
            runId,
            repeat: Number(g.repeats[i]),
            throughputOpsSec: storedPhaseThroughput(g.throughputs[i]) ?? 0,
            clientsReported: Number(g.reported[i]),
            clients: Number(g.clients[i]),
            verdict: String(g.verdicts[i]),
          }));
          const agg = atPeakOverRepeats(phases, f.include);
          leftOut = addLeftOut(leftOut, agg.leftOut);
          // The verdict drawn with the point is its peaks' (the phases its value stands on).
          return { nodes: Number(g.nodes), throughputOpsSec: agg.throughput.mean, throughput: agg.throughput, runs: new Set(agg.peaks.map((p) => p.runId)).size, phases: agg.counted.length, leftOut: agg.leftOut, peaks: agg.peaks };
        })
        .filter((p): p is typeof p & { throughputOpsSec: number } => p.throughputOpsSec !== null)
        .sort((a, b) => a.nodes - b.nodes);
      total = addLeftOut(total, leftOut);
      return { engine, workload, preset, scenario, sourceKind, sourceId, citation, operationCount, operationCountPer, points, leftOut, analysis: analyseScaling(points) };
    })
    .filter((s) => s.points.length > 0);
  const reasons = await phaseReasons(db, series.flatMap((s) => s.points.flatMap((p) => p.peaks)));
  return {
    series: series.map((s) => ({ ...s, points: s.points.map(({ peaks, ...p }) => ({ ...p, ...pointVerdict(peaks, reasons) })) })),
    leftOut: total,
  };
}
