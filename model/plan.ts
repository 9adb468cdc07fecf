import { clientProperties, type Preset } from "./presets.js";
import { resolveDeployment, ScenarioError, type Deployment, type DeploymentChoice, type ScenarioSpec } from "./scenario.js";
import { workload as workloadById } from "./workloads.js";
import { splitInserts, splitOperations, type InsertRange } from "./plan-split.js";

export { splitInserts, splitOperations, type InsertRange } from "./plan-split.js";

/**
 * A plan is a scenario turned into the ordered phases every client runs in lock-step (seed 000: "all client
 * instances were instructed to run the workloads in parallel, and then wait until all client instances completed").
 * Pure: the runner executes it, `ycsb-lab plan` prints it.
 */
export const PLAN_VERSION = 1 as const;

/** Whether a scenario's operation count is each client's YCSB operationcount or the total over all clients. */
export type OperationCountPer = "client" | "total";

export type PlanPhaseKind = "prepare" | "load" | "settle" | "warmup" | "workload";

/** A phase of a step-up group: run only while the previous step raised total throughput (seeds 002, 004). */
export interface StepUpStep {
  /** Phases of one group share this id; steps are tried in plan order. */
  group: string;
  /** 0 for the first step of the group, which always runs. */
  step: number;
  /** The next step runs only if this step's total throughput beat the best so far by at least this much. */
  minGainPct: number;
}

export interface PlanPhase {
  /** Position in the plan; also the barrier and results-layout index. */
  index: number;
  /** Unique within the plan, e.g. "load", "a-t64-r0", "b-step-t8-r1". */
  name: string;
  kind: PlanPhaseKind;
  /** Which clients act; the others only pass the barrier (prepare runs on client 0 only). */
  clientsActive: "all" | number[];
  workload?: string;
  /** The preset whose client side is applied (the load may use its own, seed 000). */
  preset?: Preset;
  /** YCSB properties shared by every client (per-client ones are in `perClient`). */
  properties: Record<string, string>;
  /** Per-client YCSB properties, index = client index (load: insertstart/insertcount; runs: operationcount). */
  perClient: Record<string, string>[];
  threadsPerClient: number;
  /** YCSB -target per client, ops/s. */
  targetPerClient?: number;
  /** Total target over all clients, as the scenario named it. */
  target?: number;
  /** The operation count as the scenario stated it: each client's YCSB operationcount, or the total (`operationCountPer`). */
  operationCount?: number;
  operationCountPer?: OperationCountPer;
  maxExecutionTimeSec?: number;
  repeat: number;
  /** Settle: engine-specific wait (seed 000 waited for compactions to finish). */
  settle?: { waitForCompactions: boolean; minSec: number };
  /** Set on the warm-up of a step too: it is skipped with its step. */
  stepUp?: StepUpStep;
  /** Result kept but excluded from aggregates (warm-up). */
  discard?: boolean;
}

export interface Plan {
  planVersion: typeof PLAN_VERSION;
  scenario: string;
  deployment: Deployment;
  phases: PlanPhase[];
}

/** Plan-only extensions a scenario file may carry beside ScenarioSpec. */
export interface PlanExtras {
  /** Target sweep: each workload run at each total target (ops/s over all clients). */
  targets?: number[];
}

export type PlannableScenario = ScenarioSpec & PlanExtras;

/**
 * The operation count of a phase bounded by maxexecutiontime only. YCSB 0.17.0 runs no operation at all with
 * operationcount=0 (measured), and parses the count as an int, so: the largest round count below 2^31.
 */
export const UNLIMITED_OPERATIONS = "2000000000";

const scaled = (n: number, scale: number) => Math.max(1, Math.round(n * scale));

/** Thread counts of a step-up, start * factor^k up to max (seed 002: "incrementally increase the number of threads"). */
export function stepUpThreads(s: { start: number; factor: number; max: number }): number[] {
  if (!(s.start >= 1) || !(s.factor > 1) || !(s.max >= s.start)) {
    throw new ScenarioError("threads.stepUp", `needs start >= 1, factor > 1, max >= start (got ${JSON.stringify(s)})`);
  }
  const out: number[] = [];
  for (let t = s.start; t <= s.max; t = Math.ceil(t * s.factor)) out.push(t);
  return out;
}

