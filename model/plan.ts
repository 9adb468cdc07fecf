import { type CapacitySearch, type StepRole, searchProblems } from "./capacity-search.js";
import { type InsertRange, splitInserts, splitOperations } from "./plan-split.js";
import { clientProperties, type Preset, SERVER_PRESET_SWITCH } from "./presets.js";
import {
  type Deployment,
  type DeploymentChoice,
  type OperationCountPer,
  type ResetPoint,
  type ResetSpec,
  resolveDeployment,
  ScenarioError,
  type ScenarioSpec,
} from "./scenario.js";
import { CLIENT_KEY_RANGE_WORKLOAD, PROJECT_WORKLOAD, workload as workloadById } from "./workloads.js";
import { clientCountProblem, YCSB_MAX_COUNT } from "./ycsb-limits.js";

export { type InsertRange, splitInserts, splitOperations } from "./plan-split.js";

/**
 * A plan is a scenario turned into the ordered phases every client runs in lock-step (seed 000: "all client
 * instances were instructed to run the workloads in parallel, and then wait until all client instances completed").
 * Pure: the runner executes it, `ycsb-lab plan` prints it.
 */
export const PLAN_VERSION = 1 as const;

export type { OperationCountPer } from "./scenario.js";

/** "warmup": a warm-up in a YCSB process of its own, as plans made before the warm-up moved into the measured phase. */
export type PlanPhaseKind = "prepare" | "load" | "settle" | "reset" | "warmup" | "workload";

/** A phase of a step-up group: run only while the previous step raised total throughput (seeds 002, 004). */
export interface StepUpStep {
  /** Phases of one group share this id; steps are tried in plan order. */
  group: string;
  /** 0 for the first step of the group, which always runs. */
  step: number;
  /** The next step runs only if this step's total throughput beat the best so far by at least this much. */
  minGainPct: number;
}

/** A candidate step of a capacity search: whether it runs, and at which total target, is decided at run time. */
export interface CapacityStep {
  /** Phases of one search share this id; steps are tried in plan order. */
  group: string;
  step: number;
  search: CapacitySearch;
  /** Set at run time, as the step was decided (absent in a plan). */
  role?: StepRole;
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
  /**
   * Per-client YCSB properties, index = client index (load: insertstart/insertcount; runs: operationcount and, for
   * run-phase inserts, the client's own key range: model/workloads.ts PROJECT_WORKLOAD).
   */
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
  /**
   * A warm-up in this phase's own YCSB process before it measures (ycsblab.warmup.seconds): unmeasured, on the
   * connections the measurement then uses; maxexecutiontime counts from its end (seed 002: 1 minute).
   */
  warmupSec?: number;
  repeat: number;
  /**
   * Settle: engine-specific wait (seed 000 waited for compactions to finish; seed 002 for the database "to finish
   * rebalancing" after a load: model/settle.ts says what each engine has to wait for).
   */
  settle?: { waitForCompactions: boolean; waitForRebalance?: boolean; minSec: number };
  /**
   * Settle after a load made under its own preset: the server side of this preset takes over here (model/presets.ts
   * SERVER_PRESET_SWITCH), so the load was really non-durable on the server and the workloads are durable.
   */
  serverPreset?: Preset;
  /** Reset: what client 0 has the engine do (wipe, restart, drop caches) and where the scenario asked for it. */
  reset?: ResetSpec & { point: ResetPoint };
  /** Set on the warm-up of a step too: it is skipped with its step. */
  stepUp?: StepUpStep;
  capacity?: CapacityStep;
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
  /** A capacity search under a latency SLO in place of the thread counts and targets (model/capacity-search.ts). */
  capacity?: CapacitySearch;
}

export type PlannableScenario = ScenarioSpec & PlanExtras;

