import { readFile, rm } from "node:fs/promises";
import { hostname } from "node:os";
import { basename, join } from "node:path";
import { clientHistograms } from "../model/hdr/index.js";
import {
  type ClientOutput,
  decideStep,
  isActive,
  type Plan,
  type PlanPhase,
  stepPhases,
  validateResultDocument,
} from "../model/index.js";
import { type Arrival, BarrierError, passBarrier } from "./barrier.js";
import { capacityDecision } from "./capacity-decision.js";
import { acceptedHistograms, clientResult, emptyOutput, type RunFacts } from "./client-result.js";
import { describeReset, type EngineActions } from "./engine-actions.js";
import { hdrLogKey, manifestKey, planKey, resultKey, runPrefix, stderrKey, stdoutKey } from "./keys.js";
import type { ResultsStore } from "./results-store.js";
import { type BackoffOptions, DEFAULT_BACKOFF, withRetry } from "./retry.js";
import { endedEarly, readRunEnd, writeRunEnd } from "./run-end.js";
import { Spool, Uploader } from "./spool.js";
import { judgePhase } from "./validity.js";
import { shellQuote, type YcsbSetup, ycsbInvocation } from "./ycsb-invocation.js";
import { parseYcsbOutput } from "./ycsb-output/index.js";
import { runYcsbPhase } from "./ycsb-phase.js";

export interface ExecuteOptions {
  plan: Plan;
  runId: string;
  clientIndex: number;
  store: ResultsStore;
  /** This client's spool folder (state and outbox). */
  spoolDir: string;
  ycsb: YcsbSetup;
  actions: EngineActions;
  /** How long a client waits at a barrier for the others (and for the store to come back). */
  barrierTimeoutMs: number;
  /** How long the end of the run waits for the spool to drain before giving up (a re-run resumes). */
  flushTimeoutMs?: number;
  backoff?: BackoffOptions;
  ycsbLabVersion: string;
  standIn?: string;
  /** Set for runs on this machine (runner/client-result.ts RunFacts.machine). */
  machine?: string;
  provenance?: RunFacts["provenance"];
  log?: (line: string) => void;
  progress?: (line: string) => void;
  onYcsbStart?: (pid: number, phase: PlanPhase) => void;
  /** What the deployment knows went wrong in the cluster (e.g. a data node reported failed); asked at each phase's end. */
  clusterProblems?: () => Promise<string[]>;
  /**
   * After a phase in which operations failed: the cluster's problems once every data node has been heard from since
   * `since`, or has fallen silent (runner/boot/cluster-health.ts rollCall). A machine that dies here resets its
   * connections at once, so YCSB can finish a short phase on errors long before the node's silence counts as stale.
   */
  clusterRollCall?: (since: Date) => Promise<string[]>;
  /** Called as each phase begins (position 1..n among the plan's phases), before its barrier. */
  onPhase?: (phase: PlanPhase, position: number, of: number) => void | Promise<void>;
  /**
   * A problem that ends the run at once (a data node failed or fell silent, a Spot interruption notice): asked at every
   * barrier and every `watchMs` during a phase, whose YCSB is then stopped; the run ends incomplete, naming it.
   */
  runProblem?: () => Promise<string | undefined>;
  /** How often a running phase asks runProblem and the run's end. @default 15 s */
  watchMs?: number;
  /** Told while this client waits at a barrier for others (who is missing, for how long). */
  onBarrierWait?: (phase: { index: number; name: string }, missing: number[], waitedMs: number) => void | Promise<void>;
}

export interface ExecuteOutcome {
  complete: boolean;
  /** Why the run stopped early. */
  reason?: string;
  phasesRun: number;
  phasesSkipped: number;
}

export interface Manifest {
  runId: string;
  scenario: string;
  clients: number;
  complete: boolean;
  reason?: string;
  writtenAt: string;
  phases: { index: number; name: string; kind: string; outcome: Record<string, string> }[];
  objects: string[];
}

