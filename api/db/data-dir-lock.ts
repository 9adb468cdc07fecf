import { closeSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";

/**
 * One owner per PGlite data directory (DESIGN.md). PGlite is Postgres in one process with no postmaster: two
 * processes opening one directory each write their own WAL over the other's, and what was acknowledged is lost or the
 * directory no longer opens. So whoever opens a directory holds `<dir>.lock` (beside it: initdb wants an empty
 * directory), naming its pid, host, command and, once it listens, its URL; the CLI's writes then go through that
 * server's API. A lock whose process is gone (kill -9, a crash) is taken over.
 */
export interface DataDirOwner {
  pid: number;
  host: string;
  command: string;
  startedAt: string;
  /** The API's address once the owner listens (ycsb-lab serve, start). */
  url?: string;
}

export class DataDirBusyError extends Error {
  constructor(
    readonly dir: string,
    readonly owner: DataDirOwner,
  ) {
    super(
      `the PGlite data directory ${dir} is in use by ${owner.command} (pid ${owner.pid} on ${owner.host}${owner.url ? `, serving ${owner.url}` : ""}): ` +
        `stop it first, or set PGLITE_DIR to another directory`,
    );
  }
}

export const lockPathOf = (dir: string) => `${dir.replace(/\/+$/, "")}.lock`;

function readOwner(path: string): DataDirOwner | null {
  try {
    const o = JSON.parse(readFileSync(path, "utf8")) as DataDirOwner;
    return typeof o.pid === "number" ? o : null;
  } catch {
    return null;
  }
}

/** Alive as far as this machine can tell: a lock from another host cannot be checked and is taken as alive. */
export function ownerAlive(owner: DataDirOwner): boolean {
  if (owner.host !== hostname()) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The live owner of a data directory, or null when nobody holds it (no lock, or a stale one). */
export function dataDirOwner(dir: string): DataDirOwner | null {
  const owner = readOwner(lockPathOf(dir));
  return owner && ownerAlive(owner) && owner.pid !== process.pid ? owner : null;
}

export interface DataDirLock {
  readonly path: string;
  /** Records where this owner serves, for the CLI to write through it. */
  announce(url: string): void;
  release(): void;
}

/** Takes the directory's lock or throws DataDirBusyError naming the owner. */
export function lockDataDir(dir: string, command = process.argv[2] ?? "process"): DataDirLock {
  const path = lockPathOf(dir);
  const me: DataDirOwner = { pid: process.pid, host: hostname(), command: `ycsb-lab ${command}`.trim(), startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      const fd = openSync(path, "wx", 0o644);
      try {
        writeFileSync(fd, JSON.stringify(me));
      } finally {
        closeSync(fd);
      }
      return held(path, me);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    const owner = readOwner(path);
    if (owner === null) {
      // Being written by its owner this very moment (created, not yet filled): look again.
      sleep(25);
      continue;
    }
    if (ownerAlive(owner) && owner.pid !== process.pid) throw new DataDirBusyError(dir, owner);
    // Stale: moved aside atomically (one of two racing openers wins the rename); if what moved is not the stale
    // lock read above but a fresh owner's, it is put back (link fails if a third took the place meanwhile).
    const aside = `${path}.stale-${process.pid}`;
    try {
      renameSync(path, aside);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw err;
    }
    const moved = readOwner(aside);
    if (moved && moved.pid !== owner.pid) {
      try {
        linkSync(aside, path);
      } catch {
        /* someone else holds it now: the loop reads them */
      }
    }
    unlinkSync(aside);
  }
  throw new Error(`could not take the lock ${path}`);
}

function held(path: string, me: DataDirOwner): DataDirLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off("exit", release);
    // Only our own lock: after a takeover another process may hold the path.
    if (readOwner(path)?.pid === me.pid) {
      try {
        unlinkSync(path);
      } catch {
        /* gone already */
      }
    }
  };
  process.on("exit", release);
  return {
    path,
    announce(url: string) {
      const tmp = `${path}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify({ ...me, url }));
      renameSync(tmp, path);
    },
    release,
  };
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
