import type { JsHistogram } from "hdr-histogram-js";
import { createHistogram, decodeHistogram, sameLayout } from "../hdr/histogram.js";
import { percentileKey } from "../hdr/merge.js";
import { clientsReported, isComplete, phaseRuntimeMs, phaseThroughput } from "./rules.js";

/**
 * Aggregates of one phase over its clients (DESIGN.md): throughput summed, counts summed, the mean weighted by
 * counts (exact: avg x count is each client's sum), percentiles from merged HDR histograms. Without every client's
 * histogram a percentile is reported as the max over clients (an upper bound of the true one) and labelled so.
 */
export interface ClientOperationInput {
  count: number;
  avgUs: number | null;
  minUs: number | null;
  maxUs: number | null;
  percentilesUs: Record<string, number>;
  /** The client's HDR histogram of the operation (compressed base64, V1 or V2), when known. */
  hdrHistogram?: string | null;
}

export interface ClientInput {
  clientIndex: number;
  throughputOpsSec: number;
  runtimeMs: number;
  operations: Record<string, ClientOperationInput>;
}

/** How a percentile was obtained. */
export type PercentileMethod = "merged-hdr" | "single-client" | "max-of-clients";

export interface OperationAggregate {
  count: number;
  /** Count-weighted mean latency over clients (exact). */
  avgUs: number | null;
  minUs: number | null;
  maxUs: number | null;
  percentilesUs: Record<string, number | null>;
  percentileMethod: PercentileMethod;
  /** The seeds' figure: the plain mean of the clients' averages. Shown only as a labelled comparison. */
  averageOfClientAveragesUs: number | null;
}

export interface PhaseAggregate {
  clients: number;
  expectedClients: number;
  /** Every client of the phase reported: only then is the summed throughput the cluster's. */
  complete: boolean;
  throughputOpsSec: number;
  /** The slowest client's runtime. */
  runtimeMs: number;
  operations: Record<string, OperationAggregate>;
}

/** The percentiles every merged aggregate reports: p50 to p99.99 (the compare view's spectrum). */
export const REPORTED_PERCENTILES: readonly number[] = [50, 90, 95, 99, 99.9, 99.99];

/**
 * Merges encoded histograms into one. Clients may have recorded at different precisions (significant digits, lowest
 * discernible value): the merge is then at the coarsest of them, where every input's counts land in the bucket that
 * holds their values (hdr-histogram-js add() re-records each bucket's value); it claims no precision an input lacked.
 * Throws HdrPayloadError for a histogram that does not decode.
 */
export function mergeHistograms(encoded: readonly string[]): JsHistogram | undefined {
  let acc: JsHistogram | undefined;
  // One decoded histogram at a time (a merge may cover thousands of clients).
  for (const e of encoded) {
    const h = decodeHistogram(e);
    if (!acc) acc = createHistogram(h, h.highestTrackableValue);
    else if (
      h.numberOfSignificantValueDigits < acc.numberOfSignificantValueDigits ||
      h.lowestDiscernibleValue > acc.lowestDiscernibleValue
    ) {
      const coarser = createHistogram(
        {
          lowestDiscernibleValue: Math.max(acc.lowestDiscernibleValue, h.lowestDiscernibleValue),
          numberOfSignificantValueDigits: Math.min(
            acc.numberOfSignificantValueDigits,
            h.numberOfSignificantValueDigits,
          ),
        },
        Math.max(acc.highestTrackableValue, h.highestTrackableValue),
      );
      addInto(coarser, acc);
      acc = coarser;
    }
    addInto(acc, h);
  }
  acc?.establishInternalTackingValues();
  return acc;
}

function addInto(acc: JsHistogram, h: JsHistogram): void {
  if (sameLayout(acc, h)) {
    acc.add(h);
    return;
  }
  for (let i = 0; i < h.countsArrayLength; i++) {
    const count = h.getCountAtIndex(i);
    if (count > 0) acc.recordValueWithCount(h.valueFromIndex(i), count);
  }
}

/** The merge, or undefined when any histogram does not decode (a stored value from before the bounds): callers fall back. */
export function mergeHistogramsOrNothing(encoded: readonly string[]): JsHistogram | undefined {
  try {
    return mergeHistograms(encoded);
  } catch {
    return undefined;
  }
}

export function aggregateOperation(
  inputs: readonly ClientOperationInput[],
  percentiles = REPORTED_PERCENTILES,
): OperationAggregate {
  return aggregateOperationWithHistogram(inputs, percentiles).aggregate;
}

/** aggregateOperation, and the merged histogram it read its percentiles from (undefined unless merged-hdr). */
export function aggregateOperationWithHistogram(
  inputs: readonly ClientOperationInput[],
  percentiles = REPORTED_PERCENTILES,
): { aggregate: OperationAggregate; merged: JsHistogram | undefined } {
  const count = inputs.reduce((a, o) => a + o.count, 0);
  const withAvg = inputs.filter((o) => o.avgUs !== null && o.count > 0);
  const avgUs =
    count > 0 && withAvg.length === inputs.filter((o) => o.count > 0).length
      ? withAvg.reduce((a, o) => a + o.avgUs! * o.count, 0) / count
      : null;
  const mins = inputs.map((o) => o.minUs).filter((v): v is number => v !== null);
  const maxs = inputs.map((o) => o.maxUs).filter((v): v is number => v !== null);
  const averages = inputs.map((o) => o.avgUs).filter((v): v is number => v !== null);
  const base = {
    count,
    avgUs,
    minUs: mins.length ? Math.min(...mins) : null,
    maxUs: maxs.length ? Math.max(...maxs) : null,
    averageOfClientAveragesUs: averages.length ? averages.reduce((a, b) => a + b, 0) / averages.length : null,
  };
  const histograms = inputs
    .map((o) => o.hdrHistogram)
    .filter((h): h is string => typeof h === "string" && h.length > 0);
  const merged =
    inputs.length > 0 && histograms.length === inputs.length ? mergeHistogramsOrNothing(histograms) : undefined;
  if (merged) {
    const percentilesUs: Record<string, number | null> = {};
    for (const p of percentiles)
      percentilesUs[percentileKey(p)] = merged.totalCount > 0 ? merged.getValueAtPercentile(p) : null;
    return { aggregate: { ...base, percentilesUs, percentileMethod: "merged-hdr" }, merged };
  }
  return {
    aggregate: {
      ...base,
      percentilesUs: maxOfClientPercentiles(inputs),
      percentileMethod: inputs.length === 1 ? "single-client" : "max-of-clients",
    },
    merged: undefined,
  };
}

