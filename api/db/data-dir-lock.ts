import { closeSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";

/**
 * One owner per PGlite data directory (DESIGN.md). PGlite is Postgres in one process with no postmaster: two
 * processes opening one directory each write their own WAL over the other's, and what was acknowledged is lost or the
 * directory no longer opens. So whoever opens a directory holds `<dir>.lock` (beside it: initdb wants an empty
 * directory), naming its pid, host, command and, once it listens, its URL; the CLI's writes then go through that
 * server's API. A lock whose owner is gone is taken over: on this host, a pid that no longer runs, or runs another
 * process (the pid was recycled: its start time, from /proc, differs); from another host (a container recreated on a
 * persistent volume), a lease the owner renews every LEASE_RENEW_MS that lapsed LEASE_MS ago.
 */
export interface DataDirOwner {
  pid: number;
  host: string;
  command: string;
  startedAt: string;
  /** The process's start as the kernel counts it (/proc/<pid>/stat starttime) and the boot it belongs to. */
  processStart?: string;
  /** Last renewal of the lease (the owner rewrites the lock every LEASE_RENEW_MS). */
  renewedAt?: string;
  /** The API's address once the owner listens (ycsb-lab serve, start). */
  url?: string;
}

/** The owner renews its lease this often; a lock not renewed for LEASE_MS is stale wherever its owner ran. */
export const LEASE_RENEW_MS = 10_000;
export const LEASE_MS = 60_000;

export class DataDirBusyError extends Error {
  constructor(
    readonly dir: string,
    readonly owner: DataDirOwner,
  ) {
    const where =
      owner.host === hostname() ? `pid ${owner.pid} on this host` : `pid ${owner.pid} on host ${owner.host}`;
    super(
      `the PGlite data directory ${dir} is in use by ${owner.command} (${where}, since ${owner.startedAt}${owner.url ? `, serving ${owner.url}` : ""}): ` +
        `stop it first, or set PGLITE_DIR to another directory. If that process is gone, the lock is taken over by itself ` +
        `(on this host at once; from another host once its lease, renewed every ${LEASE_RENEW_MS / 1000} s, has lapsed for ` +
        `${LEASE_MS / 1000} s), or remove ${lockPathOf(dir)} by hand once you are sure nothing uses the directory`,
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

/** A process's start as the kernel counts it, with the boot it belongs to: what tells a recycled pid apart. */
export function processStartOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command (which may hold spaces and parentheses): the 20th of them is starttime (proc(5)).
    const starttime = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
    const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    return starttime ? `${boot}:${starttime}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Alive as far as this machine can tell. On this host: its pid runs, and is the same process (same start time, where
 * /proc says). From another host, whose processes this one cannot see: its lease has been renewed within LEASE_MS
 * (the lock file's modification time when the lock names no renewal: a lock of an older version).
 */
export function ownerAlive(owner: DataDirOwner, lockPath?: string, now = Date.now()): boolean {
  if (owner.host !== hostname()) {
    const renewed = owner.renewedAt ? Date.parse(owner.renewedAt) : lockPath ? modifiedAt(lockPath) : Number.NaN;
    return !(now - renewed > LEASE_MS);
  }
  try {
    process.kill(owner.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const start = owner.processStart === undefined ? undefined : processStartOf(owner.pid);
  return start === undefined || start === owner.processStart;
}

function modifiedAt(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Number.NaN;
  }
}

/** The live owner of a data directory, or null when nobody holds it (no lock, or a stale one). */
export function dataDirOwner(dir: string): DataDirOwner | null {
  const path = lockPathOf(dir);
  const owner = readOwner(path);
  return owner && ownerAlive(owner, path) && !isMe(owner) ? owner : null;
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
  const start = processStartOf(process.pid);
  const me: DataDirOwner = {
    pid: process.pid,
    host: hostname(),
    command: `ycsb-lab ${command}`.trim(),
    startedAt: new Date().toISOString(),
    ...(start ? { processStart: start } : {}),
    renewedAt: new Date().toISOString(),
  };
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
    if (ownerAlive(owner, path) && !isMe(owner)) throw new DataDirBusyError(dir, owner);
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

/** This very process (not another one that had this pid on this host before). */
const isMe = (owner: DataDirOwner) =>
  owner.pid === process.pid &&
  owner.host === hostname() &&
  (owner.processStart === undefined || owner.processStart === processStartOf(process.pid));

function held(path: string, me: DataDirOwner): DataDirLock {
  let released = false;
  let current = me;
  const write = (owner: DataDirOwner) => {
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(owner));
    renameSync(tmp, path);
    current = owner;
  };
  // The lease: renewed while this process holds the lock (and still is the one named in it).
  const renewal = setInterval(() => {
    if (released || readOwner(path)?.pid !== me.pid) return;
    try {
      write({ ...current, renewedAt: new Date().toISOString() });
    } catch {
      /* the next renewal tries again */
    }
  }, LEASE_RENEW_MS);
  renewal.unref();
  const release = () => {
    if (released) return;
    released = true;
    clearInterval(renewal);
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
      write({ ...current, url, renewedAt: new Date().toISOString() });
    },
    release,
  };
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
