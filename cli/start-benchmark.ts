/**
 * `npm start`'s local benchmark: one run per preset of a scenario cell, each ingested into the running dashboard as it
 * ends; after each run its verdicts are read back and, the first time a phase was client-bound, the console says
 * what that means and how to get a valid run.
 */
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import type { Db } from "../api/db/open.js";
import { clientBoundNotice, type PhaseVerdict, studyPageUrl } from "./start-notices.js";

export interface BenchmarkPlan {
  engine: string;
  scenario: string;
  presets: (string | undefined)[];
  clients: string;
  scale?: string;
  threads?: string;
  target?: string;
  /** `local run`'s capacity options (--capacity SLO, ...): a capacity search instead of the fixed target. */
  capacity?: string[];
}

export interface BenchmarkContext {
  url: string;
  token: string;
  db: Db;
  say: (line: string) => void;
  interrupted: () => boolean;
}

/** Runs another `ycsb-lab` subcommand as a child process with the same Node flags (tsx loader included). */
export function ycsbLab(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...args], {
    stdio: ["ignore", "inherit", "inherit"],
    env,
  });
  return new Promise((resolve) => child.once("exit", (code) => resolve(code ?? 1)));
}

/** The benchmark's last line: stopped by Ctrl-C, done (with where its runs are shown), or failed. Pure. */
export function benchmarkOutcome(o: {
  interrupted: boolean;
  failed: number;
  url: string;
  scenario: string;
  capacity?: boolean;
}): string {
  if (o.interrupted)
    return "benchmark: stopped by Ctrl-C; runs that finished before it are stored, and the server stops";
  if (o.failed !== 0) return "benchmark: a run failed (see above); the dashboard keeps serving";
  if (o.capacity)
    return `benchmark: done; each search's ladder and its SLO in the Capacity and cost view: ${o.url}/?view=capacity`;
  return `benchmark: done; its runs beside the study's published figures: ${studyPageUrl(o.url, o.scenario)}`;
}

/** Each phase of a run with its worst client verdict and every client's reasons. */
export async function runVerdicts(db: Db, runId: string): Promise<PhaseVerdict[]> {
  const clients = await db.clientResult.findMany({
    where: { runId },
    select: { phase: { select: { name: true, index: true } }, validity: { select: { verdict: true, reasons: true } } },
  });
  const rank = (v: string) => ["valid", "warning", "invalid"].indexOf(v);
  const phases = new Map<string, PhaseVerdict & { index: number }>();
  for (const c of clients) {
    const p = phases.get(c.phase.name) ?? { phase: c.phase.name, index: c.phase.index, verdict: "valid", reasons: [] };
    const v = c.validity?.verdict ?? "valid";
    if (rank(v) > rank(p.verdict)) p.verdict = v;
    const reasons = Array.isArray(c.validity?.reasons)
      ? (c.validity.reasons as { code?: unknown; message?: unknown }[])
      : [];
    for (const r of reasons)
      if (typeof r.code === "string" && typeof r.message === "string")
        p.reasons.push({ code: r.code, message: r.message });
    phases.set(c.phase.name, p);
  }
  return [...phases.values()].sort((a, b) => a.index - b.index);
}

/** One run per preset (the engine restarts between presets), ingested as each ends; returns the last failing exit code. */
export async function runBenchmark(plan: BenchmarkPlan, ctx: BenchmarkContext): Promise<number> {
  const childEnv = { ...process.env, YCSB_LAB_TOKEN: ctx.token };
  const { readState } = await import("../runner/local/engine.js");
  let failed = 0;
  let noticed = false;
  for (const preset of plan.presets) {
    if (ctx.interrupted()) break;
    // A preset is server-side configuration: the engine restarts under the next one.
    const running = await readState(plan.engine as never);
    if (running && preset !== undefined && running.preset !== preset)
      await ycsbLab(["local", "down", "--engine", plan.engine], childEnv);
    const runId = `${plan.scenario.replace(/\.(ya?ml|json)$/, "").replace(/[^A-Za-z0-9-]/g, "-")}-${plan.engine}${preset ? `-${preset}` : ""}-${stamp()}`;
    const code = await ycsbLab(
      [
        "local",
        "run",
        "--engine",
        plan.engine,
        "--scenario",
        plan.scenario,
        "--run-id",
        runId,
        ...(preset ? ["--preset", preset] : []),
        ...(plan.scale ? ["--scale", plan.scale] : []),
        ...(plan.threads ? ["--threads", plan.threads] : []),
        ...(plan.target ? ["--target", plan.target] : []),
        ...(plan.capacity ?? []),
        "--clients",
        plan.clients,
        "--ingest",
        ctx.url,
      ],
      childEnv,
    );
    if (code !== 0 && !ctx.interrupted()) {
      failed = code;
      ctx.say(`benchmark: ${preset ?? plan.scenario} ended with exit code ${code} (see above)`);
      continue;
    }
    if (noticed || ctx.interrupted()) continue;
    const notice = clientBoundNotice(await runVerdicts(ctx.db, runId), {
      cores: availableParallelism(),
      engine: plan.engine,
      scenario: plan.scenario,
    });
    if (notice) {
      ctx.say(notice);
      noticed = true;
    }
  }
  return failed;
}

function stamp(): string {
  return new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "");
}
