/**
 * `npm test`'s runner after type checks: the unit files, then the integration project's two lanes side by side
 * (vitest.config.ts MACHINES_LANE: OS-container rehearsals and engines that bind every address; the services lane:
 * the rest), each lane one file at a time as before. Lanes share one test PostgreSQL, started here first (each
 * lane's teardown drops only its own databases: test/support/integration-teardown.ts) and stopped at the end
 * unless it ran before. Each line of a lane's output is prefixed with its name and also kept in
 * .local/test-lanes/<lane>.log; the run ends with one summary of every file (scripts/lane-summary.ts).
 *
 *   npx tsx scripts/test-lanes.ts [vitest filters...]     e.g. `npx tsx scripts/test-lanes.ts api- rehearse-engines`
 */
import { execFileSync, spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { type LaneResult, lanesPassed, parseRunSummary, renderLaneSummary } from "./lane-summary.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const OUT = join(ROOT, ".local", "test-lanes");
const VITEST = join(ROOT, "node_modules", "vitest", "vitest.mjs");
const filters = process.argv.slice(2);
const children = new Set<ReturnType<typeof spawn>>();

function readSummary(file: string): LaneResult["summary"] {
  if (!existsSync(file)) return undefined;
  return parseRunSummary(readFileSync(file, "utf8"), file);
}

/** One vitest run; its output prefixed with `tag` (or passed through untouched when tag is empty). */
function runVitest(lane: string, project: string, env: NodeJS.ProcessEnv, tag: boolean): Promise<LaneResult> {
  const summaryFile = join(OUT, `${lane}.json`);
  rmSync(summaryFile, { force: true });
  const args = [VITEST, "run", "--project", project, ...(filters.length ? ["--passWithNoTests", ...filters] : [])];
  const started = Date.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    // Piped output gets no colour codes (they would fill the CI log and the lane's log file).
    env: {
      ...process.env,
      ...(tag && !process.stdout.isTTY ? { NO_COLOR: "1" } : {}),
      ...env,
      YCSB_LAB_SUMMARY_FILE: summaryFile,
    },
    stdio: tag ? ["ignore", "pipe", "pipe"] : "inherit",
  });
  children.add(child);
  if (tag) {
    const log = createWriteStream(join(OUT, `${lane}.log`));
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on("line", (line) => {
        log.write(`${line}\n`);
        process.stdout.write(`[${lane}] ${line}\n`);
      });
    }
    child.on("close", () => log.end());
  }
  return new Promise((resolve) => {
    child.on("close", (code) => {
      children.delete(child);
      resolve({ lane, summary: readSummary(summaryFile), exitCode: code, wallMs: Date.now() - started });
    });
  });
}

/** The shared test PostgreSQL's URL, and whether this run started it (and so stops it). */
function startPostgres(): { url: string; startedHere: boolean } {
  const external = process.env.TEST_DATABASE_URL;
  if (external) return { url: external, startedHere: false };
  const runningBefore = existsSync(join(ROOT, ".cache", "pg", "data", "postmaster.pid"));
  const script = join(ROOT, "scripts", "setup-postgres.sh");
  const url = execFileSync("bash", [script], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
  return { url, startedHere: !runningBefore };
}

// Ctrl-C reaches every child through the terminal's process group; a plain SIGTERM to this runner is passed on.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    for (const c of children) c.kill(signal);
  });
}

mkdirSync(OUT, { recursive: true });
const unit = await runVitest("unit", "unit", {}, false);
const postgres = startPostgres();
console.log(`\n== integration lanes side by side: machines and services (logs in .local/test-lanes/)\n`);
/**
 * The host's JVMs in the test lanes (local Cassandra, HBase's daemons, YCSB, CouchbaseMock) compile with C1 only:
 * a test's JVM lives for seconds to minutes, where C2's compile threads take a core of two that the other lane
 * needs (a local Cassandra's start: 15-16 s of CPU with C2, 9 s with C1 alone, docs/benchmarks.md). The
 * rehearsals' OS containers do not inherit it (systemd-nspawn --boot starts PID 1 with a clean environment), so
 * the rehearsed machines run their JVMs as EC2 would. A setting the caller made is kept.
 */
const JVM_IN_TESTS = { JAVA_TOOL_OPTIONS: process.env.JAVA_TOOL_OPTIONS ?? "-XX:TieredStopAtLevel=1" };
const lanes = await Promise.all(
  ["machines", "services"].map((lane) =>
    runVitest(lane, "integration", { ...JVM_IN_TESTS, YCSB_LAB_LANE: lane, TEST_DATABASE_URL: postgres.url }, true),
  ),
);
if (postgres.startedHere)
  execFileSync("bash", [join(ROOT, "scripts", "setup-postgres.sh"), "--stop"], { stdio: "pipe" });
const all = [unit, ...lanes];
process.stdout.write(`\n${renderLaneSummary(all)}`);
process.exitCode = lanesPassed(all) ? 0 : 1;
