import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lockPathOf } from "../../api/db/data-dir-lock.js";
import { REPO_ROOT, TSX_IMPORT, waitFor } from "../runner/runner-helpers.js";

const HOST = "127.0.15.2";
const PORT = 18926;

/** `ycsb-lab start --no-benchmark` on its own data directory, its stderr collected. */
function start(dir: string) {
  const child = spawn(
    process.execPath,
    [
      "--import",
      TSX_IMPORT,
      join(REPO_ROOT, "cli", "main.ts"),
      "start",
      "--no-benchmark",
      "--host",
      HOST,
      "--port",
      String(PORT),
    ],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        LOG_LEVEL: "warn",
        PGLITE_DIR: join(dir, "pglite"),
        YCSB_LAB_TOKEN_FILE: join(dir, "write-token"),
      },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const exit = new Promise<number | null>((r) =>
    child.once("exit", (code, signal) => r(code ?? (signal ? 128 : null))),
  );
  return { child, exit, stderr: () => stderr };
}

// npm start's own lifecycle: no view answers before the seeds are stored, every Ctrl-C is said, no lock is left behind.
describe("npm start: views wait for the seeds, Ctrl-C always says what it stops and leaves no lock", () => {
  const dir = mkdtempSync(join(tmpdir(), "ycsb-lab-start-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("answers its first request with the seeds' series, and Ctrl-C after it serves says so and releases the lock", async () => {
    const p = start(dir);
    // Polled from the moment the process starts: the first answer must already hold seed 002's published series.
    let first: { series: unknown[] } | null = null;
    await waitFor("the API to answer", 240_000, async () => {
      if (p.child.exitCode !== null) throw new Error(`start exited: ${p.stderr()}`);
      const r = await fetch(`http://${HOST}:${PORT}/api/v1/scaling?scenario=lineate-2014`).catch(() => null);
      if (!r?.ok) return false;
      first = (await r.json()) as { series: unknown[] };
      return true;
    });
    expect(first!.series.length).toBeGreaterThan(0);
    await waitFor("the dashboard line", 60_000, () => p.stderr().includes("dashboard: http://"));
    expect(existsSync(lockPathOf(join(dir, "pglite")))).toBe(true);
    p.child.kill("SIGINT");
    expect(await p.exit).toBe(0);
    expect(p.stderr()).toContain(
      "stopping (SIGINT): the benchmark's processes end, then the dashboard and its database close",
    );
    expect(p.stderr()).toContain("stopped: the dashboard and its database are closed");
    expect(existsSync(lockPathOf(join(dir, "pglite")))).toBe(false);
  }, 300_000);

  it("a second Ctrl-C while stopping exits at once, said, with the lock released", async () => {
    const p = start(dir);
    await waitFor(
      "the dashboard line",
      240_000,
      () => p.stderr().includes("dashboard: http://") || p.child.exitCode !== null,
    );
    p.child.kill("SIGINT");
    await new Promise((r) => setTimeout(r, 5));
    p.child.kill("SIGINT");
    const code = await p.exit;
    // Whichever came first, the stop is said and the lock is gone (a second signal once exited without either).
    expect([0, 130]).toContain(code);
    expect(p.stderr()).toMatch(/stopping \(SIGINT\)/);
    if (code === 130) expect(p.stderr()).toContain("stopping now (SIGINT again)");
    expect(existsSync(lockPathOf(join(dir, "pglite")))).toBe(false);
  }, 300_000);
});
