/**
 * A study's scenario as a cell one machine can run: the same scenario (its runs keep its name, so they appear on the
 * study's page beside the paper's figures) at a small scale, with a fixed thread count and a target rate instead of
 * the study's step-up, so YCSB, the database and the dashboard sharing two cores still measure the database rather
 * than each other. Each change is a departure of its own, named where the plan and the study page show departures.
 * Pure.
 */

import type { PlannableScenario } from "./plan.js";
import type { Departure, ResetPoint, ResetSpec, ScenarioSpec } from "./scenario.js";

export interface LocalCellOptions {
  /** Records and operations times this (the scenario's own `scale` knob). */
  scale: number;
  /** YCSB threads per client, for the load and every workload (no step-up, no sweep). */
  threadsPerClient: number;
  /** Total YCSB -target over all clients, ops/s; none: as fast as the client can. */
  targetOpsSec?: number;
}

/**
 * `npm start`'s first benchmark: seed 004's durability study (usa-2015-durability) on Cassandra under its three
 * presets, at 1/2,000 of its 20 million records and operations, 4 threads at 300 ops/s. Sized on a 2-core machine:
 * at 8 threads unthrottled YCSB and Cassandra took every core and every phase came back client-bound; at 300 ops/s
 * the database answers every request the moment it comes, so the presets differ in latency, not in queueing.
 */
export const FIRST_BENCHMARK = {
  scenario: "usa-2015-durability",
  engine: "cassandra",
  scale: 0.0005,
  threadsPerClient: 4,
  targetOpsSec: 300,
} as const;

/**
 * `npm start -- --capacity`'s SLO when none is given. The local cell's reads at 300 ops/s had a p99 of 113 ms on a
 * 2-core machine shared with other work (test/fixtures/local-benchmark/balanced-3-a-target300.json): the cloud's
 * "p99 10ms" would break at every step here, so the local search holds reads and updates to 200 ms.
 */
export const LOCAL_CAPACITY_SLO = "READ,UPDATE p99 200ms";

/** The scenario with the local cell's threads, target and departures (its name, engines and presets unchanged). */
export function localCell(spec: PlannableScenario, o: LocalCellOptions): PlannableScenario {
  if (!Number.isInteger(o.threadsPerClient) || o.threadsPerClient < 1) {
    throw new Error(`local cell: threads per client must be a whole number >= 1, got ${String(o.threadsPerClient)}`);
  }
  if (o.targetOpsSec !== undefined && !(o.targetOpsSec > 0))
    throw new Error(`local cell: target must be > 0 ops/s, got ${String(o.targetOpsSec)}`);
  const stepped = spec.threads.stepUp !== undefined || spec.threads.sweep !== undefined;
  // A reset between thread steps belongs to the steps: one thread count has none.
  const resets = Object.fromEntries(Object.entries(spec.resets ?? {}).filter(([point]) => point !== "step")) as Partial<
    Record<ResetPoint, ResetSpec>
  >;
  const departures: Departure[] = [
    ...(spec.departures ?? []),
    {
      what:
        `run on one machine at scale ${o.scale}: ${o.threadsPerClient} thread(s) per client${o.targetOpsSec ? ` at a target of ${o.targetOpsSec} ops/s` : ""}` +
        `${stepped ? ", not the study's thread steps" : ""}`,
      why: "YCSB, the database and the dashboard share this machine's cores: fewer threads and a target keep the client from being the limit",
    },
  ];
  return {
    ...spec,
    threads: { perClient: o.threadsPerClient },
    ...(o.targetOpsSec ? { targets: [o.targetOpsSec] } : {}),
    resets,
    departures,
  };
}

/** What a local run of a study states beside its numbers: the scale it ran at, against the study's records. */
export function scaleOf(spec: Pick<ScenarioSpec, "records">, nodes: number, recordCount: number): number | null {
  const full = spec.records.total ?? (spec.records.perNode ?? 0) * nodes;
  return full > 0 && recordCount > 0 ? recordCount / full : null;
}
