/**
 * One durable usa-2015-durability load measured on this machine, for `ycsb-lab plan --cost`: real Cassandra 5.0
 * (runner/local) under the scenario's durable preset (commitlog_sync group with a 10 ms window, seed 004 lines
 * 263-264), the plan's own load phase run by the project's binding with its 8 client threads, cut to `records`.
 * Prints the load rate and the machine as JSON; model/measured-rates.ts keeps the figure. Cassandra binds
 * 127.0.0.1, so run it alone, under the integration lock:
 *
 *   flock /tmp/ycsb-lab-integration.lock npx tsx bench/durable-load.ts [records=60000]
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { cpus, loadavg, release, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { buildPlan, ENGINE_VERSIONS, scenario } from "../model/index.js";
import { bindingClasspathDir } from "../runner/java-artifacts.js";
import { loadLocalEngine } from "../runner/local/registry.js";
import { parseYcsbOutput } from "../runner/ycsb-output/index.js";
import { runYcsbPhase } from "../runner/ycsb-phase.js";
import { ycsbSetup } from "../runner/ycsb-setup.js";

const records = Number(process.argv[2] ?? "60000");
const say = (line: string) => process.stderr.write(`${line}\n`);

/** The file system the commit log is written to (its fsync is what a 10 ms group window waits for). */
function fileSystemOf(dir: string): string {
  try {
    return execFileSync("df", ["--output=fstype,source", dir], { encoding: "utf8" })
      .trim()
      .split("\n")
      .at(-1)!
      .trim()
      .replace(/\s+/, " on ");
  } catch {
    return "unknown";
  }
}

async function main(): Promise<void> {
  execFileSync("bash", [join(import.meta.dirname, "..", "scripts", "fetch-ycsb.sh")], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const dataDir = await mkdtemp(join(tmpdir(), "durable-load-"));
  // The engine's state file goes beside its data, never over a developer's `ycsb-lab local up`.
  process.env.YCSB_LAB_LOCAL_DIR = join(dataDir, "engines");
  const spec = scenario("usa-2015-durability");
  const plan = buildPlan(spec, { engine: "cassandra", preset: "durable", scale: records / spec.records.total! });
  const load = plan.phases.find((p) => p.kind === "load")!;
  const local = await loadLocalEngine("cassandra");
  say(`cassandra: starting 1 node, preset durable, study ${JSON.stringify(plan.deployment.study)}`);
  const state = await local.up({ nodes: 1, preset: "durable", dataDir, log: say, study: plan.deployment.study });
  try {
    const setup = ycsbSetup({
      db: local.binding.dbClass,
      classpath: [join(await bindingClasspathDir(local.binding.module), "*")],
      properties: local.connectionProperties(state),
    });
    say(`load: ${load.perClient[0]!.insertcount} records, ${load.threadsPerClient} threads`);
    const work = join(dataDir, "ycsb");
    const proc = await runYcsbPhase({ setup, phase: load, clientIndex: 0, workDir: work });
    const out = parseYcsbOutput(await readFile(proc.stdoutPath), await readFile(proc.stderrPath));
    const inserted = out.operations.INSERT?.count ?? 0;
    console.log(
      JSON.stringify(
        {
          measuredAt: new Date().toISOString().slice(0, 10),
          engine: `cassandra ${ENGINE_VERSIONS.cassandra} (runner/local, 1 node)`,
          commitlog: plan.deployment.study.cassandra,
          threads: load.threadsPerClient,
          records: inserted,
          runtimeMs: out.overall.runtimeMs,
          opsPerSec: Math.round(out.overall.throughputOpsSec),
          machine: {
            cpus: cpus().length,
            cpu: cpus()[0]?.model ?? "unknown",
            memoryGiB: Math.round(totalmem() / 2 ** 30),
            kernel: release(),
            commitlogFileSystem: fileSystemOf(dataDir),
            loadAverage1m: Math.round(loadavg()[0]! * 10) / 10,
          },
        },
        null,
        2,
      ),
    );
    if (inserted !== records)
      throw new Error(`the load inserted ${inserted} of ${records} records (exit code ${proc.exitCode})`);
  } finally {
    await local.down(state);
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: Error) => {
  console.error(`bench/durable-load: ${err.message}`);
  process.exit(1);
});
