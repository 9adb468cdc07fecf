import type { Plan, PlanPhase } from "../model/index.js";

/**
 * The non-YCSB phases, run by client 0 while the others wait at the barrier: schema preparation, settling after
 * load and between workloads, and the resets a study made (a plan phase of kind "reset": wipe the data, restart
 * the server, drop the OS caches; a wipe is followed by the plan's own prepare and load phases).
 * The runner calls these; what they do depends on where the engine runs. Each returns a line saying what it did
 * (and what it could not), kept with the phase's outcome in the run's manifest.
 */
export interface EngineActions {
  prepareSchema(plan: Plan): Promise<string>;
  settle(phase: PlanPhase): Promise<string>;
  reset(phase: PlanPhase, plan: Plan): Promise<string>;
}

/** What a reset phase asks for, in words ("wipe data, restart server"). */
export function describeReset(phase: PlanPhase): string {
  const r = phase.reset;
  if (!r) return "nothing asked";
  const asked = [
    r.wipeData ? "wipe data" : "",
    r.restartServer ? "restart server" : "",
    r.dropCaches ? "drop caches" : "",
  ].filter(Boolean);
  return `${asked.join(", ") || "nothing asked"} before each ${r.point === "operationCount" ? "operation count" : r.point}`;
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
      const server = phase.serverPreset ? `; server side of preset ${phase.serverPreset} not applied: ${note}` : "";
      const rebalance = phase.settle?.waitForRebalance ? `; rebalance wait: ${note}` : "";
      return `settled for ${sec} s (${phase.settle?.waitForCompactions ? `compaction wait: ${note}` : "no compaction wait asked"})${server}${rebalance}`;
    },
    async reset(phase) {
      // Nothing here can reach the servers: say what was asked and not done, so the manifest shows it.
      return `reset not carried out (${describeReset(phase)}): ${note}`;
    },
  };
}
