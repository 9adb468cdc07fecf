import type { ClientOutput, Validity } from "../model/index.js";
import { DIP_RATIO, findThroughputDips, type ThroughputDip } from "../model/throughput-dips.js";
import type { ResourceSample } from "./proc-stat.js";

/**
 * The validity verdict of one client's phase, with its reasons. Pure: the thresholds are named constants with
 * their source, the inputs are what the runner measured.
 */
/** Below this share of the target the client could not drive the load it was asked for: saturated. */
export const SATURATION_RATIO = 0.95;
/** A client over this CPU share is client-bound (the rule scylla-cluster-tests applies to loaders). */
export const CLIENT_BOUND_CPU_PCT = 70;
/** Any failed operation is worth a warning; above this share the numbers are not the database's normal work. */
export const MAX_ERROR_RATE = 0.01;

export interface ValidityInput {
  kind: "load" | "warmup" | "workload";
  output: ClientOutput;
  /** YCSB's exit code (it exits 0 even when operations failed). */
  exitCode: number | null;
  /** Set when the output could not be parsed or the process failed to start. */
  failure?: string;
  targetPerClient?: number;
  /** Load phase: records this client was to insert. */
  insertCount?: number;
  resources: ResourceSample[];
  /** What the deployment knows went wrong in the cluster by the phase's end (a data node that died). */
  clusterProblems?: string[];
}

type Reason = Validity["reasons"][number];

/** Operation groups that count operations (not the Intended-/FAILED/CLEANUP echoes). */
function mainGroups(out: ClientOutput): [string, ClientOutput["operations"][string]][] {
  return Object.entries(out.operations).filter(
    ([g]) => !g.startsWith("Intended-") && !g.endsWith("-FAILED") && g !== "CLEANUP",
  );
}

export function errorCounts(out: ClientOutput): { ok: number; failed: number } {
  let ok = 0;
  let failed = 0;
  for (const [, stats] of mainGroups(out)) {
    for (const [status, n] of Object.entries(stats.returns)) {
      if (status === "OK") ok += n;
      else failed += n;
    }
  }
  return { ok, failed };
}

/** The phase's throughput dips (model/throughput-dips.ts: the rule the dashboard marks too). */
export function findDips(series: ClientOutput["statusSeries"]): ThroughputDip[] {
  return findThroughputDips(series.elapsedSec, series.opsPerSec);
}

export function judgePhase(input: ValidityInput): Validity {
  const invalid: Reason[] = [];
  const warning: Reason[] = [];
  const out = input.output;
  if (input.failure) invalid.push({ code: "ycsb-failed", message: input.failure });
  // A cluster that lost a node measures something else than the cluster the run describes.
  for (const problem of input.clusterProblems ?? []) invalid.push({ code: "cluster-node-failed", message: problem });
  if (input.exitCode !== 0 && input.exitCode !== null)
    invalid.push({ code: "ycsb-exit", message: `YCSB exited with code ${input.exitCode}` });

  const { ok, failed } = errorCounts(out);
  if (failed > 0) {
    const rate = failed / (ok + failed);
    const message = `${failed} of ${ok + failed} operations failed (${(rate * 100).toFixed(2)}%)`;
    (rate > MAX_ERROR_RATE ? invalid : warning).push({ code: "errors", message });
  }
  if (!input.failure && ok + failed === 0 && input.kind !== "warmup")
    invalid.push({ code: "no-operations", message: "YCSB reported no operations" });

  if (input.kind === "load" && input.insertCount !== undefined) {
    const inserted = out.operations.INSERT?.returns.OK ?? 0;
    if (inserted !== input.insertCount) {
      invalid.push({ code: "load-incomplete", message: `inserted ${inserted} of ${input.insertCount} records` });
    }
  }

  if (input.targetPerClient !== undefined && input.targetPerClient > 0) {
    const ratio = out.overall.throughputOpsSec / input.targetPerClient;
    if (ratio < SATURATION_RATIO) {
      warning.push({
        code: "saturated",
        message: `achieved ${out.overall.throughputOpsSec.toFixed(0)} ops/s of the ${input.targetPerClient.toFixed(0)} ops/s target (${(ratio * 100).toFixed(1)}% < ${SATURATION_RATIO * 100}%)`,
      });
    }
  }

  if (input.resources.length > 0) {
    const cpu = input.resources.reduce((s, r) => s + r.cpuPct, 0) / input.resources.length;
    const steal = input.resources.reduce((s, r) => s + r.stealPct, 0) / input.resources.length;
    if (cpu > CLIENT_BOUND_CPU_PCT) {
      warning.push({
        code: "client-bound",
        message: `client CPU averaged ${cpu.toFixed(0)}% (> ${CLIENT_BOUND_CPU_PCT}%): the client, not the database, may be the limit`,
      });
    }
    if (steal > 5)
      warning.push({
        code: "steal",
        message: `CPU steal averaged ${steal.toFixed(1)}%: a noisy neighbour took the client's CPU`,
      });
  }

  for (const dip of findDips(out.statusSeries)) {
    warning.push({
      code: "throughput-dip",
      message: `throughput fell under ${DIP_RATIO * 100}% of the mean from ${dip.fromSec}s to ${dip.toSec}s (lowest ${dip.minOpsPerSec.toFixed(0)} ops/s)`,
    });
  }

  const reasons = [...invalid, ...warning];
  return { verdict: invalid.length ? "invalid" : warning.length ? "warning" : "valid", reasons };
}
