import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import {
  DataDirBusyError,
  type DataDirOwner,
  LEASE_MS,
  lockDataDir,
  lockPathOf,
  processStartOf,
} from "../../api/db/data-dir-lock.js";

// A PGlite directory's one owner (api/db/data-dir-lock.ts): a lock its owner left behind never locks the store for good.
describe("the data directory's lock knows a dead owner", () => {
  const dirs: string[] = [];
  const fresh = () => {
    const root = mkdtempSync(join(tmpdir(), "ycsb-lab-lock-"));
    dirs.push(root);
    return join(root, "pglite");
  };
  const leave = (dir: string, owner: Partial<DataDirOwner>) =>
    writeFileSync(
      lockPathOf(dir),
      JSON.stringify({
        pid: process.pid,
        host: hostname(),
        command: "ycsb-lab serve",
        startedAt: "2026-01-01T00:00:00.000Z",
        ...owner,
      }),
    );
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  test("a lock of a crashed owner whose pid now belongs to another process (a recycled pid) is taken over", () => {
    const dir = fresh();
    // The parent runs (kill -0 succeeds) but is not the process that took the lock: its start time differs.
    expect(processStartOf(process.ppid)).toBeDefined();
    leave(dir, { pid: process.ppid, processStart: `${processStartOf(process.ppid)!}0` });
    const lock = lockDataDir(dir, "serve");
    expect(JSON.parse(readFileSync(lockPathOf(dir), "utf8")).pid).toBe(process.pid);
    lock.release();
  });

  test("the live owner on this host keeps it, and the refusal says how to clear a lock left behind", () => {
    const dir = fresh();
    leave(dir, { pid: process.ppid, processStart: processStartOf(process.ppid)! });
    expect(() => lockDataDir(dir, "serve")).toThrow(DataDirBusyError);
    expect(() => lockDataDir(dir, "serve")).toThrow(
      new RegExp(`remove ${lockPathOf(dir).replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} by hand`),
    );
  });

  test("a lock written under another host name (a container recreated on a persistent volume) is taken over once its lease lapsed", () => {
    const dir = fresh();
    const stale = new Date(Date.now() - LEASE_MS - 5_000).toISOString();
    leave(dir, { host: "container-before", pid: 1, renewedAt: stale });
    lockDataDir(dir, "serve").release();
    // Renewed just now on that host: it may still write, so it is refused.
    leave(dir, { host: "container-elsewhere", pid: 1, renewedAt: new Date().toISOString() });
    expect(() => lockDataDir(dir, "serve")).toThrow(/host container-elsewhere.*lease/);
  });

  test("a lock of an older version (no lease) from another host: its file's age is its lease", () => {
    const dir = fresh();
    leave(dir, { host: "old-version-host", pid: 1 });
    const old = (Date.now() - LEASE_MS - 5_000) / 1000;
    utimesSync(lockPathOf(dir), old, old);
    lockDataDir(dir, "ingest").release();
  });
});
