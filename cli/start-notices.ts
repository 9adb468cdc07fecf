/**
 * What `npm start` says about its benchmark: where its runs are shown, and (once) what a phase the runner judged
 * client-bound means and how to get a valid run. Pure: the rows come from the store, the text goes to the console.
 */

import type { ScenarioSpec } from "../model/scenario.js";
import { SCENARIOS } from "../model/scenarios.js";

export interface PhaseVerdict {
  phase: string;
  verdict: string;
  /** Reason codes and messages of the phase's clients (runner/validity.ts). */
  reasons: { code: string; message: string }[];
}

/** The seed a built-in scenario reproduces ("004" for usa-2015-durability), or none (quickstart, a file). */
export function seedOfScenario(name: string): string | null {
  const spec = (SCENARIOS as Record<string, ScenarioSpec>)[name];
  const src = spec?.sources.find((s) => "seed" in s && typeof s.seed === "string");
  return src && "seed" in src ? (src.seed ?? null) : null;
}

/** Where a run of the scenario is shown beside the paper's figures: its study page, else the runs list. */
export function studyPageUrl(url: string, scenario: string): string {
  const seed = seedOfScenario(scenario);
  return seed ? `${url}/?view=study&seed=${seed}` : `${url}/?view=runs&scenario=${encodeURIComponent(scenario)}`;
}

/** The highest client CPU a client-bound reason names ("client CPU averaged 93% (> 70%)"), for the notice. */
function cpuOf(message: string): number | null {
  const m = /client CPU averaged (\d+(?:\.\d+)?)%/.exec(message);
  return m ? Number(m[1]) : null;
}

/**
 * Said once, after the first run with a client-bound phase: how many phases, what it means on this machine and how
 * to get a valid run. Null when no phase was client-bound.
 */
export function clientBoundNotice(
  phases: readonly PhaseVerdict[],
  o: { cores: number; engine: string; scenario: string },
): string | null {
  const bound = phases.filter((p) => p.reasons.some((r) => r.code === "client-bound"));
  if (bound.length === 0) return null;
  const cpus = bound
    .flatMap((p) => p.reasons.filter((r) => r.code === "client-bound").map((r) => cpuOf(r.message)))
    .filter((c): c is number => c !== null);
  const cpu = cpus.length ? ` (CPU up to ${Math.max(...cpus).toFixed(0)} %)` : "";
  return [
    `benchmark: ${bound.length} of ${phases.length} phase(s) came back warning (client-bound)${cpu}: YCSB, ${o.engine} and the dashboard share this machine's ${o.cores} core(s),`,
    "  so those numbers measure this machine as much as the database. The dashboard draws them hollow and says why on hover.",
    "  For a valid run: stop other work on this machine, or ask for less (npm start -- --target 150), or run the study on its own",
    `  machines (stacks/Pulumi.${o.scenario}.yaml, docs/infrastructure.md).`,
  ].join("\n");
}
