import { existsSync, lstatSync, mkdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { NodeContext } from "../../engines/node-context.js";
import type { EngineRuntime, NodePaths, ServerSpec, StandInRuntime } from "../../engines/runtime.js";
import { runPrepare, type Supervised, startProcess, startService, stopAll, waitForEndpoint } from "./processes.js";

/**
 * A data node's engine as one thing the boot command starts, stops, wipes and watches, on an instance, in a
 * rehearsal, and on this machine for `ycsb-lab local up` (detached, see runner/local/node-engines.ts). A stop the
 * node asked for (a plan's reset) is not a death; any other exit is, and `died` resolves with how it ended.
 */
export class NodeEngine {
  private processes: Supervised[] = [];
  private planned = false;
  private deathListeners: Array<(d: { how: string; logFile: string }) => void> = [];
  private startListeners: Array<(p: Supervised) => void> = [];

  constructor(
    private readonly runtime: EngineRuntime,
    private readonly ctx: NodeContext,
    private readonly paths: NodePaths,
    private readonly user: { uid: number; gid: number } | undefined,
    private readonly log: (line: string) => void,
    private readonly timeouts: { startMs: number; waitMs: number },
    /** What serves instead of the engine in a rehearsal, and its artifact (YCSB_LAB_STAND_IN). */
    private readonly standIn?: { runtime: StandInRuntime; artifact: string },
    /** Processes outlive this one (`ycsb-lab local up`): see processes.ts StartOptions. */
    private readonly detached = false,
  ) {}

  /** The servers started by the last start, in order. */
  get supervised(): readonly Supervised[] {
    return this.processes;
  }

  /**
   * Lays the node out before its processes start: its folders, the configuration files engines/ renders (none for
   * a stand-in) and its links. Returns the folders, which an instance hands to the engine's user.
   */
  layOut(): string[] {
    const dirs = this.standIn
      ? this.standIn.runtime.directories(this.ctx, this.paths)
      : this.runtime.directories(this.ctx, this.paths);
    for (const dir of dirs) mkdirSync(dir, { recursive: true });
    for (const file of this.standIn ? [] : this.runtime.files(this.ctx, this.paths)) {
      mkdirSync(dirname(file.path), { recursive: true });
      writeFileSync(file.path, file.content);
    }
    for (const link of this.standIn ? [] : (this.runtime.links?.(this.ctx, this.paths) ?? [])) {
      // A restarted boot finds its links in place; anything else there (an empty folder) gives way to the link.
      if (existsSync(link.path) && lstatSync(link.path).isSymbolicLink() && readlinkSync(link.path) === link.target)
        continue;
      rmSync(link.path, { recursive: true, force: true });
      symlinkSync(link.target, link.path);
    }
    return dirs;
  }

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
      p = startProcess(spec, this.paths.run, { user: this.user, detached: this.detached });
    }
    this.processes.push(p);
    for (const l of this.startListeners) l(p);
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

  /** Called as each process is started, before it serves (a local start records its pid at once). */
  onStarted(listener: (p: Supervised) => void): void {
    this.startListeners.push(listener);
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