/**
 * The operation count of a phase bounded by maxexecutiontime only. YCSB 0.17.0 runs no operation at all with
 * operationcount=0 (measured), and parses the count as an int, so: the largest round count below 2^31. The key
 * space is not sized for it (PROJECT_WORKLOAD.keySpaceOperations is 0 in such a phase).
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
  if (spec.requestDistribution && props.requestdistribution !== "latest")
    props.requestdistribution = spec.requestDistribution;
  Object.assign(props, spec.properties ?? {});
  // Every phase runs the project's CoreWorkload extension: counts and keys past 2^31 (model/workloads.ts).
  props.workload = PROJECT_WORKLOAD.workloadClass;
  if (d.presetNote) props["ycsblab.presetNote"] = d.presetNote;
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
  /** The scenario lists operation counts (seed 003): each slot's phases carry theirs in the name. */
  tagged: boolean;
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

/**
 * Each client's YCSB operationcount for a count the scenario states per client (YCSB counts per client: seed 000's
 * "9 million operations for each workload" ran on every client) or in total (split, summing exactly to it).
 */
export function perClientOperations(count: number, per: OperationCountPer, clients: number): number[] {
  return per === "client" ? Array.from({ length: clients }, () => count) : splitOperations(count, clients);
}

/**
 * Turn a scenario (one deployment of it) into the ordered plan. Throws ScenarioError naming the field.
 *
 * Order: prepare, load, settle; then per repeat ("test" scope) or once ("measurement" scope): per workload, per
 * operation count, per thread step or thread count and target, the measured phases (each repeated at once in
 * "measurement" scope). Resets the scenario names come before the repeat, workload, operation count or step they
 * belong to; one that wipes the data is followed by prepare, load and settle again, and is left out when the data
 * was just loaded and nothing measured since (a wipe and reload would give the same).
 */
export function buildPlan(spec: PlannableScenario, choice: DeploymentChoice = {}): Plan {
  const d = resolveDeployment(spec, choice);
  const first = checkPlannable(spec, d);
  const slots = runSlots(spec, d);
  const { testRepeats, measurementRepeats } = repeatCounts(spec, choice);
  const plan = new PhaseList(spec, d);
  plan.loadDataSet("", 0, first.workload);
  for (let testRepeat = 0; testRepeat < testRepeats; testRepeat++) {
    if (testRepeat > 0) plan.resetBefore("repeat", `r${testRepeat}`, testRepeat, first.workload);
    slots.forEach((slot, si) => {
      plan.addSlot(slot, si > 0 ? slots[si - 1] : undefined, testRepeat, testRepeats, measurementRepeats);
    });
  }
  assignInsertKeyRanges(plan.phases, d);
  return { planVersion: PLAN_VERSION, scenario: spec.name, deployment: d, phases: plan.phases };
}

/** What a plan needs of a scenario beyond its deployment; the first workload (the one loaded for). */
function checkPlannable(spec: PlannableScenario, d: Deployment): PlannableScenario["workloads"][number] {
  if (spec.presets?.length && !spec.presets.includes(d.preset)) {
    throw new ScenarioError(
      "preset",
      `scenario "${spec.name}" covers preset(s) ${spec.presets.join(", ")}, not ${d.preset}`,
    );
  }
  const per = spec.operationCountPer;
  if (per !== "client" && per !== "total")
    throw new ScenarioError("operationCountPer", `"client" or "total", got ${JSON.stringify(per)}`);
  const first = spec.workloads[0];
  if (!first) throw new ScenarioError("workloads", "name at least one workload");
  for (const t of spec.targets ?? [])
    if (!(t > 0)) throw new ScenarioError("targets", `targets must be > 0 ops/s, got ${t}`);
  if (spec.capacity) {
    const problem = searchProblems(spec.capacity)[0];
    if (problem) throw new ScenarioError("capacity", problem);
    if (spec.threads.stepUp || spec.threads.sweep || spec.targets?.length) {
      throw new ScenarioError(
        "capacity",
        "a capacity search sets the target itself: drop threads.stepUp, threads.sweep and targets",
      );
    }
  }
  return first;
}

