/** Each phase's operation groups over its clients, kept by ingest (phase_operations). */
import {
  aggregateOperationWithHistogram,
  type ClientOperationInput,
  maxOfClientPercentiles,
} from "../../../model/aggregate/index.js";
import { encodeHistogram } from "../../../model/hdr/histogram.js";
import { bulkInsert, type Row, table } from "../ingest-tables.js";
import { storedOperation } from "../queries/phase-groups.js";
import { storedRuntime, storedThroughput } from "../stored-values.js";
import type { Writer } from "./writer.js";

export const PHASE_OPERATIONS = table("phase_operations", {
  phase_id: "int",
  operation: "text",
  clients: "int",
  count: "float8",
  avg_us: "float8",
  min_us: "float8",
  max_us: "float8",
  percentiles_us: "jsonb",
  percentile_method: "text",
  client_percentiles_us: "jsonb",
  average_of_client_averages_us: "float8",
  hdr_histogram: "text",
});

export interface ClientOperationRow {
  phaseId: number;
  clientId: number;
  clientIndex: number;
  throughputOpsSec: unknown;
  runtimeMs: unknown;
  operation: string;
  count: unknown;
  avgUs: unknown;
  minUs: unknown;
  maxUs: unknown;
  percentilesUs: unknown;
  hdrHistogram: string | null;
}

/**
 * The operation groups of clients this transaction stored, as it wrote them (ingest has them in hand): not read back.
 * Each value is the one written to its column, which reads back the same (float8 and json keep a number exactly).
 */
export interface ClientsInHand {
  clientIds: readonly number[];
  rows: readonly ClientOperationRow[];
}

/** By phase, client index, then operation: the order the stored rows are read in (a client's groups kept together). */
function byPhaseAndClient(a: ClientOperationRow, b: ClientOperationRow): number {
  return (
    a.phaseId - b.phaseId ||
    a.clientIndex - b.clientIndex ||
    (a.operation < b.operation ? -1 : a.operation > b.operation ? 1 : 0)
  );
}

/**
 * Recomputes the operation groups of these phases from their clients (model/aggregate/phase.ts aggregateOperation,
 * as a run's page showed them when it computed them per request): the clients whose throughput and runtime are
 * within the contract, each group's percentiles from the merged histograms where every client has one. The clients
 * in hand are not read back: a batch of whole phases reads nothing (the read was about 9 us of Postgres a document,
 * docs/benchmarks.md).
 */
export async function refreshPhaseOperations(
  tx: Writer,
  phaseIds: readonly number[],
  inHand: ClientsInHand = { clientIds: [], rows: [] },
): Promise<void> {
  if (phaseIds.length === 0) return;
  const ids = [...new Set(phaseIds)];
  const read = await tx.$queryRaw<ClientOperationRow[]>`
    SELECT c.phase_id AS "phaseId", c.id AS "clientId", c.client_index AS "clientIndex", c.throughput_ops_sec AS "throughputOpsSec",
           c.runtime_ms AS "runtimeMs", o.operation, o.count, o.avg_us AS "avgUs", o.min_us AS "minUs", o.max_us AS "maxUs",
           o.percentiles_us AS "percentilesUs", o.hdr_histogram AS "hdrHistogram"
    FROM unnest(${ids}::int[]) AS t(id)
    CROSS JOIN LATERAL (
      SELECT * FROM client_results c WHERE c.phase_id = t.id AND c.id <> ALL(${inHand.clientIds}::int[]) OFFSET 0) c
    CROSS JOIN LATERAL (SELECT * FROM operation_stats o WHERE o.client_result_id = c.id OFFSET 0) o`;
  const rows = inHand.rows.length === 0 ? read : [...read, ...inHand.rows];
  // Sorted here, the clients in hand among those read: a group's clients are merged in client order either way.
  rows.sort(byPhaseAndClient);
  const groups = new Map<string, { phaseId: number; operation: string; inputs: ClientOperationInput[] }>();
  for (const r of rows) {
    // A client outside the contract is left out of its phase (the phase then reads as incomplete).
    if (storedThroughput(r.throughputOpsSec) === null || storedRuntime(r.runtimeMs) === null) continue;
    for (const [operation, input] of storedOperation(r)) {
      const key = `${r.phaseId}\u0000${operation}`;
      const g = groups.get(key) ?? { phaseId: Number(r.phaseId), operation, inputs: [] };
      g.inputs.push(input);
      groups.set(key, g);
    }
  }
  const out: Row<typeof PHASE_OPERATIONS>[] = [...groups.values()].map(({ phaseId, operation, inputs }) => {
    const { aggregate: a, merged } = aggregateOperationWithHistogram(inputs);
    return {
      phase_id: phaseId,
      operation,
      clients: inputs.length,
      count: a.count,
      avg_us: a.avgUs,
      min_us: a.minUs,
      max_us: a.maxUs,
      percentiles_us: a.percentilesUs,
      percentile_method: a.percentileMethod,
      client_percentiles_us: maxOfClientPercentiles(inputs),
      average_of_client_averages_us: a.averageOfClientAveragesUs,
      hdr_histogram: merged ? encodeHistogram(merged) : null,
    };
  });
  await tx.$executeRaw`DELETE FROM phase_operations WHERE phase_id = ANY(${ids}::int[])`;
  if (out.length) await tx.$executeRaw(bulkInsert(PHASE_OPERATIONS, out));
}