/** Each percentile the clients printed, as the max over them (an upper bound of the phase's); null unless all printed it. */
export function maxOfClientPercentiles(
  inputs: readonly Pick<ClientOperationInput, "percentilesUs">[],
): Record<string, number | null> {
  // Loops, not a list per key: ingest runs this for every operation group of every phase it writes.
  const seen = new Set<string>();
  for (const o of inputs) for (const k of Object.keys(o.percentilesUs)) seen.add(k);
  const keys = [...seen].sort((a, b) => Number(a) - Number(b));
  const percentilesUs: Record<string, number | null> = {};
  for (const k of keys) {
    // Math.max's answer over the clients that have the key: NaN if any value reads as NaN.
    let max = Number.NEGATIVE_INFINITY;
    let n = 0;
    for (const o of inputs) {
      const v = o.percentilesUs[k];
      if (v === undefined) continue;
      n++;
      const x = Number(v);
      if (Number.isNaN(x) || Number.isNaN(max)) max = Number.NaN;
      else if (x > max) max = x;
    }
    percentilesUs[k] = n === inputs.length && n > 0 ? max : null;
  }
  return percentilesUs;
}

export function aggregatePhase(clients: readonly ClientInput[], expectedClients: number): PhaseAggregate {
  const ops = [...new Set(clients.flatMap((c) => Object.keys(c.operations)))].sort();
  const operations: Record<string, OperationAggregate> = {};
  for (const op of ops) {
    operations[op] = aggregateOperation(
      clients.map((c) => c.operations[op]).filter((o): o is ClientOperationInput => o !== undefined),
    );
  }
  return {
    clients: clients.length,
    expectedClients,
    complete: isComplete({
      clientsReported: clientsReported(
        clients.map((c) => c.clientIndex),
        expectedClients,
      ),
      clients: expectedClients,
    }),
    throughputOpsSec: phaseThroughput(clients),
    runtimeMs: phaseRuntimeMs(clients),
    operations,
  };
}

/**
 * One operation group of a phase as ingest keeps it (the phase's clients aggregated, `aggregateOperation`): what a
 * view combines over several phases, with the clients' histograms merged where every client had one.
 */
export interface PhaseOperationPart {
  count: number;
  avgUs: number | null;
  /** The max of the phase's clients' printed percentiles (null where one did not print it): the fallback's input. */
  clientPercentilesUs: Record<string, number | null>;
  /** Clients of the phase that printed the group. */
  clients: number;
  hdrHistogram: string | null;
}

/**
 * Several phases' groups as one, by the rules aggregateOperation applies to clients: counts summed, the count-weighted
 * mean, percentiles from the merged histograms when every phase has one (merging merged histograms is merging the
 * clients'), else the max of the phases' own (itself the max of their clients'), labelled by how many clients.
 */
export function combineOperationParts(
  parts: readonly PhaseOperationPart[],
  percentiles: readonly number[] = [99],
  /** The parts' histograms already merged by the caller (null: they do not merge); by default merged here. */
  premerged?: JsHistogram | null,
) {
  const count = parts.reduce((a, o) => a + o.count, 0);
  const counted = parts.filter((o) => o.count > 0);
  const avgUs =
    count > 0 && counted.every((o) => o.avgUs !== null)
      ? counted.reduce((a, o) => a + o.avgUs! * o.count, 0) / count
      : null;
  const clients = parts.reduce((a, o) => a + o.clients, 0);
  const merged = premerged === undefined ? mergedParts(parts) : (premerged ?? undefined);
  const percentilesUs: Record<string, number | null> = {};
  if (merged) {
    for (const p of percentiles)
      percentilesUs[percentileKey(p)] = merged.totalCount > 0 ? merged.getValueAtPercentile(p) : null;
    return { count, avgUs, percentilesUs, percentileMethod: "merged-hdr" as PercentileMethod };
  }
  for (const p of percentiles) {
    const k = percentileKey(p);
    const vs = parts.map((o) => o.clientPercentilesUs[k]).filter((v): v is number => typeof v === "number");
    percentilesUs[k] = vs.length === parts.length && vs.length ? Math.max(...vs) : null;
  }
  return {
    count,
    avgUs,
    percentilesUs,
    percentileMethod: (clients === 1 ? "single-client" : "max-of-clients") as PercentileMethod,
  };
}

/** The parts' histograms merged, when every part has one and all decode (else undefined: percentiles fall back). */
export function mergedParts(parts: readonly Pick<PhaseOperationPart, "hdrHistogram">[]): JsHistogram | undefined {
  const histograms = parts.map((o) => o.hdrHistogram).filter((h): h is string => typeof h === "string" && h.length > 0);
  return parts.length > 0 && histograms.length === parts.length ? mergeHistogramsOrNothing(histograms) : undefined;
}