/** The phases a client would run, as command lines (for --dry-run): no barrier, no store, nothing started. */
export function dryRunLines(plan: Plan, clientIndex: number, ycsb: YcsbSetup, workRoot = "<spool>"): string[] {
  return plan.phases.map((p) => {
    const head = `# ${p.index} ${p.name} (${p.kind})`;
    if (!isActive(p, clientIndex)) return `${head}: client ${clientIndex} waits at the barrier only`;
    if (p.kind === "prepare") return `${head}: prepare the schema`;
    if (p.kind === "settle")
      return `${head}: settle (${p.settle?.waitForCompactions ? "wait for compactions" : `${p.settle?.minSec ?? 0} s`})`;
    if (p.kind === "reset") return `${head}: reset (${describeReset(p)})`;
    const step =
      p.stepUp && p.stepUp.step > 0
        ? ` [runs only if step-up ${p.stepUp.group} still gains >= ${p.stepUp.minGainPct}%]`
        : "";
    const inv = ycsbInvocation(ycsb, p, clientIndex, `${workRoot}/phases/${p.index}-${p.name}/hdr/`);
    return `${head}${step}\n${shellQuote(inv.argv)}`;
  });
}

/** Step-up outcomes this client can vouch for: ops/s per finished step-up workload phase. */
function stepOutcomes(plan: Plan, spool: Spool): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [index, f] of Object.entries(spool.allFinished())) {
    const phase = plan.phases[Number(index)];
    if (phase?.stepUp && phase.kind === "workload" && f.outcome === "ran" && f.throughputOpsSec !== undefined)
      out[index] = f.throughputOpsSec;
  }
  return out;
}

/** Run-time decision for a step-up phase, identical on every client: from the barrier's arrivals. */
function stepDecision(plan: Plan, phase: PlanPhase, arrivals: Arrival[]) {
  const su = phase.stepUp!;
  const earlier = stepPhases(plan, su.group)
    .filter((p) => p.stepUp!.step < su.step)
    .flatMap((p) => {
      const values = arrivals.map((a) => a.stepOutcomes[String(p.index)]);
      if (values.some((v) => v === undefined)) return [];
      return [{ step: p.stepUp!.step, throughput: values.reduce((s: number, v) => s + (v ?? 0), 0) }];
    });
  return decideStep(su.step, su.minGainPct, earlier);
}

/**
 * Run the plan as one client, in lock-step with the others: a barrier before every phase, results spooled and
 * uploaded in the background, a restart resuming after the last finished phase, a manifest at the end.
 */
