import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import pg from "pg";

/**
 * Global setup of the integration project (vitest.config.ts). At the end of the run it drops every test database
 * (api-helpers.ts names them `ycsb_test_*`, `ycsb_test_<lane>_*` in a lane), stops the checkout's test PostgreSQL (scripts/setup-postgres.sh) unless it
 * ran before the tests did, and fails the run if a process the tests started is still alive: `npm test` leaves
 * nothing behind. "Started by the tests" is told by a marker in the environment, set here before any worker
 * starts and inherited by every process a test spawns (with the environment passed on, as the helpers do); so
 * a developer's own processes in the same checkout are never touched.
 */
const ROOT = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");
export const TEST_DATABASE_PREFIX = "ycsb_test_";

/**
 * The prefix of this run's test databases: with lanes side by side on one server (scripts/test-lanes.ts), each
 * lane's names carry the lane, so one lane's teardown never drops a database the other is still using.
 */
export function testDatabasePrefix(lane = process.env.YCSB_LAB_LANE): string {
  return lane ? `${TEST_DATABASE_PREFIX}${lane}_` : TEST_DATABASE_PREFIX;
}
const RUN_MARKER = "YCSB_LAB_TEST_RUN";

/**
 * Processes whose environment carries `marker`, except this one and its children: vitest's workers, which it
 * closes after this teardown.
 */
function markedProcesses(marker: string): Map<number, string> {
  const out = new Map<number, string>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (!readFileSync(`/proc/${name}/environ`, "utf8").split("\0").includes(marker)) continue;
      if (Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${name}/status`, "utf8"))?.[1]) === process.pid) continue;
      out.set(Number(name), readFileSync(`/proc/${name}/cmdline`, "utf8").replace(/\0/g, " ").trim());
    } catch {
      /* gone meanwhile, or another user's */
    }
  }
  return out;
}

function postgresRunning(): boolean {
  return existsSync(`${ROOT}/.cache/pg/data/postmaster.pid`);
}

async function dropTestDatabases(url: string): Promise<string[]> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE $1", [
      `${testDatabasePrefix()}%`,
    ]);
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    return rows.map((r) => r.datname);
  } finally {
    await admin.end();
  }
}

export default function setup() {
  const marker = `${RUN_MARKER}=${process.pid}-${Date.now()}`;
  process.env[RUN_MARKER] = marker.slice(RUN_MARKER.length + 1);
  const postgresBefore = postgresRunning();
  return async function teardown() {
    const external = process.env.TEST_DATABASE_URL;
    if (external) await dropTestDatabases(external);
    else if (postgresRunning()) {
      const port = readFileSync(`${ROOT}/.cache/pg/port`, "utf8").trim();
      await dropTestDatabases(`postgresql://ycsb@127.0.0.1:${port}/ycsb_lab`);
      // Quiet (pg_ctl's "server stopped" would follow the run's summary line); a failure still throws with its output.
      if (!postgresBefore) execFileSync("bash", [`${ROOT}/scripts/setup-postgres.sh`, "--stop"], { stdio: "pipe" });
    }
    const leftovers = markedProcesses(marker);
    if (leftovers.size) {
      // Each was started by this run's tests: end it, then fail the run (vitest exits with
      // process.exitCode; a teardown error alone is only logged).
      for (const pid of leftovers.keys()) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          /* ended meanwhile */
        }
      }
      process.exitCode = 1;
      throw new Error(
        `integration tests left ${leftovers.size} process(es) running (now killed):\n${[...leftovers].map(([pid, c]) => `  ${pid} ${c.slice(0, 200)}`).join("\n")}`,
      );
    }
  };
}
