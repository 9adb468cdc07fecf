import { spawn } from "node:child_process";
import { mkdir, open } from "node:fs/promises";
import { createConnection } from "node:net";
import { join } from "node:path";

/**
 * Start a server process that outlives this one (`ycsb-lab local up` returns, `local down` stops it by pid):
 * own process group, stdout and stderr appended to `<logDir>/stdout.log`, stdin closed.
 */
export async function spawnDetached(
  command: string,
  args: string[],
  opts: { logDir: string; cwd?: string; env?: NodeJS.ProcessEnv },
): Promise<number> {
  await mkdir(opts.logDir, { recursive: true });
  const log = await open(join(opts.logDir, "stdout.log"), "a");
  try {
    const child = spawn(command, args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      detached: true,
      stdio: ["ignore", log.fd, log.fd],
    });
    const pid = await new Promise<number>((resolve, reject) => {
      child.once("error", (err) => reject(new Error(`${command}: cannot start: ${err.message}`)));
      child.once("spawn", () => resolve(child.pid!));
    });
    child.unref();
    return pid;
  } finally {
    await log.close();
  }
}

/** True when something accepts TCP connections on host:port (loopback only in this project). */
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
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** A free TCP port on 127.0.0.1, chosen by the kernel. */
export async function freePort(): Promise<number> {
  const { createServer } = await import("node:net");
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