/** The measured slots in order: each workload at each of its operation counts (scaled), checked to end. */
function runSlots(spec: PlannableScenario, d: Deployment): RunSlot[] {
  const opCounts = spec.operationCounts?.map((n) => scaled(n, d.scale));
  const slots: RunSlot[] = [];
  for (const w of spec.workloads) {
    workloadById(w.workload);
    const counts = opCounts ?? [w.operationCount === undefined ? undefined : scaled(w.operationCount, d.scale)];
    for (const operationCount of counts) {
      if (operationCount === undefined && !w.maxExecutionTimeSec) {
        throw new ScenarioError(
          `workloads.${w.workload}`,
          "needs operationCount or maxExecutionTimeSec (else YCSB never stops)",
        );
      }
      checkOperationCount(spec, d, w.workload, operationCount);
      slots.push({
        workload: w.workload,
        operationCount,
        maxExecutionTimeSec: w.maxExecutionTimeSec,
        extra: w.properties ?? {},
        tagged: opCounts !== undefined,
      });
    }
  }
  return slots;
}

/** A stated count past an int is stored nowhere (the result column is int4); a client's share past it stops YCSB. */
function checkOperationCount(
  spec: PlannableScenario,
  d: Deployment,
  workload: string,
  count: number | undefined,
): void {
  if (count === undefined) return;
  const field = `workloads.${workload}.operationCount`;
  if (count > YCSB_MAX_COUNT)
    throw new ScenarioError(field, `${count} is past ${YCSB_MAX_COUNT}, the largest operation count a result stores`);
  const share = Math.max(...perClientOperations(count, spec.operationCountPer, d.clients));
  const problem = clientCountProblem("operationcount", share, "lower the count or the scale");
  if (problem) throw new ScenarioError(field, problem);
}

/** Repeats of the whole test (each after the scenario's repeat reset) or of each measurement in place. */
function repeatCounts(
  spec: PlannableScenario,
  choice: DeploymentChoice,
): { testRepeats: number; measurementRepeats: number } {
  const repeats = choice.repeats ?? spec.repeats;
  if (!Number.isInteger(repeats) || repeats < 1)
    throw new ScenarioError("repeats", `must be a whole number >= 1, got ${String(repeats)}`);
  const scope = spec.repeatScope ?? "test";
  return { testRepeats: scope === "test" ? repeats : 1, measurementRepeats: scope === "measurement" ? repeats : 1 };
}

/** The phases of a plan as they are added, with what adding them depends on (whether the data is fresh). */
class PhaseList {
  readonly phases: PlanPhase[] = [];
  /** The data set was just loaded and nothing measured on it since. */
  private fresh = false;
  private readonly settle: PlanPhase["settle"];
  /** A load under its own preset switches the server side afterwards where the engine can (seed 000, Cassandra). */
  private readonly switchAfterLoad: boolean;
  /** Seed 001: "Insert count for each set of client instances was then calculated by distributing the record count". */
  private readonly ranges: InsertRange[];

  constructor(
    private readonly spec: PlannableScenario,
    private readonly d: Deployment,
  ) {
    this.settle = spec.settle
      ? {
          waitForCompactions: spec.settle.waitForCompactions,
          ...(spec.settle.waitForRebalance ? { waitForRebalance: true } : {}),
          minSec: spec.settle.minSec ?? 0,
        }
      : undefined;
    this.switchAfterLoad = d.loadPreset !== d.preset && SERVER_PRESET_SWITCH[d.engine] !== undefined;
    this.ranges = splitInserts(d.recordCount, d.clients);
  }

  add(p: Omit<PlanPhase, "index">): void {
    if (this.phases.some((q) => q.name === p.name))
      throw new ScenarioError("workloads", `two phases would be named "${p.name}"`);
    this.phases.push({ index: this.phases.length, ...p });
  }

