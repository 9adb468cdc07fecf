import type { Engine } from "./engine.js";
import type { Plan, PlanPhase } from "./plan.js";
import type { Preset } from "./presets.js";

/**
 * Load rates measured on a real engine where an assumed rate would mislead an estimate: a durable load waits for
 * its commit window on every write, so its rate is the window's, not the cluster's (model/plan-duration.ts).
 */
export interface MeasuredLoadRate {
  scenario: string;
  engine: Engine;
  /** The preset the load ran under (its server side and client side). */
  preset: Preset;
  threadsPerClient: number;
  /** The study's server settings it ran with, in words. */
  server: string;
  /** Inserts per second of one client. */
  opsPerSec: number;
  records: number;
  measuredAt: string;
  machine: string;
  /** The script that measured it (and measures it again). */
  script: string;
}

export const MEASURED_LOAD_RATES: readonly MeasuredLoadRate[] = [
  {
    // usa-2015-durability's durable cells reload 20M records at 8 threads before every step (seed 004 lines 56-60).
    scenario: "usa-2015-durability",
    engine: "cassandra",
    preset: "durable",
    threadsPerClient: 8,
    server: "commitlog_sync group, 10 ms window (seed 004 lines 263-264)",
    // Two loads of 60,000 records: 428 ops/s (140.2 s) and 448 ops/s (133.8 s); mean insert latency about 16-22 ms,
    // the window and the disk's fsync, not the CPU, bound it.
    opsPerSec: 438,
    records: 60_000,
    measuredAt: "2026-11-24",
    machine: "a 2-core AMD EPYC VM, 24 GiB, ext4, shared with other work (load average 12-16)",
    script: "bench/durable-load.ts",
  },
];

/** The measured rate for a load phase of this plan, where one was measured for its cell and thread count. */
export function measuredLoadRate(plan: Plan, phase: PlanPhase): MeasuredLoadRate | undefined {
  if (phase.kind !== "load") return undefined;
  const d = plan.deployment;
  const preset = phase.preset ?? d.loadPreset;
  const threads = phase.threadsPerClient;
  const sameCell = (m: MeasuredLoadRate) =>
    m.scenario === plan.scenario && m.engine === d.engine && m.preset === preset;
  return MEASURED_LOAD_RATES.find((m) => sameCell(m) && m.threadsPerClient === threads);
}
