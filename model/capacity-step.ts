import { aggregateOperation, phaseThroughput } from "./aggregate/index.js";
import type { ClientOperationInput } from "./aggregate/phase.js";
import type { CapacitySearch, StepMeasurement, StepOperation } from "./capacity-search.js";

/** What a step needs of one client's result: a result document, or the same facts as the store keeps them. */
export interface StepClient {
  result: {
    overall: { throughputOpsSec: number };
    operations: Record<string, ClientOperationInput & { returns: Record<string, number> }>;
  };
  hdrHistograms?: Record<string, string> | null;
}

/**
 * A capacity step's fleet-wide measurement from every client's result document: throughput summed, counts summed,
 * percentiles from the merged HDR histograms of the operation and of its Intended- group (DESIGN.md: never one
 * client's percentile, never an average of percentiles).
 */
export function stepMeasurement(s: CapacitySearch, docs: readonly StepClient[], target?: number): StepMeasurement {
  const groups = [...new Set(docs.flatMap((d) => Object.keys(d.result.operations)))];
  const counted = groups.filter((g) => !g.startsWith("Intended-") && !g.endsWith("-FAILED") && g !== "CLEANUP");
  const operations: Record<string, StepOperation> = {};
  for (const op of counted) {
    operations[op] = {
      count: sum(docs, (d) => d.result.operations[op]?.count ?? 0),
      failed: sum(docs, (d) => failedOf(d.result.operations[op]?.returns ?? {})),
      opMs: percentileMs(docs, op, s.slo.percentile),
      intendedMs: percentileMs(docs, `Intended-${op}`, s.slo.percentile),
    };
  }
  const clients = docs.map((d) => ({ throughputOpsSec: d.result.overall.throughputOpsSec }));
  return { ...(target === undefined ? {} : { target }), achievedOpsSec: phaseThroughput(clients), operations };
}

const sum = <T>(xs: readonly T[], f: (x: T) => number) => xs.reduce((a, x) => a + f(x), 0);

/** YCSB's Return= counts: anything but OK failed (YCSB 0.17.0 Status: ERROR, NOT_FOUND, UNEXPECTED_STATE, ...). */
function failedOf(returns: Record<string, number>): number {
  return Object.entries(returns).reduce((a, [status, n]) => (status === "OK" ? a : a + n), 0);
}

/** The merged percentile of a group, ms; null unless every client that ran it left its histogram. */
function percentileMs(docs: readonly StepClient[], group: string, percentile: number): number | null {
  const inputs = docs.flatMap((d) => {
    const o = d.result.operations[group];
    if (!o || o.count === 0) return [];
    return [{ ...o, hdrHistogram: d.hdrHistograms?.[group] ?? null }];
  });
  if (!inputs.length) return null;
  const agg = aggregateOperation(inputs, [percentile]);
  if (agg.percentileMethod !== "merged-hdr") return null;
  const us = Object.values(agg.percentilesUs)[0];
  return us === null || us === undefined ? null : us / 1000;
}
