import { mkdirSync, rmSync } from "node:fs";
import type { EngineRuntime, NodePaths, ProcessSpec } from "../../engines/runtime.js";
import type { NodeContext } from "../../engines/node-context.js";
import { runPrepare, startProcess, stopAll, waitForEndpoint, type Supervised } from "./processes.js";

/**
 * A data node's engine as one thing the boot command starts, stops, wipes and watches. A stop the node asked for
 * (a plan's reset) is not a death; any other exit is, and `died` resolves with how it ended.
 */
export class NodeEngine {
  private processes: Supervised[] = [];
  private planned = false;
  private deathListeners: Array<(d: { how: string; logFile: string }) => void> = [];

  constructor(
    private readonly runtime: EngineRuntime,
    private readonly ctx: NodeContext,
    private readonly paths: NodePaths,
    private readonly user: { uid: number; gid: number } | undefined,
    private readonly log: (line: string) => void,
    private readonly timeouts: { startMs: number; waitMs: number },
  ) {}

  get pids(): string {
    return this.processes.map((p) => `${p.spec.name} pid ${p.child.pid}`).join(", ");
  }

  get lastLog(): string | undefined {
    return this.processes.at(-1)?.logFile;
  }

  /** Starts every process in order, each after the endpoints it waits for, and waits until it serves. */
  async start(): Promise<void> {
    this.planned = false;
    this.processes = [];
    for (const spec of this.runtime.processes(this.ctx, this.paths)) await this.startOne(spec);
  }

  private async startOne(spec: ProcessSpec): Promise<void> {
    for (const a of spec.after ?? []) {
      this.log(`waiting for ${a.what} (${a.host}:${a.port})`);
      await waitForEndpoint(a.host, a.port, this.timeouts.waitMs);
    }
    runPrepare(spec, this.paths.run);
    const p = startProcess(spec, this.paths.run, this.user);
    this.processes.push(p);
    this.log(`started ${spec.name} (pid ${p.child.pid}), log ${p.logFile}`);
    void p.exited.then((how) => {
      if (!this.planned && this.processes.includes(p)) for (const l of this.deathListeners) l({ how, logFile: p.logFile });
    });
    for (const l of spec.listens) {
      await waitForEndpoint(l.host, l.port, this.timeouts.startMs, () =>
        p.child.exitCode !== null || p.child.signalCode !== null ? `${spec.name} exited while starting; see ${p.logFile}` : undefined,
      );
    }
  }

  /** Resolves when a process ends without the node having asked it to. */
  died(): Promise<{ how: string; logFile: string }> {
    return new Promise((resolve) => this.deathListeners.push(resolve));
  }

  async stop(graceMs = 30_000): Promise<void> {
    this.planned = true;
    await stopAll(this.processes, graceMs);
  }

  /** Empties the database's folders (the engine must be stopped). */
  wipe(): string[] {
    const dirs = this.runtime.dataDirectories(this.ctx, this.paths);
    for (const dir of dirs) {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
    }
    return dirs;
  }
}