/** The properties every phase shares: record shape, key space, scenario extras (later entries win). */
function baseProperties(spec: PlannableScenario, d: Deployment, workloadId: string): Record<string, string> {
  const w = workloadById(workloadId);
  const props: Record<string, string> = { ...w.properties };
  // Seed 001: the scenario's distribution, except "latest" workloads keep theirs ("zipfian (latest for D)").
  if (spec.requestDistribution && props.requestdistribution !== "latest") props.requestdistribution = spec.requestDistribution;
  Object.assign(props, spec.properties ?? {});
  props.recordcount = String(d.recordCount);
  props.fieldcount = String(d.fieldCount);
  props.fieldlength = String(d.fieldLengthBytes);
  return props;
}

interface RunSlot {
  workload: string;
  operationCount?: number;
  maxExecutionTimeSec?: number;
  extra: Record<string, string>;
}

/** The suffix ("-r2") that names each repeat's phases in a plan of more than one repeat. */
export function repeatSuffix(repeat: number, repeats: number): string {
  return repeats > 1 ? `-r${repeat}` : "";
}

/** The repeat suffix of a phase name ("a-t4-r2": repeat 2). */
export const REPEAT_SUFFIX = /-r(\d+)$/;

/** A phase name without its repeat suffix: the phases of one configuration's repeats share it. */
export function phaseNameWithoutRepeat(name: string): string {
  return name.replace(REPEAT_SUFFIX, "");
}

