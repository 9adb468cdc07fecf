/** GET /durability: the presets side by side, each at its peak, with the latency of those peak phases. */
import { addLeftOut } from "../../../model/aggregate/index.js";
import { Prisma } from "../../../prisma/generated/client.js";
import type { Db } from "../../db/open.js";
import { type RunFilters, phaseSummaries } from "./filters.js";
import { MERGE_LIMIT, NO_LEFT_OUT, atPeakOverRepeats, clientOperations, groupBy, latencyOfPhases, phaseReasons, pointVerdict } from "./phase-groups.js";

/**
 * Presets side by side per engine, workload, operation count and cluster size. A cell is each repeat at its peak
 * phase (highest throughput over its thread and target steps: seed 004's "maximum throughput"), then the mean over
 * repeats with its CI and n; its latency comes from those peak phases only (count-weighted mean; p99 from their
 * merged HDR histograms, else the max of the clients' own, labelled).
 */
export async function durability(db: Db, f: RunFilters, mergeLimit = MERGE_LIMIT) {
  const rows = await phaseSummaries(db, f, [Prisma.sql`p.kind = 'workload'`]);
  let leftOut = NO_LEFT_OUT;
  const cells = groupBy(rows, (r) => [r.engine, r.workload, r.scenario, r.sourceKind, r.sourceId, r.citation, r.preset, r.nodes, r.operationCount])
    .map(({ key, rows: rs }) => ({ key: key as [string, string | null, string, string, string, string | null, string, number, number | null], phases: rs.length, ...atPeakOverRepeats(rs, f.include) }))
    .filter((c) => {
      leftOut = addLeftOut(leftOut, c.leftOut);
      return c.peaks.length > 0;
    });
  const ops = await clientOperations(db, cells.flatMap((c) => c.peaks.map((r) => r.phaseId)), mergeLimit);
  const reasons = await phaseReasons(db, cells.flatMap((c) => c.peaks));
  const out = cells.map(({ key, phases, peaks, throughput, leftOut: cellLeftOut }) => {
    const [engine, workload, scenario, sourceKind, sourceId, citation, preset, nodes, operationCount] = key;
    return {
      engine,
      workload,
      preset,
      nodes,
      operationCount,
      scenario,
      sourceKind,
      sourceId,
      citation,
      phases,
      runs: new Set(peaks.map((r) => r.runId)).size,
      peakThreads: [...new Set(peaks.map((r) => r.threadsPerClient * r.clients))].sort((a, b) => a - b),
      throughputOpsSec: throughput.mean,
      throughput,
      leftOut: cellLeftOut,
      // The verdict of the phases the cell's value stands on (its peaks), with their reasons.
      ...pointVerdict(peaks, reasons),
      // Every client of every peak phase (repeats pooled): merged HDR histograms where all have one, else max of clients.
      operations: latencyOfPhases(peaks, ops),
    };
  });
  return { rows: out, leftOut };
}
