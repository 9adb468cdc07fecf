import { createWriteStream } from "node:fs";
import { mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { $ } from "zx";
import type { PlanPhase } from "../model/index.js";
import { type ResourceSample, ResourceSampler } from "./proc-stat.js";
import { type ProgressState, renderProgress, updateProgress } from "./progress.js";
import { type YcsbSetup, ycsbInvocation } from "./ycsb-invocation.js";

export interface PhaseProcessResult {
  exitCode: number | null;
  /** Set when the process could not start or was killed. */
  failure?: string;
  stdoutPath: string;
  stderrPath: string;
  hdrFiles: string[];
  properties: Record<string, string>;
  resources: ResourceSample[];
  startedAt: string;
  finishedAt: string;
  pid?: number;
}

export interface PhaseProcessOptions {
  setup: YcsbSetup;
  phase: PlanPhase;
  clientIndex: number;
  /** Local folder for this phase's raw output (in the spool). */
  workDir: string;
  /** One progress line per status line. */
  onProgress?: (line: string) => void;
  /** Called with the java child's pid once it runs (bench/runner.ts samples its CPU). */
  onStart?: (pid: number) => void;
  /** Kill YCSB if it overruns its time cap by this much (a hung binding must not hang the run). */
  graceSec?: number;
  /** Stops YCSB mid-phase (the run cannot go on: a data node failed, another client ended the run); its reason is the failure. */
  stop?: AbortSignal;
}

/** Run YCSB for one phase: output streams to files, status lines feed the progress view. */
export async function runYcsbPhase(o: PhaseProcessOptions): Promise<PhaseProcessResult> {
  const hdrDir = join(o.workDir, "hdr");
  await mkdir(hdrDir, { recursive: true });
  const inv = ycsbInvocation(o.setup, o.phase, o.clientIndex, `${hdrDir}/`);
  const stdoutPath = join(o.workDir, "stdout.txt");
  const stderrPath = join(o.workDir, "stderr.txt");
  const sampler = new ResourceSampler();
  await sampler.start();
  const startedAt = new Date().toISOString();
  const [java, ...args] = inv.argv;
  // exec: the shell zx starts becomes java, so the pid is the JVM's (CPU sampling, signals).
  const proc = $({ nothrow: true, quiet: true, halt: false })`exec ${java} ${args}`;
  // zx would otherwise keep every byte in memory too; the files are the record.
  const out = createWriteStream(stdoutPath);
  const err = createWriteStream(stderrPath);
  let progress: ProgressState = { client: o.clientIndex, phase: o.phase.name };
  proc.run();
  const child = proc.child;
  if (child?.pid) o.onStart?.(child.pid);
  child?.stdout?.pipe(out);
  child?.stderr?.pipe(err);
  if (child?.stderr) {
    createInterface({ input: child.stderr }).on("line", (line) => {
      const next = updateProgress(progress, line, o.phase.maxExecutionTimeSec);
      if (next !== progress) {
        progress = next;
        o.onProgress?.(renderProgress(progress));
      }
    });
  }
  let killer: NodeJS.Timeout | undefined;
  let killedReason: string | undefined;
  if (o.phase.maxExecutionTimeSec) {
    // The cap counts from the end of a warm-up inside the process (model/plan.ts warmupSec).
    const limitMs = (o.phase.maxExecutionTimeSec + (o.phase.warmupSec ?? 0) + (o.graceSec ?? 120)) * 1000;
    killer = setTimeout(() => {
      killedReason = `YCSB overran its ${o.phase.maxExecutionTimeSec} s time cap by ${o.graceSec ?? 120} s and was killed`;
      void proc.kill("SIGKILL");
    }, limitMs);
  }
  const onStop = () => {
    killedReason = `YCSB stopped mid-phase: ${String(o.stop?.reason ?? "the run ended")}`;
    void proc.kill("SIGTERM");
    // A JVM that ignores SIGTERM for 10 s is killed: the run is over either way.
    setTimeout(() => void proc.kill("SIGKILL"), 10_000).unref();
  };
  if (o.stop?.aborted) onStop();
  else o.stop?.addEventListener("abort", onStop, { once: true });
  const result = await proc;
  o.stop?.removeEventListener("abort", onStop);
  if (killer) clearTimeout(killer);
  await Promise.all([new Promise((r) => out.end(r)), new Promise((r) => err.end(r))]);
  const resources = sampler.stop();
  const hdrFiles = (await readdir(hdrDir)).filter((f) => f.endsWith(".hdr")).sort();
  return {
    exitCode: result.exitCode,
    failure: killedReason ?? (result.exitCode === null ? `YCSB ended by signal ${result.signal ?? "?"}` : undefined),
    stdoutPath,
    stderrPath,
    hdrFiles: hdrFiles.map((f) => join(hdrDir, f)),
    properties: inv.properties,
    resources,
    startedAt,
    finishedAt: new Date().toISOString(),
    pid: child?.pid,
  };
}

export async function readText(path: string): Promise<string> {
  return readFile(path, "utf8").catch(() => "");
}