  addSettle(name: string, repeat: number, stepUp?: StepUpStep, serverPreset?: Preset): void {
    if (!this.settle && !serverPreset) return;
    this.add({
      name,
      kind: "settle",
      clientsActive: [0],
      properties: {},
      perClient: [],
      threadsPerClient: 1,
      repeat,
      settle: this.settle ?? { waitForCompactions: false, minSec: 0 },
      ...(serverPreset ? { serverPreset } : {}),
      ...(stepUp ? { stepUp } : {}),
    });
  }

  /** Prepare (client 0 creates the schema, as seed 001's driver script did), load split over the clients, settle. */
  loadDataSet(suffix: string, repeat: number, workload: string, stepUp?: StepUpStep): void {
    const { spec, d } = this;
    const marker = stepUp ? { stepUp } : {};
    this.add({
      name: `prepare${suffix}`,
      kind: "prepare",
      clientsActive: [0],
      properties: {},
      perClient: [],
      threadsPerClient: 1,
      repeat,
      ...marker,
    });
    this.add({
      name: `load${suffix}`,
      kind: "load",
      clientsActive: "all",
      workload,
      preset: d.loadPreset,
      // The server side in force while loading, recorded with the phase (the client side is ycsblab.preset).
      properties: {
        ...baseProperties(spec, d, workload),
        ...clientProperties(d.engine, d.loadPreset),
        "ycsblab.serverPreset": this.switchAfterLoad ? d.loadPreset : d.preset,
      },
      // CoreWorkload.init parses operationcount even for a load (YCSB 0.17.0 throws on a missing one).
      perClient: this.ranges.map((r) => ({
        insertstart: String(r.insertStart),
        insertcount: String(r.insertCount),
        operationcount: String(r.insertCount),
      })),
      threadsPerClient: d.loadThreadsPerClient,
      repeat,
      ...marker,
    });
    this.addSettle(`settle-load${suffix}`, repeat, stepUp, this.switchAfterLoad ? d.preset : undefined);
    this.fresh = true;
  }

  /** The reset the scenario names for this point, and a reload after a wipe; none right after a load. */
  resetBefore(point: ResetPoint, name: string, repeat: number, workload: string, stepUp?: StepUpStep): void {
    const r = this.spec.resets?.[point];
    if (!r || (r.wipeData && this.fresh)) return;
    this.add({
      name: `reset-${name}`,
      kind: "reset",
      clientsActive: [0],
      properties: {},
      perClient: [],
      threadsPerClient: 1,
      repeat,
      reset: { ...r, point },
      ...(stepUp ? { stepUp } : {}),
    });
    if (r.wipeData) this.loadDataSet(`-${name}`, repeat, workload, stepUp);
  }

  /** One slot of one test repeat: its resets and settle, then its step-up steps or its thread counts and targets. */
  addSlot(
    slot: RunSlot,
    previous: RunSlot | undefined,
    testRepeat: number,
    testRepeats: number,
    measurementRepeats: number,
  ): void {
    const { spec, d } = this;
    const r = repeatSuffix(testRepeat, testRepeats);
    const base = `${slot.workload}${opsTag(slot)}`;
    const resets = spec.resets ?? {};
    if (previous && previous.workload !== slot.workload)
      this.resetBefore("workload", `${slot.workload}${r}`, testRepeat, slot.workload);
    else if (!previous && testRepeat > 0 && !resets.repeat)
      this.resetBefore("workload", `${slot.workload}${r}`, testRepeat, slot.workload);
    this.resetBefore("operationCount", `${base}${r}`, testRepeat, slot.workload);
    if ((previous || testRepeat > 0) && !this.fresh) this.addSettle(`settle-${base}${r}`, testRepeat);
    const measure = new SlotPhases(this, spec, d, slot);
    if (spec.threads.stepUp) {
      const su = spec.threads.stepUp;
      stepUpThreads(su).forEach((threads, step) => {
        const stepUp = { group: `${base}${r}`, step, minGainPct: su.minGainPct };
        this.resetBefore("step", `${base}-step-t${threads}${r}`, testRepeat, slot.workload, stepUp);
        measure.measured(`${base}-step-t${threads}${r}`, testRepeat, threads, { stepUp });
      });
      return;
    }
    if (spec.capacity) {
      for (let step = 0; step < spec.capacity.maxSteps; step++) {
        measure.capacityStep(`${base}-cap${step}${r}`, testRepeat, d.threadsPerClient, {
          group: `${base}-cap${r}`,
          step,
          search: spec.capacity,
        });
      }
      return;
    }
    const threadCounts = spec.threads.sweep ?? [d.threadsPerClient];
    const targets: (number | undefined)[] = spec.targets?.length ? spec.targets : [undefined];
    const byMeasurement = (spec.repeatScope ?? "test") === "measurement";
    for (const threads of threadCounts) {
      for (const target of targets) {
        const tt = spec.threads.sweep ? `-t${threads}` : "";
        const tg = target === undefined ? "" : `-target${target}`;
        for (let m = 0; m < measurementRepeats; m++) {
          const repeat = byMeasurement ? m : testRepeat;
          const suffix = byMeasurement ? repeatSuffix(m, measurementRepeats) : r;
          measure.measured(
            `${base}${tt}${tg}${suffix}`,
            repeat,
            threads,
            target === undefined ? {} : { target, targetPerClient: target / d.clients },
          );
        }
      }
    }
  }

