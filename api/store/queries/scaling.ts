/** GET /scaling: throughput against nodes per series, with the ideal-linear line and seed 002's score. */
import { addLeftOut, analyseScaling, deploymentIdentity, type LeftOut, type OverRepeats, type ScalingAnalysis } from "../../../model/aggregate/index.js";
import { LIMITS } from "../../../model/result-limits.js";
import { Prisma } from "../../../prisma/generated/client.js";
import type { Db } from "../../db/open.js";
import { storedNumber, storedPhaseThroughput } from "../stored-values.js";
import { NOT_QUARANTINED, type RunFilters, SANE_PHASE, sqlFilters } from "./filters.js";
import { NO_LEFT_OUT, atPeakOverRepeats, groupBy } from "./phase-groups.js";

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
  points: { nodes: number; throughputOpsSec: number; throughput: OverRepeats; runs: number; phases: number; leftOut: LeftOut }[];
  leftOut: LeftOut;
  analysis: ScalingAnalysis;
}

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
  runIds: string[];
  repeats: number[];
  throughputs: number[];
  reported: number[];
  clients: number[];
  threads: number[];
  targets: (number | null)[];
  verdicts: string[];
}

/**
 * Throughput against nodes per deployment without its size and engine version (model/aggregate/repeats.ts
 * deploymentIdentity: engine, preset, scenario, source, stand-in, machines), workload (the load is workload "load")
 * and operation count: at each size the mean over repeats of each load level, at the level of the highest mean (seed 002 raised
 * threads until throughput stopped rising), with its CI and n. A published study's figures never merge with
 * another's or with measured runs, and carry the n the study printed.
 */
export async function scaling(db: Db, f: RunFilters): Promise<{ series: ScalingSeries[]; leftOut: LeftOut }> {
  // One row per series and cluster size, its phases as arrays: SQL only groups (100,000 client results are some 10,000
  // phases); which phases count and which level is the peak are the model's rules, applied below.
  const groups = await db.$queryRaw<ScalingGroup[]>`
    SELECT r.engine, p.workload, p.preset, r.scenario, s.kind AS "sourceKind", s.id AS "sourceId",
           s.citation, r.stand_in AS "standIn", r.data_instance_type AS "dataInstanceType", r.client_instance_type AS "clientInstanceType",
           p.operation_count AS "operationCount", p.operation_count_per AS "operationCountPer", r.nodes,
           array_agg(p.run_id) AS "runIds", array_agg(p.repeat) AS repeats, array_agg(p.throughput_sum) AS throughputs,
           array_agg(p.clients_reported) AS reported, array_agg(p.clients) AS clients, array_agg(p.threads_per_client) AS threads,
           array_agg(p.target) AS targets, array_agg(p.verdict) AS verdicts
    FROM phases p
    JOIN runs r ON r.id = p.run_id
    JOIN sources s ON s.id = r.source_id
    ${sqlFilters(f, [Prisma.sql`p.kind IN ('workload', 'load')`, Prisma.sql`p.clients_reported > 0`, SANE_PHASE, NOT_QUARANTINED])}
    GROUP BY r.engine, p.workload, p.preset, r.scenario, s.kind, s.id, s.citation, r.stand_in, r.data_instance_type,
             r.client_instance_type, p.operation_count, p.operation_count_per, r.nodes`;
  let total = NO_LEFT_OUT;
  const series = groupBy(groups, (g) => [...deploymentIdentity(g, SERIES_SPANS), g.workload, g.operationCount === null ? null : Number(g.operationCount), g.operationCountPer])
    .sort((a, b) => JSON.stringify(a.key).localeCompare(JSON.stringify(b.key)))
    .map(({ rows: gs }) => {
      const g0 = gs[0]!;
      let leftOut = NO_LEFT_OUT;
      const points = gs
        .map((g) => {
          const agg = atPeakOverRepeats(phasesOf(g), f.include, g.sourceId);
          leftOut = addLeftOut(leftOut, agg.leftOut);
          return { nodes: Number(g.nodes), throughputOpsSec: agg.throughput.mean, throughput: agg.throughput, runs: new Set(agg.peaks.map((p) => p.runId)).size, phases: agg.counted.length, leftOut: agg.leftOut };
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
        operationCount: g0.operationCount === null ? null : Number(g0.operationCount),
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

/** The phases of one series at one size, as the model's rules read them. */
function phasesOf(g: ScalingGroup) {
  return g.runIds.map((runId, i) => ({
    runId,
    repeat: Number(g.repeats[i]),
    throughputOpsSec: storedPhaseThroughput(g.throughputs[i]) ?? 0,
    clientsReported: Number(g.reported[i]),
    clients: Number(g.clients[i]),
    threadsPerClient: Number(g.threads[i]),
    target: storedNumber(g.targets[i], LIMITS.throughputOpsSec),
    verdict: String(g.verdicts[i]),
  }));
}
