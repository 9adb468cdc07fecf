/** GET /repeatability: each configuration's repeats with their mean, spread and confidence interval. */
import { addLeftOut, selectPhases, type LeftOut } from "../../../model/aggregate/index.js";
import { repeatStatistics, type RepeatStatistics } from "../../../model/statistics.js";
import { phaseNameWithoutRepeat } from "../../../model/plan.js";
import { Prisma } from "../../../prisma/generated/client.js";
import type { Db } from "../../db/open.js";
import { type RunFilters, phaseSummaries } from "./filters.js";
import { NO_LEFT_OUT, configurations, phaseProperties } from "./phase-groups.js";

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
  runs: string[];
  /** Each repeat: its run, its phase and what it achieved, in run then phase order. */
  repeats: { runId: string; phase: string; runRepeat: number; repeat: number; throughputOpsSec: number; verdict: string }[];
  throughput: RepeatStatistics;
  leftOut: LeftOut;
}

/**
 * Repeats of one configuration (model/aggregate/repeats.ts configurationKey: same deployment, source, stand-in,
 * machines, workload, load level and YCSB properties): phases of runs that differ only in their repeat index, or
 * repeat phases of one run ("-r<N>").
 */
export async function repeatability(db: Db, f: RunFilters): Promise<{ groups: RepeatGroup[]; leftOut: LeftOut }> {
  const rows = await phaseSummaries(db, f, [Prisma.sql`p.kind IN ('workload', 'load')`]);
  let leftOut = NO_LEFT_OUT;
  const groups = configurations(rows, await phaseProperties(db, rows)).flatMap((rs) => {
    const { counted, leftOut: groupLeftOut } = selectPhases(rs, f.include);
    leftOut = addLeftOut(leftOut, groupLeftOut);
    if (counted.length < 2) return [];
    const first = counted[0]!;
    const repeats = counted
      .map((r) => ({ runId: r.runId, phase: r.phase, runRepeat: r.runRepeat, repeat: r.repeat, throughputOpsSec: r.throughputOpsSec, verdict: r.verdict }))
      .sort((a, b) => a.runRepeat - b.runRepeat || a.runId.localeCompare(b.runId) || a.repeat - b.repeat);
    return [
      {
        scenario: first.scenario,
        engine: first.engine,
        engineVersion: first.engineVersion,
        preset: first.preset,
        nodes: first.nodes,
        workload: first.workload,
        phase: phaseNameWithoutRepeat(first.phase),
        threadsPerClient: first.threadsPerClient,
        clients: first.clients,
        target: first.target,
        operationCount: first.operationCount,
        sourceKind: first.sourceKind,
        sourceId: first.sourceId,
        standIn: first.standIn ?? null,
        instanceTypes: { data: first.dataInstanceType, client: first.clientInstanceType },
        runs: [...new Set(counted.map((r) => r.runId))],
        repeats,
        throughput: repeatStatistics(repeats.map((r) => r.throughputOpsSec)),
        leftOut: groupLeftOut,
      },
    ];
  });
  return { groups, leftOut };
}
