import {
  type CapacityResult,
  capacityResult,
  configurationPrice,
  nextCapacityStep,
  type Plan,
} from "../model/index.js";
import { type StoredSearchSource, storedSearch } from "./capacity-decision.js";

/** A finished search of a run: its result (model/capacity-result.ts) and why it ended. */
export interface SearchReport {
  result: CapacityResult;
  endedBecause: string;
}

/** Each capacity group of the plan, in plan order. */
export function capacityGroups(plan: Plan): string[] {
  return [...new Set(plan.phases.flatMap((p) => (p.capacity ? [p.capacity.group] : [])))];
}

/**
 * Every search of a finished run as the store holds it, judged with the same code as the API (model/capacity-result
 * .ts). `machine` is where the run really ran ("local": no price); else the plan's data instance type is priced.
 */
export async function capacityReports(o: StoredSearchSource, machine?: string): Promise<SearchReport[]> {
  const d = o.plan.deployment;
  const price = configurationPrice(machine ?? d.dataInstanceType, d.nodes);
  const reports: SearchReport[] = [];
  for (const group of capacityGroups(o.plan)) {
    const { steps, stopped } = await storedSearch(o, group);
    const search = o.plan.phases.find((p) => p.capacity?.group === group)!.capacity!.search;
    // Every planned step ran: the rule says why it would stop now (the plan's steps are used, or it had ended).
    const next = nextCapacityStep(search, steps);
    const endedBecause = stopped?.reason ?? (next.run ? `the plan's ${search.maxSteps} steps are used` : next.reason);
    reports.push({ result: capacityResult(group, search, steps, price), endedBecause });
  }
  return reports;
}
