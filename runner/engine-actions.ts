import type { Plan, PlanPhase } from "../model/index.js";

/**
 * The non-YCSB phases: schema preparation (client 0 only) and settling after load and between workloads.
 * The runner calls these; what they do depends on where the engine runs.
 */
export interface EngineActions {
  prepareSchema(plan: Plan): Promise<string>;
  settle(phase: PlanPhase): Promise<string>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** For a run whose schema is prepared elsewhere (infra user-data) or needs none (site.ycsb.BasicDB). */
export function passiveActions(note: string): EngineActions {
  return {
    async prepareSchema() {
      return `schema: ${note}`;
    },
    async settle(phase) {
      const sec = phase.settle?.minSec ?? 0;
      if (sec > 0) await sleep(sec * 1000);
      return `settled for ${sec} s (${phase.settle?.waitForCompactions ? `compaction wait: ${note}` : "no compaction wait asked"})`;
    },
  };
}
