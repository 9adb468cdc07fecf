import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { basename, dirname, join } from "node:path";
import type { ProcessSpec, ServerSpec, ServiceSpec } from "../../engines/runtime.js";

/**
 * The one supervisor of engine processes: the boot command's children on an instance and in a rehearsal, and the
 * servers `ycsb-lab local up` leaves running (started detached, then watched and stopped by pid from any process).
 */

const GLOB = /\$\{glob:([^}]+)\}/g;

/** Resolves `${glob:/dir/name-*.jar}` to the one file that matches (engines/ cannot list folders: they are pure). */
export function resolveGlobs(arg: string): string {
  return arg.replace(GLOB, (_m, pattern: string) => {
    const dir = dirname(pattern);
    const re = new RegExp(
      `^${basename(pattern)
        .replace(/[.+^${}()|[\]\\]/g, "\\$&")
        .replace(/\*/g, ".*")}$`,
    );
    const matches = existsSync(dir) ? readdirSync(dir).filter((f) => re.test(f)) : [];
    if (matches.length !== 1)
      throw new Error(
        `${pattern}: expected one matching file, found ${matches.length === 0 ? "none" : matches.join(", ")}`,
      );
    return join(dir, matches[0]!);
  });
}

/** A server the node supervises: its own child process, or a service its package runs (systemd owns that one). */
export interface Supervised {
  spec: ServerSpec;
  /** The child's pid; undefined for a service. */
  pid?: number;
  /** Where its output goes (a child's log file, a service's own log). */
  logFile: string;
  /** A child's command line as /proc/<pid>/cmdline shows it (arguments joined by NUL): its DetachedProcess marker. */
  commandLine?: string;
  /** Resolves with a description of how the server ended. */
  exited: Promise<string>;
  /** False once it has ended. */
  running(): boolean;
  /** SIGTERM (engines flush), SIGKILL after the grace period; a service is stopped through systemd. */
  stop(graceMs: number): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** True when something accepts TCP connections on host:port (loopback only on a development machine). */
export function tcpOpen(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/** Polls `check` every `intervalMs` until it returns true; throws `what` with the last reason after `timeoutMs`. */
export async function waitUntil(
  what: string,
  timeoutMs: number,
  check: () => Promise<boolean>,
  intervalMs = 250,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`${what}: not ready after ${Math.round(timeoutMs / 1000)} s`);
    await sleep(intervalMs);
  }
}

/** A free TCP port on 127.0.0.1, chosen by the kernel. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/** Waits until host:port accepts connections; `alive` is polled so a dead process fails the wait at once. */
export async function waitForEndpoint(
  host: string,
  port: number,
  timeoutMs: number,
  alive: () => string | undefined = () => undefined,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const dead = alive();
    if (dead) throw new Error(dead);
    if (await tcpOpen(host, port)) return;
    if (Date.now() > deadline)
      throw new Error(`${host}:${port} does not accept connections after ${Math.round(timeoutMs / 1000)} s`);
    await sleep(500);
  }
}

/** How a process is started beyond its spec. */
export interface StartOptions {
  /** `uid`/`gid`: the engine's system user on an instance (created with the OS packages); else the current user. */
  user?: { uid: number; gid: number } | undefined;
  /**
   * Outlives this process in its own process group (`ycsb-lab local up` returns; `local status` and `local down`
   * find it by pid and command line, see processAlive and stopDetached).
   */
  detached?: boolean;
}

/**
 * Starts one engine process as the node's child (the boot command supervises its engine: when the engine dies, the
 * node reports it), its output in <logDir>/<name>.log, stdin closed; throws when it cannot be started at all.
 */
export function startProcess(spec: ProcessSpec, logDir: string, o: StartOptions = {}): Supervised {
  mkdirSync(logDir, { recursive: true });
  const logFile = join(logDir, `${spec.name}.log`);
  const argv = spec.argv.map(resolveGlobs);
  const [command, ...args] = argv;
  const fd = openSync(logFile, "a");
  let child: ChildProcess;
  try {
    child = spawn(command!, args, {
      cwd: spec.cwd,
      env: { ...process.env, ...(spec.env ?? {}) },
      stdio: ["ignore", fd, fd],
      ...(o.user ?? {}),
      ...(o.detached ? { detached: true } : {}),
    });
  } finally {
    closeSync(fd);
  }
  const exited = new Promise<string>((resolve) => {
    child.once("error", (err) => resolve(`${spec.name} could not start: ${err.message}`));
    child.once("exit", (code, signal) =>
      resolve(`${spec.name} (pid ${child.pid}) exited ${signal ? `by signal ${signal}` : `with code ${code}`}`),
    );
  });
  // The spawn error is the exit promise's to report (a listener is in place): a detached start throws at once.
  if (o.detached) {
    if (child.pid === undefined) throw new Error(`${spec.name}: ${command} could not be started`);
    child.unref();
  }
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    spec,
    ...(child.pid !== undefined ? { pid: child.pid } : {}),
    logFile,
    commandLine: argv.join("\u0000"),
    exited,
    running,
    async stop(graceMs) {
      if (!running()) return;
      child.kill("SIGTERM");
      const done = await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)]);
      if (!done) {
        child.kill("SIGKILL");
        await exited;
      }
    },
  };
}

