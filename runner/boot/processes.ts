import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, openSync, closeSync, readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { ProcessSpec } from "../../engines/runtime.js";
import { tcpOpen } from "../local/detached.js";

const GLOB = /\$\{glob:([^}]+)\}/g;

/** Resolves `${glob:/dir/name-*.jar}` to the one file that matches (engines/ cannot list folders: they are pure). */
export function resolveGlobs(arg: string): string {
  return arg.replace(GLOB, (_m, pattern: string) => {
    const dir = dirname(pattern);
    const re = new RegExp(`^${basename(pattern).replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);
    const matches = existsSync(dir) ? readdirSync(dir).filter((f) => re.test(f)) : [];
    if (matches.length !== 1) throw new Error(`${pattern}: expected one matching file, found ${matches.length === 0 ? "none" : matches.join(", ")}`);
    return join(dir, matches[0]!);
  });
}

export interface Supervised {
  spec: ProcessSpec;
  child: ChildProcess;
  logFile: string;
  /** Resolves with a description of how the process ended. */
  exited: Promise<string>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until host:port accepts connections; `alive` is polled so a dead process fails the wait at once. */
export async function waitForEndpoint(host: string, port: number, timeoutMs: number, alive: () => string | undefined = () => undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const dead = alive();
    if (dead) throw new Error(dead);
    if (await tcpOpen(host, port)) return;
    if (Date.now() > deadline) throw new Error(`${host}:${port} does not accept connections after ${Math.round(timeoutMs / 1000)} s`);
    await sleep(500);
  }
}

/**
 * Starts one engine process as the node's child (the boot command supervises its engine: when the engine dies, the
 * node reports it), its output in <logDir>/<name>.log. `uid`/`gid` run it as the engine's system user on an
 * instance (created with the OS packages); a rehearsal runs it as the current user.
 */
export function startProcess(spec: ProcessSpec, logDir: string, user?: { uid: number; gid: number }): Supervised {
  mkdirSync(logDir, { recursive: true });
  const logFile = join(logDir, `${spec.name}.log`);
  const [command, ...args] = spec.argv.map(resolveGlobs);
  const fd = openSync(logFile, "a");
  let child: ChildProcess;
  try {
    child = spawn(command!, args, { cwd: spec.cwd, env: { ...process.env, ...(spec.env ?? {}) }, stdio: ["ignore", fd, fd], ...(user ?? {}) });
  } finally {
    closeSync(fd);
  }
  const exited = new Promise<string>((resolve) => {
    child.once("error", (err) => resolve(`${spec.name} could not start: ${err.message}`));
    child.once("exit", (code, signal) => resolve(`${spec.name} (pid ${child.pid}) exited ${signal ? `by signal ${signal}` : `with code ${code}`}`));
  });
  return { spec, child, logFile, exited };
}

/** Runs a one-shot preparation step (e.g. formatting HDFS) unless its marker path exists; throws with its output's tail. */
export function runPrepare(spec: ProcessSpec, logDir: string): void {
  const p = spec.prepare;
  if (!p || existsSync(p.skipIfExists)) return;
  const [command, ...args] = p.argv.map(resolveGlobs);
  const out = spawnSync(command!, args, { cwd: spec.cwd, env: { ...process.env, ...(p.env ?? {}) }, encoding: "utf8", maxBuffer: 1 << 24 });
  mkdirSync(logDir, { recursive: true });
  if (out.status !== 0) {
    const text = `${out.stdout ?? ""}\n${out.stderr ?? ""}`.trim().split("\n").slice(-20).join("\n");
    throw new Error(`${spec.name}: preparation ${p.argv.slice(0, 3).join(" ")} ... failed (exit ${out.status}): ${text || out.error?.message}`);
  }
}

/** Stops every process: SIGTERM (engines flush), SIGKILL after the grace period. */
export async function stopAll(processes: Supervised[], graceMs = 30_000): Promise<void> {
  await Promise.all(
    processes.map(async (p) => {
      if (p.child.exitCode !== null || p.child.signalCode !== null) return;
      p.child.kill("SIGTERM");
      const done = await Promise.race([p.exited.then(() => true), sleep(graceMs).then(() => false)]);
      if (!done) {
        p.child.kill("SIGKILL");
        await p.exited;
      }
    }),
  );
}
