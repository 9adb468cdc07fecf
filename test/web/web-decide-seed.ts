/**
 * Runs for the browser tests of the views a team decides from (test/web/web-decide.test.ts), beside web-seed.ts's:
 * a configuration's history with a planted drop at a version change, runs with repeats for the noise verdict, and
 * a durability scenario whose presets ran thread sweeps sharing thread counts (equal load). The outputs are real
 * YCSB 0.17.0 (test/fixtures/web/sweep-a); where a run needs another throughput than its fixture's, its throughput
 * is scaled by a factor and its runtime by 1/factor (the same operations in less or more time), as in
 * test/api/api-dashboard.test.ts.
 */
import type { ResultDocument } from "../../model/result-document.js";
import { seededRandom as random } from "../support/seeded-random.js";
import { documentsFor, type FixtureOutput, readFixture } from "./web-seed.js";

export const HISTORY_SCENARIO = "web-history";
export const DURABILITY_SCENARIO = "web-durability";
export const NOISE_SCENARIO = "web-noise";
/** The planted drop: 12 % from 5.0.4 to 5.0.5, under 1 % noise (the first run of 5.0.5 is run 7). */
export const HISTORY = {
  runs: 12,
  changeAt: 6,
  before: "5.0.4",
  after: "5.0.5",
  drop: 0.12,
  operationCount: 10_000,
} as const;

function scaled(f: FixtureOutput, factor: number): FixtureOutput {
  const overall = f.output.overall;
  return {
    ...f,
    output: {
      ...f.output,
      overall: {
        ...overall,
        runtimeMs: overall.runtimeMs / factor,
        throughputOpsSec: overall.throughputOpsSec * factor,
      },
    },
  };
}

function inScenario(
  docs: ResultDocument[],
  scenario: string,
  run: Partial<ResultDocument["run"]> = {},
): ResultDocument[] {
  return docs.map((d) => ({ ...d, run: { ...d.run, scenario, ...run } }));
}

/** Phases i of a run made its repeats: "a-t16-r0", "a-t16-r1", ... with phase.repeat set, as the planner names them. */
function asRepeats(docs: ResultDocument[]): ResultDocument[] {
  return docs.map((d) => ({
    ...d,
    phase: { ...d.phase, name: `${d.phase.name}-r${d.phase.index}`, repeat: d.phase.index },
  }));
}

export interface DecideSeed {
  documents: ResultDocument[];
  historyIds: string[];
  /** Throughput of each history run (ops/s), in order. */
  historyThroughput: number[];
}

export function decideDocuments(): DecideSeed {
  const t16 = readFixture("web/sweep-a/t16");
  const gauss = (r: () => number) => Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
  const r = random(17);
  const documents: ResultDocument[] = [];
  const historyIds: string[] = [];
  const historyThroughput: number[] = [];
  for (let i = 0; i < HISTORY.runs; i++) {
    const id = `web-history-${String(i).padStart(2, "0")}`;
    const factor = (i < HISTORY.changeAt ? 1 : 1 - HISTORY.drop) * (1 + 0.01 * gauss(r));
    const version = i < HISTORY.changeAt ? HISTORY.before : HISTORY.after;
    const docs = documentsFor({
      id,
      engine: "cassandra",
      preset: "balanced",
      nodes: 3,
      phases: [{ workload: "a", clients: [scaled(t16, factor)] }],
      day: 30 + i,
    });
    documents.push(
      ...inScenario(docs, HISTORY_SCENARIO, { engineVersion: version }).map((d) => ({
        ...d,
        phase: { ...d.phase, operationCount: HISTORY.operationCount, operationCountPer: "total" as const },
      })),
    );
    historyIds.push(id);
    historyThroughput.push(t16.output.overall.throughputOpsSec * factor);
  }
  // Three runs of three repeats each: the reference, one within its noise, one 30 % faster.
  const repeats = (id: string, factors: number[], day: number) =>
    asRepeats(
      inScenario(
        documentsFor({
          id,
          engine: "mongodb",
          preset: "throughput",
          nodes: 1,
          phases: factors.map((f) => ({ workload: "a", clients: [scaled(t16, f)] })),
          day,
        }),
        NOISE_SCENARIO,
      ),
    );
  documents.push(
    ...repeats("web-noise-ref", [1, 1.02, 0.98], 50),
    ...repeats("web-noise-same", [1.01, 0.99, 1.0], 51),
    ...repeats("web-noise-faster", [1.3, 1.32, 1.28], 52),
  );
  // Durability at equal load: each preset a thread sweep; durable stops at 16 threads, the others go on to 32.
  const sweep = (id: string, preset: "throughput" | "balanced" | "durable", threads: number[], day: number) =>
    inScenario(
      documentsFor({
        id,
        engine: "cassandra",
        preset,
        nodes: 1,
        phases: threads.map((t) => ({ workload: "a", clients: [readFixture(`web/sweep-a/t${t}`)] })),
        day,
      }),
      DURABILITY_SCENARIO,
    );
  documents.push(
    ...sweep("web-dsweep-throughput", "throughput", [4, 8, 16, 32], 60),
    ...sweep("web-dsweep-balanced", "balanced", [4, 8, 16, 32], 61),
    ...sweep("web-dsweep-durable", "durable", [4, 8, 16], 62),
  );
  return { documents, historyIds, historyThroughput };
}

/**
 * Second runs of two configurations that have a run to pin as baseline, so scaling and sweeps have a mean that
 * differs from it: hbase balanced at 4 nodes in web-test (web-seed.ts's web-scale-n4, its 8-thread fixture) at 1.2x,
 * and the balanced thread sweep of web-durability at 0.9x. Ingested by the baseline test only (after the views that
 * count these configurations' runs).
 */
export const BASELINE_SECOND_RUNS = {
  scaling: { pinned: "web-scale-n4", factor: 1.2 },
  sweeps: { pinned: "web-dsweep-balanced", factor: 0.9 },
} as const;

export function baselineSecondRuns(): ResultDocument[] {
  const { scaling, sweeps } = BASELINE_SECOND_RUNS;
  return [
    ...documentsFor({
      id: "web-scale-n4-again",
      engine: "hbase",
      preset: "balanced",
      nodes: 4,
      phases: [{ workload: "a", clients: [scaled(readFixture("web/sweep-a/t8"), scaling.factor)] }],
      day: 17,
    }),
    ...inScenario(
      documentsFor({
        id: "web-dsweep-balanced-again",
        engine: "cassandra",
        preset: "balanced",
        nodes: 1,
        phases: [4, 8, 16, 32].map((t) => ({
          workload: "a",
          clients: [scaled(readFixture(`web/sweep-a/t${t}`), sweeps.factor)],
        })),
        day: 63,
      }),
      DURABILITY_SCENARIO,
    ),
  ];
}