export async function executePlan(o: ExecuteOptions): Promise<ExecuteOutcome> {
  const { plan, runId, clientIndex, store } = o;
  const clients = plan.deployment.clients;
  const log = o.log ?? (() => {});
  if (!(clientIndex >= 0 && clientIndex < clients))
    throw new Error(`client-index: ${clientIndex} is outside 0..${clients - 1} (the plan has ${clients} clients)`);
  const spool = await Spool.open(o.spoolDir, runId, clientIndex);
  const uploader = new Uploader(spool, store, o.backoff ?? DEFAULT_BACKOFF, log);
  const barrier = (point: { index: number; name: string }) => ({
    clients,
    timeoutMs: o.barrierTimeoutMs,
    ...(o.runProblem ? { runProblem: o.runProblem } : {}),
    onWait: (missing: number[], waitedMs: number) => o.onBarrierWait?.(point, missing, waitedMs),
  });
  let run: RunFacts | undefined;
  let phasesRun = 0;
  let phasesSkipped = 0;

  // A stack uploads plan.json with the run, and a client may not rewrite it (infra/policies.ts); a local run's store
  // gets it from client 0. Staged only when the store answers that it has none.
  if (clientIndex === 0 && (await planMissing(store, runId, o.backoff ?? DEFAULT_BACKOFF)))
    await spool.stage(planKey(runId), JSON.stringify(plan, null, 2));
  uploader.kick();

  try {
    for (const phase of plan.phases) {
      // A store that refuses uploads for good would leave every later phase's results stranded on this client.
      if (uploader.permanentError) throw uploader.permanentError;
      if (!spool.finished(phase.index)) await o.onPhase?.(phase, phase.index + 1, plan.phases.length);
      const arrivals = await passBarrier(
        store,
        runId,
        phase,
        { client: clientIndex, stepOutcomes: stepOutcomes(plan, spool) },
        barrier(phase),
      );
      if (!run) {
        const first = arrivals.map((a) => a.arrivedAt).sort()[0] ?? new Date().toISOString();
        run = {
          runId,
          startedAt: first,
          ycsbLabVersion: o.ycsbLabVersion,
          standIn: o.standIn,
          machine: o.machine,
          host: hostname(),
          ...(o.provenance ? { provenance: o.provenance } : {}),
        };
      }
      if (spool.finished(phase.index)) continue;
      if (phase.stepUp && phase.stepUp.step > 0) {
        const decision = stepDecision(plan, phase, arrivals);
        if (!decision.run) {
          log(`phase ${phase.index} ${phase.name}: skipped, ${decision.reason}`);
          await spool.finish(phase.index, {
            name: phase.name,
            outcome: "skipped",
            reason: decision.reason,
            finishedAt: new Date().toISOString(),
          });
          phasesSkipped++;
          continue;
        }
      }
      let measured = phase;
      if (phase.capacity) {
        const decision = await capacityDecision(
          { store, runId, plan, clientIndex, timeoutMs: o.barrierTimeoutMs },
          phase,
        ).catch((err: Error) => {
          throw new BarrierError(`phase ${phase.index} (${phase.name}): ${err.message}`, []);
        });
        if (!decision.run) {
          log(`phase ${phase.index} ${phase.name}: skipped, capacity search done: ${decision.reason}`);
          await spool.finish(phase.index, {
            name: phase.name,
            outcome: "skipped",
            reason: decision.reason,
            finishedAt: new Date().toISOString(),
          });
          phasesSkipped++;
          continue;
        }
        measured = capacityPhase(phase, decision.role!, decision.target, clients);
        log(
          `phase ${phase.index} ${phase.name}: capacity step ${phase.capacity.step} (${decision.role}), target ${decision.target ?? "none"} ops/s`,
        );
      }
      if (!isActive(phase, clientIndex)) {
        await spool.finish(phase.index, { name: phase.name, outcome: "idle", finishedAt: new Date().toISOString() });
        continue;
      }
      if (phase.kind === "prepare" || phase.kind === "settle" || phase.kind === "reset") {
        log(`phase ${phase.index} ${phase.name}: ${phase.kind} ...`);
        const note =
          phase.kind === "prepare"
            ? await o.actions.prepareSchema(plan)
            : phase.kind === "settle"
              ? await o.actions.settle(phase)
              : await o.actions.reset(phase, plan);
        log(`phase ${phase.index} ${phase.name}: ${note}`);
        await spool.finish(phase.index, {
          name: phase.name,
          outcome: "ran",
          reason: note,
          finishedAt: new Date().toISOString(),
        });
        phasesRun++;
        continue;
      }
      const throughput = await runMeasuredPhase(o, spool, run, measured, log);
      await spool.finish(phase.index, {
        name: phase.name,
        outcome: "ran",
        throughputOpsSec: throughput,
        finishedAt: new Date().toISOString(),
      });
      uploader.kick();
      // Client 0 judges the step on every client's stored result before the next one starts.
      if (phase.capacity) await uploader.flush(o.flushTimeoutMs ?? 30 * 60_000);
      phasesRun++;
    }
    // Every client's objects are in the store before it reports at the end: the manifest then lists them all.
    await uploader.flush(o.flushTimeoutMs ?? 30 * 60_000);
    const end = { index: plan.phases.length, name: "end" };
    await passBarrier(
      store,
      runId,
      end,
      { client: clientIndex, stepOutcomes: stepOutcomes(plan, spool) },
      barrier(end),
    );
    if (clientIndex === 0) await writeManifest(store, plan, runId, true, undefined, o);
    // Every client passed the last barrier: the data nodes may stop serving, the fleet power off.
    if (clientIndex === 0) await writeRunEnd(store, runId, { complete: true, by: "client-0" });
    uploader.stop();
    return { complete: true, phasesRun, phasesSkipped };
  } catch (err) {
    const reason =
      err instanceof BarrierError ? err.message : `client ${clientIndex} failed: ${(err as Error).message}`;
    log(`stopping: ${reason}`);
    // Tell the others at once (best effort), keep what was measured, and say why the run is incomplete.
    const next = plan.phases.find((p) => !spool.finished(p.index)) ?? { index: plan.phases.length, name: "end" };
    // A run-level fact every barrier poll and every data node reads (the first cause is kept), then the arrival.
    await writeRunEnd(store, runId, { complete: false, reason, by: `client-${clientIndex}` }).catch((e: Error) =>
      log(`run end not written: ${e.message}`),
    );
    await passBarrier(
      store,
      runId,
      next,
      { client: clientIndex, stepOutcomes: {}, status: "aborted", reason },
      { clients, timeoutMs: 5_000 },
    ).catch(() => {});
    if (!(err instanceof BarrierError)) {
      uploader.stop();
      throw err;
    }
    await uploader.flush(Math.min(o.flushTimeoutMs ?? 60_000, 60_000)).catch((e: Error) => log(e.message));
    if (clientIndex === 0)
      await writeManifest(store, plan, runId, false, reason, o).catch((e: Error) => log(`manifest: ${e.message}`));
    uploader.stop();
    return { complete: false, reason, phasesRun, phasesSkipped };
  }
}