/** Turn a scenario (one deployment of it) into the ordered plan. Throws ScenarioError naming the field. */
export function buildPlan(spec: PlannableScenario, choice: DeploymentChoice = {}): Plan {
  const d = resolveDeployment(spec, choice);
  if (spec.presets?.length && !spec.presets.includes(d.preset)) {
    throw new ScenarioError("preset", `scenario "${spec.name}" covers preset(s) ${spec.presets.join(", ")}, not ${d.preset}`);
  }
  const phases: PlanPhase[] = [];
  const add = (p: Omit<PlanPhase, "index">) => {
    if (phases.some((q) => q.name === p.name)) throw new ScenarioError("workloads", `two phases would be named "${p.name}"`);
    phases.push({ index: phases.length, ...p });
  };
  const first = spec.workloads[0];
  if (!first) throw new ScenarioError("workloads", "name at least one workload");
  for (const t of spec.targets ?? []) if (!(t > 0)) throw new ScenarioError("targets", `targets must be > 0 ops/s, got ${t}`);

  // The schema is created once, by client 0 (seed 001's driver script prepared tables before loading).
  add({ name: "prepare", kind: "prepare", clientsActive: [0], properties: {}, perClient: [], threadsPerClient: 1, repeat: 0 });

  // Seed 001: "Insert count for each set of client instances was then calculated by distributing the record count".
  const ranges = splitInserts(d.recordCount, d.clients);
  add({
    name: "load",
    kind: "load",
    clientsActive: "all",
    workload: first.workload,
    preset: d.loadPreset,
    properties: { ...baseProperties(spec, d, first.workload), ...clientProperties(d.engine, d.loadPreset) },
    // CoreWorkload.init parses operationcount even for a load (YCSB 0.17.0 throws on a missing one).
    perClient: ranges.map((r) => ({ insertstart: String(r.insertStart), insertcount: String(r.insertCount), operationcount: String(r.insertCount) })),
    threadsPerClient: d.loadThreadsPerClient,
    repeat: 0,
  });
  const settle = spec.settle ? { waitForCompactions: spec.settle.waitForCompactions, minSec: spec.settle.minSec ?? 0 } : undefined;
  const addSettle = (name: string, repeat: number) => {
    if (settle) add({ name, kind: "settle", clientsActive: [0], properties: {}, perClient: [], threadsPerClient: 1, repeat, settle });
  };
  addSettle("settle-load", 0);

  const opCounts = spec.operationCounts?.map((n) => scaled(n, d.scale));
  const slots: RunSlot[] = [];
  for (const w of spec.workloads) {
    workloadById(w.workload);
    const counts = opCounts ?? [w.operationCount === undefined ? undefined : scaled(w.operationCount, d.scale)];
    for (const operationCount of counts) {
      slots.push({ workload: w.workload, operationCount, maxExecutionTimeSec: w.maxExecutionTimeSec, extra: w.properties ?? {} });
    }
  }
  const threadCounts = spec.threads.sweep ?? [d.threadsPerClient];
  const targets: (number | undefined)[] = spec.targets?.length ? spec.targets : [undefined];

  for (let repeat = 0; repeat < spec.repeats; repeat++) {
    const r = repeatSuffix(repeat, spec.repeats);
    slots.forEach((slot, si) => {
      if (si > 0 || repeat > 0) addSettle(`settle-${slot.workload}${opsTag(slot, opCounts)}${r}`, repeat);
      const props: Record<string, string> = {
        ...baseProperties(spec, d, slot.workload),
        ...slot.extra,
        ...clientProperties(d.engine, d.preset),
        operationcount: String(slot.operationCount ?? UNLIMITED_OPERATIONS),
        ...(slot.maxExecutionTimeSec ? { maxexecutiontime: String(slot.maxExecutionTimeSec) } : {}),
      };
      if (slot.operationCount === undefined && !slot.maxExecutionTimeSec) {
        throw new ScenarioError(`workloads.${slot.workload}`, "needs operationCount or maxExecutionTimeSec (else YCSB never stops)");
      }
      const perClientOps = slot.operationCount === undefined ? undefined : splitOperations(slot.operationCount, d.clients);
      const perClient: Record<string, string>[] = Array.from({ length: d.clients }, (_, i) =>
        perClientOps ? { operationcount: String(perClientOps[i]) } : ({} as Record<string, string>),
      );
      const common = { workload: slot.workload, preset: d.preset, perClient, repeat, clientsActive: "all" as const };
      const base = `${slot.workload}${opsTag(slot, opCounts)}`;
      if (spec.threads.stepUp) {
        const su = spec.threads.stepUp;
        const group = `${base}${r}`;
        stepUpThreads(su).forEach((threads, step) => {
          const stepUp = { group, step, minGainPct: su.minGainPct };
          if (spec.warmupSec) {
            add({
              ...common,
              name: `${base}-step-t${threads}-warmup${r}`,
              kind: "warmup",
              properties: { ...props, operationcount: UNLIMITED_OPERATIONS, maxexecutiontime: String(spec.warmupSec) },
              perClient: perClient.map(() => ({})),
              threadsPerClient: threads,
              maxExecutionTimeSec: spec.warmupSec,
              stepUp,
              discard: true,
            });
          }
          add({
            ...common,
            name: `${base}-step-t${threads}${r}`,
            kind: "workload",
            properties: props,
            threadsPerClient: threads,
            operationCount: slot.operationCount,
            operationCountPer: "total",
            maxExecutionTimeSec: slot.maxExecutionTimeSec,
            stepUp,
          });
        });
        return;
      }
      if (spec.warmupSec) {
        add({
          ...common,
          name: `${base}-warmup${r}`,
          kind: "warmup",
          properties: { ...props, operationcount: UNLIMITED_OPERATIONS, maxexecutiontime: String(spec.warmupSec) },
          perClient: perClient.map(() => ({})),
          threadsPerClient: threadCounts[0] ?? d.threadsPerClient,
          maxExecutionTimeSec: spec.warmupSec,
          discard: true,
        });
      }
      for (const threads of threadCounts) {
        for (const target of targets) {
          const targetPerClient = target === undefined ? undefined : target / d.clients;
          const tt = spec.threads.sweep ? `-t${threads}` : "";
          const tg = target === undefined ? "" : `-target${target}`;
          add({
            ...common,
            name: `${base}${tt}${tg}${r}`,
            kind: "workload",
            properties: props,
            threadsPerClient: threads,
            ...(target === undefined ? {} : { target, targetPerClient }),
            operationCount: slot.operationCount,
            operationCountPer: "total",
            maxExecutionTimeSec: slot.maxExecutionTimeSec,
          });
        }
      }
    });
  }
  return { planVersion: PLAN_VERSION, scenario: spec.name, deployment: d, phases };
}

function opsTag(slot: RunSlot, opCounts: number[] | undefined): string {
  return opCounts && slot.operationCount !== undefined ? `-ops${slot.operationCount}` : "";
}

/** Everything one client passes to YCSB for a phase: shared properties, then its own (its own win). */
export function clientPhaseProperties(phase: PlanPhase, clientIndex: number): Record<string, string> {
  return { ...phase.properties, ...(phase.perClient[clientIndex] ?? {}) };
}

/** Whether a client runs YCSB (or the phase's action) in this phase, or only passes the barrier. */
export function isActive(phase: PlanPhase, clientIndex: number): boolean {
  return phase.clientsActive === "all" || phase.clientsActive.includes(clientIndex);
}
