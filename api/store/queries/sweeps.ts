/** GET /sweeps: throughput, runtime and latency against total client threads, one series per configuration. */
import { addLeftOut, overRepeats, selectPhases } from "../../../model/aggregate/index.js";
import { phaseNameWithoutRepeat } from "../../../model/plan.js";
import { Prisma } from "../../../prisma/generated/client.js";
import type { Db } from "../../db/open.js";
import { type RunFilters, phaseSummaries } from "./filters.js";
import { MERGE_LIMIT, NO_LEFT_OUT, clientOperations, configurations, groupBy, latencyOfPhases, phaseProperties, phaseReasons, pointVerdict } from "./phase-groups.js";

/**
 * Throughput, runtime and latency against total threads (threads per client x clients), one series per
 * configuration but its load level: scenario, engine and version, preset, nodes, source, workload, clients and
 * operation count (seed 003's 1k..1M operations are four series, never one line). A point is one configuration's
 * repeats (a run's "-r<N>" phases and other runs of it): throughput and runtime as mean, CI and n over the repeats
 * counted, latency from all their clients.
 */
export async function sweeps(db: Db, f: RunFilters, mergeLimit = MERGE_LIMIT) {
  const rows = await phaseSummaries(db, f, [Prisma.sql`p.kind = 'workload'`]);
  const properties = await phaseProperties(db, rows);
  const points = configurations(rows, properties).map((ps) => ({ ps, ...selectPhases(ps, f.include) }));
  const ops = await clientOperations(db, points.flatMap((p) => p.counted.map((r) => r.phaseId)), mergeLimit);
  const reasons = await phaseReasons(db, points.flatMap((p) => p.counted));
  let leftOut = NO_LEFT_OUT;
  const series = groupBy(points, ({ ps: [r] }) => [r!.scenario, r!.engine, r!.engineVersion, r!.preset, r!.nodes, r!.sourceKind, r!.sourceId, r!.workload, r!.clients, r!.operationCount, r!.operationCountPer]).map(({ rows: levels }) => {
    const first = levels[0]!.ps[0]!;
    let seriesLeftOut = NO_LEFT_OUT;
    const counted = levels.filter((l) => {
      seriesLeftOut = addLeftOut(seriesLeftOut, l.leftOut);
      return l.counted.length > 0;
    });
    leftOut = addLeftOut(leftOut, seriesLeftOut);
    return {
      runId: first.runId,
      runs: [...new Set(levels.flatMap((l) => l.ps.map((p) => p.runId)))],
      scenario: first.scenario,
      engine: first.engine,
      preset: first.preset,
      nodes: first.nodes,
      workload: first.workload,
      operationCount: first.operationCount,
      operationCountPer: first.operationCountPer,
      sourceKind: first.sourceKind,
      sourceId: first.sourceId,
      engineVersion: first.engineVersion,
      leftOut: seriesLeftOut,
      points: counted
        .map(({ ps, counted: cs, leftOut: pointLeftOut }) => {
          const throughput = overRepeats(cs.map((p) => p.throughputOpsSec));
          const runtime = overRepeats(cs.map((p) => p.runtimeMs));
          return {
            phase: phaseNameWithoutRepeat(ps[0]!.phase),
            phases: cs.map((p) => p.phase),
            threads: ps[0]!.threadsPerClient * ps[0]!.clients,
            target: ps[0]!.target,
            complete: pointLeftOut.incomplete === 0,
            throughputOpsSec: throughput.mean!,
            throughput,
            runtimeMs: runtime.mean,
            runtime,
            leftOut: pointLeftOut,
            ...pointVerdict(cs, reasons),
            latency: latencyOfPhases(cs, ops),
          };
        })
        .sort((a, b) => a.threads - b.threads || (a.target ?? 0) - (b.target ?? 0)),
    };
  });
  return { series: series.filter((s) => s.points.length > 0), leftOut };
}
