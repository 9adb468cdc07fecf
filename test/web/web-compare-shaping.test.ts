import { Value } from "@sinclair/typebox/value";
import { describe, expect, it } from "vitest";
import { PhaseResult, RunSummary } from "../../model/api-schemas.js";
import { phaseView, runRow } from "../../web/src/api/runs.js";
import { compareEntries } from "../../web/src/views/compare-groups.js";
import {
  comparedOperations,
  diffCell,
  diffMetrics,
  entryLabel,
  latencyStats,
  percentileMethods,
  throughputStats,
} from "../../web/src/views/compare-shaping.js";

/** The compare view's numbers on answers of the API's own shape (its schemas' defaults, the fields set here). */
const op = (p99Us: number | null) => ({
  count: 10,
  avgUs: 100,
  minUs: 1,
  maxUs: 9000,
  percentilesUs: { "50": 500, "99": p99Us },
  percentileMethod: "merged-hdr" as const,
  averageOfClientAveragesUs: 100,
});

function run(id: string, throughputs: number[], engine = "cassandra") {
  const raw = Value.Create(PhaseResult);
  return {
    run: runRow({
      ...Value.Create(RunSummary),
      id,
      engine,
      engineVersion: "5.0.4",
      preset: "balanced",
      nodes: 1,
      source: { kind: "measured", citation: null, seed: null, table: null },
      verdict: "valid",
    }),
    cost: { priced: false as const, statement: "local run" },
    phases: throughputs.map((t, i) =>
      phaseView({
        ...raw,
        runId: id,
        verdict: "valid",
        phase: {
          ...raw.phase,
          name: `load-16${i ? `-r${i}` : ""}`,
          kind: "workload",
          workload: "a",
          threadsPerClient: 16,
          clients: 1,
          repeat: i,
        },
        aggregate: {
          ...raw.aggregate,
          clients: 1,
          expectedClients: 1,
          complete: true,
          throughputOpsSec: t,
          operations: { UPDATE: op(i ? 2000 : 4000), "UPDATE-FAILED": op(1), CLEANUP: op(1) },
        },
      }),
    ),
  };
}

describe("compare's numbers", () => {
  const entries = compareEntries(
    [run("r1", [1000, 1010, 990]), run("r2", [1500], "mongodb")],
    undefined,
    undefined,
    true,
  );

  it("a statistic per entry over its repeats; operations without cleanup and failed groups; p99 in ms", () => {
    expect(entryLabel(entries[0]!)).toBe("cassandra 5.0.4 balanced 1n (r1)");
    const throughput = throughputStats(entries);
    expect(throughput.map((s) => [s.n, s.mean])).toEqual([
      [3, 1000],
      [1, 1500],
    ]);
    const ops = comparedOperations(entries);
    expect(ops).toEqual(["UPDATE"]);
    const latency = latencyStats(entries, ops);
    expect(latency.labels).toEqual(["UPDATE p50", "UPDATE p95", "UPDATE p99", "UPDATE p99.9", "UPDATE p99.99"]);
    expect(latency.stats[0]![2]!.mean).toBeCloseTo((4 + 2 + 2) / 3);
    expect(latency.stats[0]![1]!.n).toBe(0);
    expect(percentileMethods(entries)).toEqual(["merged-hdr"]);
    // Percentiles nobody has are no row of the differences table.
    expect(diffMetrics(throughput, latency).map((m) => m.name)).toEqual([
      "throughput (ops/s)",
      "UPDATE p50 (ms)",
      "UPDATE p99 (ms)",
    ]);
  });

  it("a change is better or worse by the metric's direction, and only when it exceeds the noise", () => {
    const base = { n: 3, mean: 1000, stdDev: 1, ci95: { low: 990, high: 1010, halfWidth: 10 } };
    const lower = { n: 3, mean: 800, stdDev: 1, ci95: { low: 790, high: 810, halfWidth: 10 } };
    const throughput = { name: "t", stats: [], better: "higher" as const };
    const latency = { name: "l", stats: [], better: "lower" as const };
    expect(diffCell(throughput, base, lower, false)).toMatchObject({ verdict: "exceeds noise", mark: "worse" });
    expect(diffCell(latency, base, lower, false).mark).toBe("better");
    expect(diffCell(latency, base, { ...lower, mean: 1005 }, true).mark).toBe("within noise; not a valid measurement");
    const one = diffCell(throughput, base, { n: 1, mean: 500, stdDev: null, ci95: null }, false);
    expect(one).toMatchObject({ verdict: "noise unknown", mark: "noise unknown (one repeat)" });
    expect(one.title).toMatch(/single repeat/);
  });
});
