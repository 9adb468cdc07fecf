import { mkdirSync, rmSync } from "node:fs";
import type { NodeContext } from "../../engines/node-context.js";
import type { EngineRuntime, NodePaths, ServerSpec, StandInRuntime } from "../../engines/runtime.js";
import { runPrepare, type Supervised, startProcess, startService, stopAll, waitForEndpoint } from "./processes.js";

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
    /** What serves instead of the engine in a rehearsal, and its artifact (YCSB_LAB_STAND_IN). */
    private readonly standIn?: { runtime: StandInRuntime; artifact: string },
  ) {}

  get pids(): string {
    return this.processes.map((p) => `${p.spec.name} ${p.pid !== undefined ? `pid ${p.pid}` : "service"}`).join(", ");
  }

  get lastLog(): string | undefined {
    return this.processes.at(-1)?.logFile;
  }

  /** Starts every process in order, each after the endpoints it waits for, and waits until it serves. */
  async start(): Promise<void> {
    this.planned = false;
    this.processes = [];
    const specs = this.standIn
      ? this.standIn.runtime.processes(this.ctx, this.paths, this.standIn.artifact)
      : this.runtime.processes(this.ctx, this.paths);
    for (const spec of specs) await this.startOne(spec);
  }

  private async startOne(spec: ServerSpec): Promise<void> {
    for (const a of spec.after ?? []) {
      this.log(`waiting for ${a.what} (${a.host}:${a.port})`);
      await waitForEndpoint(a.host, a.port, this.timeouts.waitMs);
    }
    let p: Supervised;
    if (spec.kind === "service") p = startService(spec);
    else {
      runPrepare(spec, this.paths.run, this.user);
      p = startProcess(spec, this.paths.run, this.user);
    }
    this.processes.push(p);
    this.log(
      `started ${spec.name} (${spec.kind === "service" ? `systemd unit ${spec.unit}` : `pid ${p.pid}`}), log ${p.logFile}`,
    );
    void p.exited.then((how) => {
      if (!this.planned && this.processes.includes(p))
        for (const l of this.deathListeners) l({ how, logFile: p.logFile });
    });
    for (const l of spec.listens) {
      await waitForEndpoint(l.host, l.port, this.timeouts.startMs, () =>
        p.running() ? undefined : `${spec.name} exited while starting; see ${p.logFile}`,
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
    const dirs = this.standIn
      ? this.standIn.runtime.dataDirectories(this.ctx, this.paths)
      : this.runtime.dataDirectories(this.ctx, this.paths);
    for (const dir of dirs) {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
    }
    return dirs;
  }
}
