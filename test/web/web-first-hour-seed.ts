/**
 * Runs for the browser tests of what a newcomer sees first (test/web/web-first-hour.test.ts), beside web-seed.ts's and
 * web-decide-seed.ts's: the result documents of a real run of `npm start`'s first benchmark
 * (test/fixtures/local-benchmark, from scripts/capture-local-benchmark-fixtures.ts: seed 004's study on a local
 * Cassandra under three presets, every phase client-bound on a shared 2-core machine), a long history (dense
 * regressions chart) and a short one with a single outlier run, both from real YCSB output scaled as in
 * web-decide-seed.ts.
 */
import { readdirSync, readFileSync } from "node:fs";
import type { ResultDocument } from "../../model/result-document.js";
import { validateResultDocument } from "../../model/result-validation.js";
import { seededRandom as random } from "../support/seeded-random.js";
import { documentsFor, type FixtureOutput, readFixture } from "./web-seed.js";

const LOCAL = new URL("../fixtures/local-benchmark/", import.meta.url);
export const LOCAL_SCENARIO = "usa-2015-durability";
export const LONG_SCENARIO = "web-long-history";
export const OUTLIER_SCENARIO = "web-outlier";
/** The run of the outlier history that ran at 70 % of the others. */
export const OUTLIER = { runs: 14, at: 9, factor: 0.7 } as const;
export const LONG_RUNS = 260;

/** The first benchmark's documents as the runner wrote them, each checked against the contract. */
export function localBenchmarkDocuments(): ResultDocument[] {
  return readdirSync(LOCAL)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => {
      const doc = JSON.parse(readFileSync(new URL(f, LOCAL), "utf8")) as ResultDocument;
      const checked = validateResultDocument(doc);
      if (!checked.ok) throw new Error(`${f}: ${JSON.stringify(checked.errors)}`);
      return doc;
    });
}

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

function history(
  scenario: string,
  runs: number,
  factorOf: (i: number, gauss: () => number) => number,
  seed: number,
): ResultDocument[] {
  const t16 = readFixture("web/sweep-a/t16");
  const r = random(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
  return Array.from({ length: runs }, (_, i) =>
    documentsFor({
      id: `${scenario}-${String(i).padStart(3, "0")}`,
      engine: "hbase",
      preset: "durable",
      nodes: 3,
      phases: [{ workload: "b", clients: [scaled(t16, factorOf(i, gauss))] }],
      day: 100 + i / 10,
    }).map((d) => ({ ...d, run: { ...d.run, scenario } })),
  ).flat();
}

/** A configuration run 260 times (1 % noise): its regressions chart must not be a block of joined points. */
export function longHistoryDocuments(): ResultDocument[] {
  return history(LONG_SCENARIO, LONG_RUNS, (_, g) => 1 + 0.01 * g(), 31);
}

/** 14 runs at 1 % noise, one of them at 70 %: an outlier, not a change. */
export function outlierHistoryDocuments(): ResultDocument[] {
  return history(
    OUTLIER_SCENARIO,
    OUTLIER.runs,
    (i, g) => (i === OUTLIER.at ? OUTLIER.factor : 1) * (1 + 0.01 * g()),
    37,
  );
}