  /** A measured phase happened: the data is no longer as loaded. */
  measuredOn(): void {
    this.fresh = false;
  }
}

/**
 * The measured phases of one slot: their YCSB properties and each client's operation count. The scenario's warm-up
 * runs inside each measured phase's YCSB process (seed 002: "Warm-up for 1 minute", then "Run the current load for
 * 5 minutes" with the same clients), not in a process of its own whose connections and JIT the measurement loses.
 */
class SlotPhases {
  private readonly props: Record<string, string>;
  private readonly perClientOps: number[] | undefined;
  private readonly common: Pick<PlanPhase, "workload" | "preset" | "clientsActive">;
  private readonly counted: Pick<PlanPhase, "operationCount" | "operationCountPer" | "warmupSec">;

  constructor(
    private readonly list: PhaseList,
    spec: PlannableScenario,
    private readonly d: Deployment,
    private readonly slot: RunSlot,
  ) {
    const warmupSec = spec.warmupSec;
    this.props = {
      ...baseProperties(spec, d, slot.workload),
      ...slot.extra,
      ...clientProperties(d.engine, d.preset),
      operationcount: String(slot.operationCount ?? UNLIMITED_OPERATIONS),
      // A phase bounded by time only expects no inserts of a count: YCSB would size its zipfian key space for the
      // sentinel count and redraw nearly every key (seed 001's scans: "without an operation count" is its reading).
      ...(slot.operationCount === undefined ? { [PROJECT_WORKLOAD.keySpaceOperations]: "0" } : {}),
      ...(slot.maxExecutionTimeSec ? { maxexecutiontime: String(slot.maxExecutionTimeSec) } : {}),
      ...(warmupSec ? { [PROJECT_WORKLOAD.warmupSeconds]: String(warmupSec) } : {}),
    };
    this.perClientOps =
      slot.operationCount === undefined
        ? undefined
        : perClientOperations(slot.operationCount, spec.operationCountPer, d.clients);
    this.common = { workload: slot.workload, preset: d.preset, clientsActive: "all" };
    this.counted = {
      ...(slot.operationCount === undefined
        ? {}
        : { operationCount: slot.operationCount, operationCountPer: spec.operationCountPer }),
      ...(warmupSec ? { warmupSec } : {}),
    };
  }

  private perClient(): Record<string, string>[] {
    return Array.from({ length: this.d.clients }, (_, i) =>
      this.perClientOps ? { operationcount: String(this.perClientOps[i]) } : ({} as Record<string, string>),
    );
  }