/** A capacity step as decided: the total target split over the clients, and the step's role for the result. */
function capacityPhase(
  phase: PlanPhase,
  role: NonNullable<PlanPhase["capacity"]>["role"],
  target: number | undefined,
  clients: number,
): PlanPhase {
  const capacity = { ...phase.capacity!, role };
  return target === undefined
    ? { ...phase, capacity }
    : { ...phase, capacity, target, targetPerClient: target / clients };
}

/** Validity codes that mean operations failed, so the cluster is asked whether a node died (clusterRollCall). */
const OPERATIONS_FAILED = new Set(["errors", "ycsb-failed", "ycsb-exit", "no-operations", "load-incomplete"]);

/** Run YCSB for one phase, judge it and stage everything; returns the client's throughput. */
async function runMeasuredPhase(
  o: ExecuteOptions,
  spool: Spool,
  run: RunFacts,
  phase: PlanPhase,
  log: (l: string) => void,
): Promise<number> {
  const at = [o.runId, phase.index, phase.name, o.clientIndex] as const;
  const workDir = join(spool.dir, "work", `${phase.index}-${phase.name}`);
  log(`phase ${phase.index} ${phase.name}: YCSB ${phase.kind}, ${phase.threadsPerClient} threads`);
  const watch = watchPhase(o);
  const proc = await runYcsbPhase({
    setup: o.ycsb,
    phase,
    clientIndex: o.clientIndex,
    workDir,
    onProgress: o.progress,
    onStart: (pid) => o.onYcsbStart?.(pid, phase),
    stop: watch.signal,
  }).finally(() => watch.done());
  // Bytes as written: the parser reads them without a decoded copy, and they are uploaded unchanged.
  const missing = () => Buffer.alloc(0);
  const [stdout, stderr] = await Promise.all([
    readFile(proc.stdoutPath).catch(missing),
    readFile(proc.stderrPath).catch(missing),
  ]);
  let output: ClientOutput;
  let failure = proc.failure;
  try {
    output = parseYcsbOutput(stdout, stderr);
  } catch (err) {
    failure = failure ?? `YCSB output unusable: ${(err as Error).message}`;
    output = emptyOutput(failure);
  }
  const insertCount = phase.kind === "load" ? Number(phase.perClient[o.clientIndex]?.insertcount) : undefined;
  const judge = (clusterProblems: string[]) =>
    judgePhase({
      kind: phase.kind as "load" | "warmup" | "workload",
      output,
      exitCode: proc.exitCode,
      failure,
      targetPerClient: phase.targetPerClient,
      insertCount,
      resources: proc.resources,
      clusterProblems,
    });
  // Health that cannot be read is no evidence of a failure: the phase stands on its own measurements then.
  let validity = judge((await o.clusterProblems?.().catch(() => [])) ?? []);
  let lostNode: string | undefined;
  if (
    o.clusterRollCall &&
    validity.reasons.some((r) => OPERATIONS_FAILED.has(r.code)) &&
    !validity.reasons.some((r) => r.code === "cluster-node-failed")
  ) {
    const problems = await o.clusterRollCall(new Date(proc.finishedAt)).catch(() => []);
    if (problems.length) {
      validity = judge(problems);
      lostNode = problems[0];
    }
  }
  const hdrLogs = proc.hdrFiles.map((f) => ({
    operation: basename(f, ".hdr"),
    uri: hdrLogKey(...at, basename(f, ".hdr")),
  }));
  const hdrBytes = await Promise.all(proc.hdrFiles.map((f) => readFile(f)));
  // The document carries this client's histograms, so percentiles merge across clients however it is ingested.
  let hdrHistograms: Record<string, string> = {};
  try {
    const all = clientHistograms(
      hdrLogs.map((l, i) => ({
        operation: l.operation,
        text: hdrBytes[i]!.toString("utf8"),
        source: basename(proc.hdrFiles[i]!),
      })),
    );
    const accepted = acceptedHistograms(all, output.operations);
    hdrHistograms = accepted.histograms;
    output.warnings.push(...accepted.warnings);
  } catch (err) {
    // A log cut short (YCSB killed mid-write) must not cost the phase its result: the logs are still uploaded.
    output.warnings.push(`hdr logs: ${(err as Error).message}; this client's percentiles are the printed ones`);
  }
  const doc = clientResult({
    plan: o.plan,
    phase,
    run,
    clientIndex: o.clientIndex,
    properties: proc.properties,
    startedAt: proc.startedAt,
    finishedAt: proc.finishedAt,
    output,
    hdrLogs,
    hdrHistograms,
    resources: proc.resources,
    validity,
  });
  const checked = validateResultDocument(doc);
  if (!checked.ok)
    throw new Error(
      `phase ${phase.name}: result document invalid: ${checked.errors.map((e) => `${e.path} ${e.message}`).join("; ")}`,
    );
  await spool.stage(stdoutKey(...at), stdout);
  await spool.stage(stderrKey(...at), stderr);
  for (const [i, l] of hdrLogs.entries()) await spool.stage(hdrLogKey(...at, l.operation), hdrBytes[i]!);
  await spool.stage(resultKey(...at), JSON.stringify(doc));
  // Everything of the phase is staged (durably, in the outbox): YCSB's working copy would only double the disk a long
  // campaign fills on the client. A crash before this line reruns the phase, which rewrites the folder.
  await rm(workDir, { recursive: true, force: true });
  log(
    `phase ${phase.index} ${phase.name}: ${output.overall.throughputOpsSec.toFixed(0)} ops/s, verdict ${validity.verdict}` +
      (validity.reasons.length ? ` (${validity.reasons.map((r) => r.code).join(", ")})` : ""),
  );
  // Stopped mid-phase: what it measured is stored (invalid, with its reason); the run ends here, naming the cause.
  if (watch.signal.aborted)
    throw new BarrierError(`phase ${phase.index} (${phase.name}): ${String(watch.signal.reason)}`, []);
  if (lostNode) throw new BarrierError(`phase ${phase.index} (${phase.name}): ${lostNode}`, []);
  return output.overall.throughputOpsSec;
}

