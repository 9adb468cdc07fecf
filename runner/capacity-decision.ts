import {
  type CapacityDecision,
  type JudgedStep,
  judged,
  nextCapacityStep,
  type Plan,
  type PlanPhase,
  parseCapacityDecision,
  type ResultDocument,
  stepMeasurement,
  validateResultDocument,
} from "../model/index.js";
import { capacityDecisionKey, resultKey } from "./keys.js";
import type { ResultsStore } from "./results-store.js";
import { endedEarly, readRunEnd } from "./run-end.js";

export interface DecisionOptions {
  store: ResultsStore;
  runId: string;
  plan: Plan;
  clientIndex: number;
  /** How long a client waits for client 0's decision. */
  timeoutMs: number;
  pollMs?: number;
}

/**
 * The decided target of a capacity step, the same for every client: client 0 judges the earlier steps on every
 * client's stored results and writes the decision once (a restart reads it back); the others wait for it. Every
 * client has passed the step's barrier, and each uploaded its previous step before arriving there.
 */
export async function capacityDecision(o: DecisionOptions, phase: PlanPhase): Promise<CapacityDecision> {
  const key = capacityDecisionKey(o.runId, phase.index, phase.name);
  const stored = await o.store.get(key);
  if (stored) return parseCapacityDecision(stored.toString("utf8"), key);
  if (o.clientIndex !== 0) return waitForDecision(o, key);
  const cap = phase.capacity!;
  const steps = await judgedSteps(o, phase);
  const next = nextCapacityStep(cap.search, steps);
  const decision: CapacityDecision = {
    group: cap.group,
    step: cap.step,
    run: next.run,
    ...(next.run
      ? { role: next.role, ...(next.target === undefined ? {} : { target: next.target }) }
      : { reason: next.reason }),
    decidedBy: 0,
    decidedAt: new Date().toISOString(),
  };
  await o.store.put(key, JSON.stringify(decision), "application/json");
  return decision;
}

/** The steps of the phase's search before it, judged on the fleet's merged results, in order. */
export async function judgedSteps(o: DecisionOptions, phase: PlanPhase): Promise<JudgedStep[]> {
  return (await storedSearch(o, phase.capacity!.group, phase.capacity!.step)).steps;
}

/** What the store holds of one search: where to read it and which plan it ran. */
export type StoredSearchSource = Pick<DecisionOptions, "store" | "runId" | "plan">;

/**
 * A search's steps before `beforeStep` as the store holds them, judged on the fleet's merged results, in order, and
 * the decision that ended the search among them (absent while it runs, or when every planned step ran).
 */
export async function storedSearch(
  o: StoredSearchSource,
  group: string,
  beforeStep = Number.POSITIVE_INFINITY,
): Promise<{ steps: JudgedStep[]; stopped?: CapacityDecision }> {
  const earlier = o.plan.phases.filter((p) => p.capacity?.group === group && p.capacity.step < beforeStep);
  const steps: JudgedStep[] = [];
  for (const p of earlier) {
    const key = capacityDecisionKey(o.runId, p.index, p.name);
    const body = await o.store.get(key);
    if (!body) throw new Error(`capacity step ${p.name}: no decision at ${key}`);
    const d = parseCapacityDecision(body.toString("utf8"), key);
    if (!d.run) return { steps, stopped: d };
    const docs = await Promise.all(
      Array.from({ length: o.plan.deployment.clients }, (_, c) => clientDocument(o, p, c)),
    );
    steps.push(
      judged(p.capacity!.search, p.capacity!.step, d.role!, stepMeasurement(p.capacity!.search, docs, d.target)),
    );
  }
  return { steps };
}

async function clientDocument(o: StoredSearchSource, p: PlanPhase, client: number): Promise<ResultDocument> {
  const key = resultKey(o.runId, p.index, p.name, client);
  const body = await o.store.get(key);
  if (!body) throw new Error(`capacity step ${p.name}: client ${client}'s result is not in the store (${key})`);
  const checked = validateResultDocument(JSON.parse(body.toString("utf8")));
  if (!checked.ok) throw new Error(`${key}: ${checked.errors.map((e) => `${e.path} ${e.message}`).join("; ")}`);
  return checked.value;
}

async function waitForDecision(o: DecisionOptions, key: string): Promise<CapacityDecision> {
  const started = Date.now();
  for (;;) {
    const body = await o.store.get(key);
    if (body) return parseCapacityDecision(body.toString("utf8"), key);
    // Client 0 stopped (its run end says why): no decision will come.
    const ended = endedEarly(await readRunEnd(o.store, o.runId).catch(() => undefined));
    if (ended) throw new Error(`waiting for the capacity decision at ${key}: ${ended}`);
    if (Date.now() - started > o.timeoutMs) {
      throw new Error(`no capacity decision from client 0 at ${key} after ${Math.round(o.timeoutMs / 1000)} s`);
    }
    await new Promise((r) => setTimeout(r, o.pollMs ?? 250));
  }
}
