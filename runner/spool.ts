import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import type { ResultsStore } from "./results-store.js";
import { type BackoffOptions, backoffDelay, DEFAULT_BACKOFF, isPermanent } from "./retry.js";

/**
 * The local spool: every result is written here before any upload, so nothing is lost when the store is down or
 * the runner restarts. `outbox/<key>` holds what still has to go up; `state.json` the phases already finished.
 */
export interface FinishedPhase {
  name: string;
  /** "ran": YCSB ran (or the action did); "skipped": decided at run time not to run (step-up). */
  outcome: "ran" | "skipped" | "idle";
  /** Throughput this client reached, for step-up decisions. */
  throughputOpsSec?: number;
  reason?: string;
  finishedAt: string;
}

export interface SpoolState {
  runId: string;
  clientIndex: number;
  finished: Record<string, FinishedPhase>;
}

async function writeAtomic(path: string, body: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, body);
  await rename(tmp, path);
}

export class Spool {
  private constructor(
    readonly dir: string,
    private state: SpoolState,
  ) {}

  /** Open (or resume) the spool of one client of one run. */
  static async open(dir: string, runId: string, clientIndex: number): Promise<Spool> {
    await mkdir(join(dir, "outbox"), { recursive: true });
    let state: SpoolState = { runId, clientIndex, finished: {} };
    try {
      const saved = JSON.parse(await readFile(join(dir, "state.json"), "utf8")) as SpoolState;
      if (saved.runId !== runId || saved.clientIndex !== clientIndex) {
        throw new Error(
          `spool ${dir} belongs to run ${saved.runId} client ${saved.clientIndex}, not run ${runId} client ${clientIndex}`,
        );
      }
      state = saved;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
    return new Spool(dir, state);
  }

  finished(index: number): FinishedPhase | undefined {
    return this.state.finished[String(index)];
  }

  allFinished(): Record<string, FinishedPhase> {
    return { ...this.state.finished };
  }

  /** Queue an object for upload (durably, before anything else happens). */
  async stage(key: string, body: string | Uint8Array): Promise<void> {
    await writeAtomic(join(this.dir, "outbox", key), body);
  }

  /** Mark a phase finished; its objects must be staged first. */
  async finish(index: number, f: FinishedPhase): Promise<void> {
    this.state.finished[String(index)] = f;
    await writeAtomic(join(this.dir, "state.json"), JSON.stringify(this.state, null, 2));
  }

  /** Keys still waiting for upload, each phase's result.json after the raw files. */
  async pending(): Promise<string[]> {
    const root = join(this.dir, "outbox");
    const out: string[] = [];
    const walk = async (d: string): Promise<void> => {
      for (const e of await readdir(d, { withFileTypes: true }).catch(() => [])) {
        const p = join(d, e.name);
        if (e.isDirectory()) await walk(p);
        else if (!e.name.includes(".tmp-")) out.push(relative(root, p).split(sep).join("/"));
      }
    };
    await walk(root);
    // A phase's result.json goes last, so a reader that sees it finds the raw files beside it.
    return out.sort(
      (a, b) => Number(a.endsWith("/result.json")) - Number(b.endsWith("/result.json")) || a.localeCompare(b),
    );
  }

  /** Upload one pending object and drop it from the outbox. */
  async send(store: ResultsStore, key: string): Promise<void> {
    const path = join(this.dir, "outbox", key);
    const body = await readFile(path);
    await store.put(key, body, key.endsWith(".json") ? "application/json" : "text/plain");
    await writeAtomic(join(this.dir, "sent", key), body);
    await rm(path, { force: true });
  }
}

/**
 * Uploads the spool's outbox in the background, retrying with exponential backoff while the store is down.
 * `flush` waits until the outbox is empty.
 */
export class Uploader {
  private running?: Promise<void>;
  private wake?: () => void;
  private stopped = false;
  failures = 0;
  lastError?: string;
  /** Set when the store refused for good (runner/retry.ts isPermanent): uploads stop and flush throws it. */
  permanentError?: Error;

  constructor(
    private readonly spool: Spool,
    private readonly store: ResultsStore,
    private readonly backoff: BackoffOptions = DEFAULT_BACKOFF,
    private readonly log: (msg: string) => void = () => {},
  ) {}

  /** Ask for an upload pass now (after staging a phase's objects). */
  kick(): void {
    if (this.wake) this.wake();
    else if (!this.running) this.running = this.loop().finally(() => (this.running = undefined));
  }

  private async loop(): Promise<void> {
    let attempt = 0;
    while (!this.stopped) {
      const keys = await this.spool.pending();
      if (keys.length === 0) return;
      let progressed = false;
      try {
        for (const key of keys) {
          await this.spool.send(this.store, key);
          progressed = true;
        }
        attempt = 0;
      } catch (err) {
        this.failures++;
        this.lastError = (err as Error).message;
        if (isPermanent(err)) {
          this.permanentError = err as Error;
          this.log(
            `upload to ${this.store.uri} refused: ${this.lastError}; ${keys.length} object(s) kept in the spool`,
          );
          return;
        }
        if (progressed) attempt = 0;
        const delay = backoffDelay(attempt++, this.backoff);
        this.log(
          `upload to ${this.store.uri} failed (${this.lastError}); ${keys.length} object(s) waiting, retry in ${delay} ms`,
        );
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, delay);
          this.wake = () => {
            clearTimeout(t);
            resolve();
          };
        });
        this.wake = undefined;
      }
    }
  }

  /** Wait until everything staged so far is uploaded, or the deadline passes (then throw, naming what is left). */
  async flush(deadlineMs: number): Promise<void> {
    const until = Date.now() + deadlineMs;
    for (;;) {
      this.kick();
      const remaining = Math.max(0, until - Date.now());
      await Promise.race([this.running, new Promise((r) => setTimeout(r, Math.min(remaining, 1000)))]);
      const left = await this.spool.pending();
      if (left.length === 0) return;
      if (this.permanentError) throw this.permanentError;
      if (Date.now() > until) {
        throw new Error(
          `${left.length} result object(s) still in the spool ${this.spool.dir} after ${deadlineMs} ms (last error: ${this.lastError ?? "none"}); run again to resume the upload`,
        );
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  stop(): void {
    this.stopped = true;
    this.wake?.();
  }
}
