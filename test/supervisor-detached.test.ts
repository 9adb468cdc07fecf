import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { processAlive, startProcess, stopDetached } from "../runner/boot/processes.js";

/** The one supervisor's detached start: what `ycsb-lab local up` leaves running for `local status` and `local down`. */
describe("the supervisor's detached start", () => {
  let dir: string;
  let pid: number | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "detached-"));
  });
  afterEach(() => {
    if (pid !== undefined) process.kill(pid, "SIGKILL");
    pid = undefined;
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("starts a process that another process finds by pid and command line, and stops it", async () => {
    const spec = {
      name: "sleeper",
      argv: ["sh", "-c", "echo started; exec sleep 30", "marker"],
      cwd: dir,
      listens: [],
    };
    const p = startProcess(spec, dir, { detached: true });
    pid = p.pid;
    const record = { pid: p.pid!, commandMarker: p.commandLine! };
    // What a state file keeps is plain JSON: another `ycsb-lab local` process reads it back.
    const read = JSON.parse(JSON.stringify(record)) as typeof record;
    await expect.poll(() => readFile(join(dir, "sleeper.log"), "utf8")).toContain("started");
    // `exec sleep` replaced the command line: the same pid now runs another command, which is never signalled.
    expect(processAlive(read)).toBe(false);
    expect(processAlive({ pid: read.pid, commandMarker: "sleep\u000030" })).toBe(true);
    await stopDetached({ pid: read.pid, commandMarker: "sleep\u000030" }, 5000);
    expect(processAlive({ pid: read.pid, commandMarker: "sleep\u000030" })).toBe(false);
    pid = undefined;
  });

  it("refuses a command that cannot start instead of recording no pid", () => {
    const spec = { name: "missing", argv: ["/nonexistent/server"], cwd: dir, listens: [] };
    expect(() => startProcess(spec, dir, { detached: true })).toThrow(
      /missing: \/nonexistent\/server could not be started/,
    );
  });
});
