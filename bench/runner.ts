/**
 * The runner's own CPU beside the YCSB JVM's during a phase (DESIGN.md target: under 2%).
 * Real YCSB 0.17.0 with site.ycsb.BasicDB runs one time-capped workload phase through the runner's phase
 * process control (output streamed to files, status lines to the progress view, /proc/stat sampled);
 * the runner's CPU comes from process.cpuUsage(), the JVM's from /proc/<pid>/stat, over the same window.
 *
 *   npx tsx bench/runner.ts [seconds=20] [threads=2]
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildPlan, scenario } from "../model/index.js";
import { runYcsbPhase } from "../runner/ycsb-phase.js";
import { basicDbSetup } from "../runner/ycsb-setup.js";

const seconds = Number(process.argv[2] ?? "20");
const threads = Number(process.argv[3] ?? "2");
const CLK_TCK = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;

/** utime + stime of a process in ms (proc(5): fields 14 and 15, after the parenthesised command name). */
async function processCpuMs(pid: number): Promise<number | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => undefined);
  if (!stat) return undefined;
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(f[11]) + Number(f[12])) / CLK_TCK) * 1000;
}

const runnerCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function main(): Promise<void> {
  execFileSync("bash", [join(import.meta.dirname, "..", "scripts", "fetch-ycsb.sh")], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = scenario("quickstart");
  const plan = buildPlan({
    ...base,
    workloads: [{ workload: "a", maxExecutionTimeSec: seconds }],
    threads: { perClient: threads },
  });
  const phase = plan.phases.find((p) => p.kind === "workload")!;
  const work = await mkdtemp(join(tmpdir(), "bench-runner-"));
  let pid: number | undefined;
  let first: { runner: number; jvm: number } | undefined;
  let last: { runner: number; jvm: number } | undefined;
  let lines = 0;
  const sampler = setInterval(async () => {
    if (!pid) return;
    const jvm = await processCpuMs(pid);
    if (jvm === undefined) return;
    const sample = { runner: runnerCpuMs(), jvm };
    first ??= sample;
    last = sample;
  }, 250);
  const result = await runYcsbPhase({
    setup: await basicDbSetup(),
    phase,
    clientIndex: 0,
    workDir: work,
    onStart: (p) => (pid = p),
    onProgress: () => lines++,
  });
  clearInterval(sampler);
  if (process.env.DEBUG_BENCH || result.exitCode !== 0)
    console.error((await readFile(result.stderrPath, "utf8")).slice(-2000));
  await rm(work, { recursive: true, force: true });
  if (!first || !last || last.jvm === first.jvm)
    throw new Error(`no CPU samples of the YCSB JVM (exit ${result.exitCode})`);
  const runner = last.runner - first.runner;
  const jvm = last.jvm - first.jvm;
  const pct = (100 * runner) / jvm;
  console.log(`phase: workload a, ${threads} threads, ${seconds} s cap, site.ycsb.BasicDB; ${lines} progress updates`);
  console.log(`YCSB JVM CPU   ${jvm.toFixed(0).padStart(8)} ms`);
  console.log(`runner CPU     ${runner.toFixed(0).padStart(8)} ms`);
  console.log(`runner / JVM   ${pct.toFixed(2).padStart(8)} %   (target < 2%: ${pct < 2 ? "met" : "NOT met"})`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