  measured(name: string, repeat: number, threads: number, extra: Partial<PlanPhase> = {}): void {
    this.list.add({
      ...this.common,
      name,
      kind: "workload",
      properties: this.props,
      perClient: this.perClient(),
      threadsPerClient: threads,
      repeat,
      ...this.counted,
      maxExecutionTimeSec: this.slot.maxExecutionTimeSec,
      ...extra,
    });
    this.list.measuredOn();
  }

  /** A capacity step: open loop, with intended latency measured beside the service time (YCSB measurement.interval). */
  capacityStep(name: string, repeat: number, threads: number, capacity: CapacityStep): void {
    this.measured(name, repeat, threads, { capacity, properties: { ...this.props, "measurement.interval": "both" } });
  }
}

/**
 * Run-phase inserts in a key range of each client's own. YCSB 0.17.0 starts every client's run-phase insert keys
 * at recordcount, so several clients, or several insert workloads after one load, insert the same keys (overwrites
 * in Cassandra/HBase/Couchbase, duplicate-key errors in MongoDB). Where that would happen, the phase tells the
 * project's workload class (PROJECT_WORKLOAD) its lane among the insert phases since the last load and each
 * client's index: disjoint keys for every client of every phase.
 */
function assignInsertKeyRanges(phases: PlanPhase[], d: Deployment): void {
  let segment: PlanPhase[] = [];
  const close = () => {
    const inserting = segment.filter((p) => Number(p.properties.insertproportion ?? "0") > 0);
    if (inserting.length > 1 || (inserting.length === 1 && d.clients > 1)) {
      inserting.forEach((p, lane) => {
        p.properties = {
          ...p.properties,
          [PROJECT_WORKLOAD.clients]: String(d.clients),
          [PROJECT_WORKLOAD.lane]: String(lane),
          [PROJECT_WORKLOAD.lanes]: String(inserting.length),
        };
        p.perClient = p.perClient.map((c, i) => ({ ...c, [PROJECT_WORKLOAD.client]: String(i) }));
      });
    }
    segment = [];
  };
  for (const p of phases) {
    if (p.kind === "load") close();
    else if (p.kind === "workload" || p.kind === "warmup") segment.push(p);
  }
  close();
}

/**
 * The key numbers a client's run-phase inserts use (before YCSB hashes them into key names): the first and the
 * step between two; undefined where the phase inserts nothing. Without insert ranges (one client, one insert
 * phase) they run from recordcount on, one by one, as in YCSB.
 */
export function insertKeyRange(phase: PlanPhase, clientIndex: number): { first: number; step: number } | undefined {
  if (Number(phase.properties.insertproportion ?? "0") <= 0 || phase.kind === "load") return undefined;
  const recordcount = Number(phase.properties.recordcount);
  const ranged =
    phase.properties.workload === PROJECT_WORKLOAD.workloadClass ||
    phase.properties.workload === CLIENT_KEY_RANGE_WORKLOAD;
  if (!ranged || phase.properties[PROJECT_WORKLOAD.clients] === undefined) return { first: recordcount, step: 1 };
  const clients = Number(phase.properties[PROJECT_WORKLOAD.clients]);
  const lane = Number(phase.properties[PROJECT_WORKLOAD.lane]);
  const lanes = Number(phase.properties[PROJECT_WORKLOAD.lanes]);
  return { first: recordcount + lane * clients + clientIndex, step: lanes * clients };
}

function opsTag(slot: RunSlot): string {
  return slot.tagged && slot.operationCount !== undefined ? `-ops${slot.operationCount}` : "";
}

/** Everything one client passes to YCSB for a phase: shared properties, then its own (its own win). */
export function clientPhaseProperties(phase: PlanPhase, clientIndex: number): Record<string, string> {
  return { ...phase.properties, ...(phase.perClient[clientIndex] ?? {}) };
}

/** Whether a client runs YCSB (or the phase's action) in this phase, or only passes the barrier. */
export function isActive(phase: PlanPhase, clientIndex: number): boolean {
  return phase.clientsActive === "all" || phase.clientsActive.includes(clientIndex);
}