/** True while `url` answers below HTTP 500 (a 401 serves too: the server is up and wants credentials). */
export async function httpServes(url: string, timeoutMs = 5000): Promise<boolean> {
  try {
    const r = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: "manual" });
    await r.body?.cancel();
    return r.status < 500;
  } catch {
    return false;
  }
}

function systemctl(args: string[]): void {
  const out = spawnSync("systemctl", args, { encoding: "utf8" });
  if (out.status !== 0)
    throw new Error(
      `systemctl ${args.join(" ")}: ${(out.stderr || out.error?.message || `exit ${out.status}`).trim()}`,
    );
}

/**
 * Starts a package's own systemd service and supervises it by its health endpoint: once it has served, it counts as
 * ended after `downPolls` failed polls in a row (a restart by systemd within that window is not a death).
 */
export function startService(spec: ServiceSpec, o: { pollMs?: number; downPolls?: number } = {}): Supervised {
  systemctl(["enable", "--now", spec.unit]);
  const pollMs = o.pollMs ?? 5000;
  const downPolls = o.downPolls ?? 12;
  let ended = false;
  let timer: NodeJS.Timeout | undefined;
  const exited = new Promise<string>((resolve) => {
    let served = false;
    let failures = 0;
    const poll = async () => {
      if (ended) return;
      if (await httpServes(spec.health.url)) {
        served = true;
        failures = 0;
      } else if (served && ++failures >= downPolls) {
        ended = true;
        resolve(
          `${spec.name} (systemd unit ${spec.unit}) stopped answering ${spec.health.url} for ${Math.round((pollMs * downPolls) / 1000)} s`,
        );
        return;
      }
      timer = setTimeout(() => void poll(), pollMs);
    };
    void poll();
  });
  return {
    spec,
    logFile: spec.logFile,
    exited,
    running: () => !ended,
    async stop() {
      if (timer) clearTimeout(timer);
      if (ended) return;
      ended = true;
      systemctl(["stop", spec.unit]);
    },
  };
}

/**
 * Runs a one-shot preparation step (e.g. formatting HDFS) unless its marker path exists, as the engine's user (what
 * it writes, the engine must own); throws with its output's tail.
 */
export function runPrepare(spec: ProcessSpec, logDir: string, user?: { uid: number; gid: number } | undefined): void {
  const p = spec.prepare;
  if (!p || existsSync(p.skipIfExists)) return;
  const [command, ...args] = p.argv.map(resolveGlobs);
  const out = spawnSync(command!, args, {
    cwd: spec.cwd,
    env: { ...process.env, ...(p.env ?? {}) },
    encoding: "utf8",
    maxBuffer: 1 << 24,
    ...(user ?? {}),
  });
  mkdirSync(logDir, { recursive: true });
  if (out.status !== 0) {
    const text = `${out.stdout ?? ""}\n${out.stderr ?? ""}`.trim().split("\n").slice(-20).join("\n");
    throw new Error(
      `${spec.name}: preparation ${p.argv.slice(0, 3).join(" ")} ... failed (exit ${out.status}): ${text || out.error?.message}`,
    );
  }
}

/** Stops every server: SIGTERM (engines flush), SIGKILL after the grace period; services through systemd. */
export async function stopAll(processes: Supervised[], graceMs = 30_000): Promise<void> {
  await Promise.all(processes.map((p) => p.stop(graceMs).catch(() => undefined)));
}

/** A process started detached, as a state file records it for another process to watch and stop. */
export interface DetachedProcess {
  pid: number;
  /** A string found in /proc/<pid>/cmdline of this process, so a recycled pid is never signalled. */
  commandMarker: string;
}

/** True when the pid runs and its command line carries the marker (not a recycled pid). */
export function processAlive(p: DetachedProcess): boolean {
  try {
    process.kill(p.pid, 0);
    return readFileSync(`/proc/${p.pid}/cmdline`, "utf8").includes(p.commandMarker);
  } catch {
    return false;
  }
}

/** SIGTERM a detached process (if it is still the one started), SIGKILL after `graceMs`; waits until it is gone. */
export async function stopDetached(p: DetachedProcess, graceMs = 30_000): Promise<void> {
  if (!processAlive(p)) return;
  process.kill(p.pid, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!processAlive(p)) return;
    await sleep(200);
  }
  if (processAlive(p)) process.kill(p.pid, "SIGKILL");
  while (processAlive(p)) await sleep(100);
}