async function planMissing(store: ResultsStore, runId: string, backoff: BackoffOptions): Promise<boolean> {
  const body = await withRetry("read plan.json", () => store.get(planKey(runId)), {
    ...backoff,
    deadlineMs: 60_000,
  }).catch(() => null);
  return body === undefined;
}

/** Asks, every watchMs while YCSB runs, whether the run can go on; stops the phase when it cannot. */
function watchPhase(o: ExecuteOptions): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  let asking = false;
  const timer = setInterval(() => {
    if (asking || controller.signal.aborted) return;
    asking = true;
    void (async () => {
      const problem =
        endedEarly(await readRunEnd(o.store, o.runId).catch(() => undefined)) ??
        (await o.runProblem?.().catch(() => undefined));
      if (problem && !controller.signal.aborted) {
        o.log?.(`stopping YCSB mid-phase: ${problem}`);
        controller.abort(problem);
      }
    })().finally(() => {
      asking = false;
    });
  }, o.watchMs ?? 15_000);
  return { signal: controller.signal, done: () => clearInterval(timer) };
}

async function writeManifest(
  store: ResultsStore,
  plan: Plan,
  runId: string,
  complete: boolean,
  reason: string | undefined,
  o: ExecuteOptions,
): Promise<void> {
  const objects = (await store.list(runPrefix(runId))).filter((k) => k !== manifestKey(runId));
  const results = new Set(objects.filter((k) => k.endsWith("/result.json")));
  const manifest: Manifest = {
    runId,
    scenario: plan.scenario,
    clients: plan.deployment.clients,
    complete,
    ...(reason ? { reason } : {}),
    writtenAt: new Date().toISOString(),
    phases: plan.phases.map((p) => ({
      index: p.index,
      name: p.name,
      kind: p.kind,
      outcome: Object.fromEntries(
        Array.from({ length: plan.deployment.clients }, (_, i) => [
          `client-${i}`,
          results.has(resultKey(runId, p.index, p.name, i))
            ? "stored"
            : p.kind === "prepare" || p.kind === "settle" || p.kind === "reset"
              ? "action"
              : "none",
        ]),
      ),
    })),
    objects,
  };
  await withRetry(
    "write manifest",
    () => store.put(manifestKey(runId), JSON.stringify(manifest, null, 2), "application/json"),
    {
      ...(o.backoff ?? DEFAULT_BACKOFF),
      deadlineMs: o.flushTimeoutMs ?? 30 * 60_000,
    },
  );
}
