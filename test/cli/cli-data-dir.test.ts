import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lockPathOf } from "../../api/db/data-dir-lock.js";
import { openDatabase } from "../../api/db/open.js";
import { fixtureDocument } from "../api/api-helpers.js";
import { REPO_ROOT, TSX_IMPORT, waitFor } from "../runner/runner-helpers.js";

/** `ycsb-lab <args>` as its own process, its output collected. */
function cli(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", TSX_IMPORT, join(REPO_ROOT, "cli", "main.ts"), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  const exit = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  return { child, exit, stdout: () => stdout, stderr: () => stderr };
}

/**
 * `ycsb-lab serve` on a loopback port of its choosing; resolves once it listens and has printed its write token (the
 * line after the URL: on a loaded machine the two lines can arrive apart), with its URL.
 */
async function serve(env: Record<string, string>) {
  const p = cli(["serve", "--host", "127.0.15.1", "--port", "0"], env);
  await waitFor(
    "serve to listen",
    120_000,
    () => /ycsb-lab API on (http:\/\/\S+)[\s\S]*write token.*\n/.test(p.stderr()) || p.child.exitCode !== null,
  );
  const url = /ycsb-lab API on (http:\/\/\S+)/.exec(p.stderr())?.[1];
  if (!url) throw new Error(`serve did not start: ${p.stderr()}`);
  return { ...p, url };
}

async function stop(p: { child: ChildProcess; exit: Promise<number | null> }, signal: NodeJS.Signals = "SIGTERM") {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill(signal);
  return p.exit;
}

// One owner per PGlite data directory (issue: data loss when `ingest` wrote into the directory of a running serve).
describe("the PGlite data directory has one owner", () => {
  let dir: string;
  let env: Record<string, string>;
  const running: { child: ChildProcess; exit: Promise<number | null> }[] = [];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "ycsb-lab-datadir-"));
    env = { PGLITE_DIR: join(dir, "pglite"), YCSB_LAB_TOKEN_FILE: join(dir, "write-token") };
    const docs = Array.from({ length: 50 }, (_, i) =>
      fixtureDocument({ runId: `cli-${Math.floor(i / 2)}`, client: (i % 2) as 0 | 1 }),
    );
    writeFileSync(join(dir, "docs.json"), JSON.stringify(docs));
    writeFileSync(
      join(dir, "one.json"),
      JSON.stringify([0, 1].map((c) => fixtureDocument({ runId: "after-kill", client: c as 0 | 1 }))),
    );
  });
  afterAll(async () => {
    for (const p of running) await stop(p, "SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  it("a second serve on the directory is refused, naming the owner; ingest writes through the owner's API; nothing is lost", async () => {
    const server = await serve(env);
    running.push(server);
    const lock = JSON.parse(readFileSync(lockPathOf(env.PGLITE_DIR!), "utf8"));
    expect(lock).toMatchObject({ pid: server.child.pid, url: server.url });
    // The write token is kept on disk, readable by its owner only, and printed.
    const token = readFileSync(env.YCSB_LAB_TOKEN_FILE!, "utf8").trim();
    expect(statSync(env.YCSB_LAB_TOKEN_FILE!).mode & 0o077).toBe(0);
    expect(server.stderr()).toContain(token);

    const second = cli(["serve", "--host", "127.0.15.1", "--port", "0"], env);
    running.push(second);
    expect(await second.exit).toBe(1);
    expect(second.stderr()).toContain(`pid ${server.child.pid}`);
    expect(second.stderr()).toMatch(/in use/);

    const ingest = cli(["ingest", join(dir, "docs.json")], env);
    expect(await ingest.exit, ingest.stderr()).toBe(0);
    expect(JSON.parse(ingest.stdout())).toMatchObject({ created: 50, via: server.url });
    const listed = await (await fetch(`${server.url}/api/v1/runs?limit=1000`)).json();
    expect(listed.total).toBe(25);

    expect(await stop(server)).toBe(0);
    expect(existsSync(lockPathOf(env.PGLITE_DIR!))).toBe(false);
    const db = await openDatabase({ pgliteDir: env.PGLITE_DIR! });
    try {
      expect(await db.prisma.clientResult.count()).toBe(50);
      expect(await db.prisma.run.count()).toBe(25);
      const [dups] = await db.prisma.$queryRaw<
        { n: number }[]
      >`SELECT COUNT(*)::int AS n FROM (SELECT phase_id, client_index FROM client_results GROUP BY 1, 2 HAVING COUNT(*) > 1) d`;
      expect(dups!.n).toBe(0);
    } finally {
      await db.close();
    }
  }, 300_000);

  it("a lock left by a killed owner is taken over; the token is the same after a restart", async () => {
    const server = await serve(env);
    running.push(server);
    const token = readFileSync(env.YCSB_LAB_TOKEN_FILE!, "utf8").trim();
    expect(server.stderr()).toContain(token);
    await stop(server, "SIGKILL");
    expect(existsSync(lockPathOf(env.PGLITE_DIR!))).toBe(true);

    const ingest = cli(["ingest", join(dir, "one.json")], env);
    expect(await ingest.exit, ingest.stderr()).toBe(0);
    expect(JSON.parse(ingest.stdout())).toMatchObject({ created: 2 });
    const db = await openDatabase({ pgliteDir: env.PGLITE_DIR! });
    try {
      expect(await db.prisma.clientResult.count()).toBe(52);
    } finally {
      await db.close();
    }
  }, 300_000);

  it("`start` (npm start) prints the kept write token, and a second `start` on its directory is refused naming it", async () => {
    const first = cli(["start", "--no-benchmark", "--host", "127.0.15.1", "--port", "0"], env);
    running.push(first);
    await waitFor(
      "start to serve",
      180_000,
      () => /write token.*\n/.test(first.stderr()) || first.child.exitCode !== null,
    );
    const token = readFileSync(env.YCSB_LAB_TOKEN_FILE!, "utf8").trim();
    expect(first.stderr(), first.stderr()).toContain(`the same after a restart): ${token}`);

    const second = cli(["start", "--no-benchmark", "--host", "127.0.15.1", "--port", "0"], env);
    running.push(second);
    expect(await second.exit).toBe(1);
    expect(second.stderr()).toContain(`pid ${first.child.pid}`);
    expect(await stop(first)).toBe(0);
    expect(existsSync(lockPathOf(env.PGLITE_DIR!))).toBe(false);
  }, 300_000);
});
