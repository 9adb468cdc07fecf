import { type ChildProcess, execFile, spawn } from "node:child_process";
import { createServer, type Server, Socket } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";

export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const run = promisify(execFile);
/** `node --import <tsx>` by absolute URL, so a child started in another folder still finds tsx. */
export const TSX_IMPORT = import.meta.resolve("tsx");

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = new Socket();
      s.once("connect", () => (s.destroy(), resolve(true)));
      s.once("error", () => resolve(false));
      s.connect(port, "127.0.0.1");
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`nothing listens on 127.0.0.1:${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** moto's S3 server on loopback (scripts/setup-moto.sh installs it). */
export async function startMoto(): Promise<{ endpoint: string; port: number; stop: () => Promise<void> }> {
  const bin = (await run("bash", [join(REPO_ROOT, "scripts", "setup-moto.sh")])).stdout.trim().split("\n").pop()!;
  const port = await freePort();
  const child = spawn(bin, ["-H", "127.0.0.1", "-p", String(port)], { stdio: "ignore" });
  await waitForPort(port, 30_000);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    stop: async () => {
      // Waited for, unless it already ended (by a signal too, where exitCode stays null).
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await new Promise((r) => child.once("exit", r));
      }
    },
  };
}

export const S3_ENV = { AWS_ACCESS_KEY_ID: "test", AWS_SECRET_ACCESS_KEY: "test", AWS_REGION: "us-east-1" };
Object.assign(process.env, S3_ENV);

export async function createBucket(endpoint: string, bucket: string): Promise<void> {
  const s3 = new S3Client({
    endpoint,
    forcePathStyle: true,
    region: "us-east-1",
    credentials: { accessKeyId: "test", secretAccessKey: "test" },
  });
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  s3.destroy();
}

/** A TCP proxy on loopback that can be taken down and brought back: an S3 endpoint that goes away for a while. */
export class FlakyProxy {
  private server?: Server;
  private sockets = new Set<Socket>();
  port = 0;
  constructor(private readonly target: number) {}

  async up(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = new Socket();
      this.sockets.add(client).add(upstream);
      const drop = () => (
        client.destroy(), upstream.destroy(), this.sockets.delete(client), this.sockets.delete(upstream)
      );
      client.on("error", drop).on("close", drop);
      upstream.on("error", drop).on("close", drop);
      upstream.connect(this.target, "127.0.0.1", () => client.pipe(upstream).pipe(client));
    });
    await new Promise<void>((r) => this.server!.listen(this.port, "127.0.0.1", r));
    this.port = (this.server.address() as { port: number }).port;
  }

  async down(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    await new Promise((r) => this.server?.close(r));
    this.server = undefined;
  }
}

export interface RunnerProcess {
  child: ChildProcess;
  output: () => string;
  exit: Promise<number | null>;
}

/** `ycsb-lab run` as its own process (own process group, so a test can kill it with its java child). */
export function startRunner(args: string[], env: Record<string, string> = {}): RunnerProcess {
  const child = spawn(process.execPath, ["--import", TSX_IMPORT, join(REPO_ROOT, "cli", "main.ts"), "run", ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...S3_ENV, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exit = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  return { child, output: () => out, exit };
}

/** Kill a runner and everything it started (its process group). */
export function killRunner(r: RunnerProcess): void {
  if (r.child.pid && r.child.exitCode === null) {
    try {
      process.kill(-r.child.pid, "SIGKILL");
    } catch {
      /* already gone */
    }
  }
}

export async function waitFor(what: string, timeoutMs: number, check: () => boolean | Promise<boolean>): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
