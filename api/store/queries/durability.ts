/** GET /durability: the presets side by side, each at its peak, with the latency of those peak phases. */
import { addLeftOut, deploymentIdentity } from "../../../model/aggregate/index.js";
import { Prisma } from "../../../prisma/generated/client.js";
import type { Db } from "../../db/open.js";
import { type RunFilters, phaseSummaries } from "./filters.js";
import { MERGE_LIMIT, NO_LEFT_OUT, atPeakOverRepeats, clientOperations, groupBy, latencyOfPhases } from "./phase-groups.js";

/**
 * Presets side by side per deployment (model/aggregate/repeats.ts deploymentIdentity: engine, cluster size,
 * scenario, source, stand-in, machines; its versions together), workload and operation count. A cell is the mean over repeats at each
 * load level, at the level of the highest mean (seed 004's "maximum throughput"), with its CI and n; its latency comes
 * from that level's phases only (count-weighted mean; p99 from their merged HDR histograms, else the max of the
 * clients' own, labelled).
 */
export async function durability(db: Db, f: RunFilters, mergeLimit = MERGE_LIMIT) {
  const rows = await phaseSummaries(db, f, [Prisma.sql`p.kind = 'workload'`]);
  let leftOut = NO_LEFT_OUT;
  // A cell spans the engine's versions, as a /scaling series does; /repeatability and /sweeps keep them apart.
  const cells = groupBy(rows, (r) => [...deploymentIdentity(r, ["engineVersion"]), r.workload, r.operationCount])
    .map(({ rows: rs }) => ({ first: rs[0]!, phases: rs.length, ...atPeakOverRepeats(rs, f.include, rs[0]!.sourceId) }))
    .filter((c) => {
      leftOut = addLeftOut(leftOut, c.leftOut);
      return c.peaks.length > 0;
    });
  const ops = await clientOperations(db, cells.flatMap((c) => c.peaks.map((r) => r.phaseId)), mergeLimit);
  const out = cells.map(({ first, phases, peaks, throughput, leftOut: cellLeftOut }) => {
    const { engine, workload, preset, nodes, operationCount, scenario, sourceKind, sourceId, citation, standIn } = first;
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
      standIn: standIn ?? null,
      instanceTypes: { data: first.dataInstanceType, client: first.clientInstanceType },
      phases,
      runs: new Set(peaks.map((r) => r.runId)).size,
      peakThreads: [...new Set(peaks.map((r) => r.threadsPerClient * r.clients))].sort((a, b) => a - b),
      throughputOpsSec: throughput.mean,
      throughput,
      leftOut: cellLeftOut,
      // Every client of every peak phase (repeats pooled): merged HDR histograms where all have one, else max of clients.
      operations: latencyOfPhases(peaks, ops),
    };
  });
  return { rows: out, leftOut };
}
