import { spawnSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import type { NodeContext } from "../../engines/node-context.js";
import { type EngineRuntime, type NodePaths, nodeContextOf, type StandInRuntime } from "../../engines/runtime.js";
import { engineRuntime } from "../../engines/runtimes.js";
import type { ClusterDescription } from "../../model/cluster-description.js";
import type { NodeCommand, ReadyMarker, RunEnd } from "../../model/instance-status.js";
import { installArtifacts, installOsPackages } from "./engine-install.js";
import { type BootEnvironment, EXIT_PERMANENT, hostPath } from "./environment.js";
import { formationFor } from "./formation/index.js";
import { NodeEngine } from "./node-engine.js";
import { applyOsTuning, mountVolumes } from "./os-setup.js";
import type { Reporter } from "./reporter.js";
import type { RunObjects } from "./run-objects.js";

export interface DataNodeBoot {
  env: BootEnvironment;
  objects: RunObjects;
  reporter: Reporter;
  index: number;
  /** How long the leader waits for the cluster to form, and the others for its marker. @default 1 h */
  formTimeoutMs?: number;
  /** How long one engine process may take to open its ports. @default 15 min */
  startTimeoutMs?: number;
  /** How often a ready node looks for a command (a plan's reset). @default 3 s */
  commandPollMs?: number;
}

/** The system user engines run as on an instance (user-data creates it with the OS packages); none in a rehearsal. */
export const ENGINE_USER = "ycsb-lab";

function engineUser(env: BootEnvironment, name: string): { uid: number; gid: number } | undefined {
  // A boot run as a process on a development machine (fsRoot) runs its engine as the current user.
  if (env.fsRoot || process.getuid?.() !== 0) return undefined;
  const uid = spawnSync("id", ["-u", name], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", name], { encoding: "utf8" });
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const permanent = (message: string) => Object.assign(new Error(message), { permanent: true });

/** The stand-in a rehearsal asked for (YCSB_LAB_STAND_IN), when the engine has one and this run suits it. */
export function standInFor(runtime: EngineRuntime, ctx: NodeContext): StandInRuntime {
  const standIn = runtime.standIn;
  if (!standIn)
    throw permanent(
      `YCSB_LAB_STAND_IN: ${runtime.engine} has no stand-in; rehearse it with its own artifacts (YCSB_LAB_ENGINE_ARTIFACTS)`,
    );
  const refusal = standIn.refusal(ctx);
  if (refusal) throw permanent(`${standIn.label}: ${refusal}`);
  return standIn;
}

/** Commands this node carried out, kept across restarts of the boot command so none runs twice. */
class CommandLedger {
  private readonly file: string;
  private readonly done: Set<number>;
  constructor(home: string) {
    this.file = join(home, "commands-done.json");
    this.done = new Set(existsSync(this.file) ? (JSON.parse(readFileSync(this.file, "utf8")) as number[]) : []);
  }
  has(id: number): boolean {
    return this.done.has(id);
  }
  add(id: number): void {
    this.done.add(id);
    writeFileSync(this.file, JSON.stringify([...this.done]));
  }
}

/**
 * A data node's whole boot after its OS packages: volumes and OS tuning, the engine installed and configured as
 * engines/ renders it, its processes started and supervised, the cluster formed by the leader (node 0), readiness
 * published. Then it serves: it carries out the resets client 0 asks for (wipe, restart, drop caches; the leader
 * forms the cluster again), and watches its engine: a process that dies on its own is reported (stage failed, log
 * tail) and ends the boot with a code systemd does not restart, so a run measures a dead node as such.
 */
export async function bootDataNode(b: DataNodeBoot): Promise<number> {
  const { env, objects, reporter } = b;
  const cluster = await objects.cluster();
  if (!cluster.nodes[b.index])
    throw Object.assign(new Error(`--index ${b.index}: the cluster has nodes 0..${cluster.nodes.length - 1}`), {
      permanent: true,
    });
  const paths: NodePaths = {
    install: join(env.home, "engine"),
    conf: join(env.home, "conf"),
    data: hostPath(env, cluster.storage.dataDir),
    log: hostPath(env, cluster.storage.logDir ?? cluster.storage.dataDir),
    run: join(env.home, "run"),
  };
  const notes: string[] = [];
  if (!env.fsRoot) notes.push(...mountVolumes(cluster.storage, env), ...applyOsTuning(cluster.engine, cluster.version));
  const runtime = engineRuntime(cluster.engine, {
    ...(env.maxHeapMb ? { maxHeapMb: env.maxHeapMb } : {}),
    fastGossip: env.rehearsal,
    sharedHost: env.rehearsal,
  });
  const ctx = nodeContextOf(cluster, b.index, paths);
  const standIn = env.standInArtifacts ? standInFor(runtime, ctx) : undefined;
  if (!env.fsRoot) notes.push(...installOsPackages(runtime.osPackages ?? []));
  if (standIn) notes.push(`${env.standInArtifacts} serves instead of ${cluster.engine} ${cluster.version} (rehearsal)`);
  else
    notes.push(
      ...(await installArtifacts(runtime.artifacts(cluster.version), paths.install, env.engineArtifacts, {
        store: objects.store,
        runId: objects.runId,
        leader: b.index === 0,
      })),
    );
  const user = engineUser(env, runtime.runsAs ?? ENGINE_USER);
  const formTimeoutMs = b.formTimeoutMs ?? 3_600_000;
  const engine = new NodeEngine(
    runtime,
    ctx,
    paths,
    user,
    (l) => reporter.log(l),
    { startMs: b.startTimeoutMs ?? 15 * 60_000, waitMs: formTimeoutMs },
    standIn ? { runtime: standIn, artifact: env.standInArtifacts! } : undefined,
  );
  const dirs = engine.layOut();
  const own = () => {
    if (user)
      spawnSync("chown", ["-R", `${user.uid}:${user.gid}`, paths.conf, paths.run, paths.data, paths.log, ...dirs]);
  };
  own();
  await reporter.stage(
    "installed",
    `${standIn ? standIn.label : `${cluster.engine} ${cluster.version} as ${runtime.roles(ctx).join(", ")}`}; ${notes.join("; ")}`,
  );

  const stop = () => void engine.stop().then(() => process.exit(0));
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  // Any death from here on, unless the node itself stopped the engine, ends the boot as failed.
  const death = engine.died().then((d) => ({ kind: "death" as const, ...d }));
  const orDeath = async <T>(work: Promise<T>): Promise<T> => {
    const r = await Promise.race([work.then((value) => ({ kind: "work" as const, value })), death]);
    if (r.kind === "death")
      throw Object.assign(new Error(`${r.how} before the cluster was ready`), { engineLog: r.logFile });
    return r.value;
  };
  const serving = new AbortController();
  try {
    await orDeath(engine.start());
    await reporter.stage("started", engine.pids);
    await orDeath(formOrAwait(b, cluster, ctx, formTimeoutMs, standIn?.label));
    await reporter.stage("ready", `serving; the cluster of ${cluster.nodes.length} node(s) is formed`);

    const ledger = new CommandLedger(env.home);
    for (;;) {
      const next = await Promise.race([
        nextCommand(objects, ledger, b.commandPollMs ?? 3000, serving.signal, cluster.lifetime.keepAfterRun === true),
        death,
      ]);
      if (next.kind === "death") {
        await reporter.failed(`${next.how} while serving the run`, { title: "engine log", file: next.logFile });
        await engine.stop(10_000);
        return EXIT_PERMANENT;
      }
      if (next.kind === "end") {
        // The run is over (complete, or ended early by a client): nothing more to serve; the machine powers off.
        await engine.stop();
        await reporter.stage(
          "done",
          `the run ended ${next.end.complete ? "complete" : `early (${next.end.reason ?? "no reason given"})`} at ${next.end.at}: engine stopped`,
        );
        return 0;
      }
      const command = next.command;
      await reporter.stage(
        "resetting",
        `${command.phase}: ${[command.wipeData ? "wipe data" : "", command.restartServer ? "restart" : "", command.dropCaches ? "drop caches" : ""].filter(Boolean).join(", ")}`,
      );
      const done: string[] = [];
      let ok = true;
      try {
        done.push(...(await orDeath(carryOut(command, engine, env, own))));
        if (command.wipeData || command.restartServer) {
          await orDeath(formOrAwait(b, cluster, ctx, formTimeoutMs, standIn?.label, command.id));
          done.push(b.index === 0 ? "cluster formed again, schema prepared" : "the leader formed the cluster again");
        }
      } catch (err) {
        if ((err as { engineLog?: string }).engineLog) throw err;
        ok = false;
        done.push((err as Error).message);
      }
      ledger.add(command.id);
      await objects.putNodeAck({ id: command.id, node: b.index, ok, done, at: new Date().toISOString() });
      await reporter.stage(ok ? "ready" : "failed", `${command.phase}: ${done.join("; ")}`);
      if (!ok) {
        await engine.stop(10_000);
        return EXIT_PERMANENT;
      }
    }
  } catch (err) {
    const engineLog = (err as { engineLog?: string }).engineLog ?? engine.lastLog;
    await reporter.failed((err as Error).message, engineLog ? { title: "engine log", file: engineLog } : undefined);
    await engine.stop(10_000);
    return EXIT_PERMANENT;
  } finally {
    // The command poll would keep the process alive after the boot has ended (failed, exit 78).
    serving.abort();
    process.off("SIGTERM", stop);
    process.off("SIGINT", stop);
  }
}

/**
 * The leader forms the cluster and writes the marker; the others wait for the marker (after a reset: the one the
 * leader wrote after carrying out that command, whatever the clocks say).
 */
async function formOrAwait(
  b: DataNodeBoot,
  cluster: ClusterDescription,
  ctx: ReturnType<typeof nodeContextOf>,
  timeoutMs: number,
  standIn?: string,
  afterCommand?: number,
): Promise<void> {
  if (b.index === 0) {
    const formed = await formationFor(cluster.engine)({
      ctx,
      log: (l) => b.reporter.log(l),
      timeoutMs,
      ...(standIn ? { standIn } : {}),
    });
    // A stand-in is named in the marker whatever the formation says: every result measured on it carries the name.
    const marker: ReadyMarker = {
      ...formed,
      ...(standIn ? { standIn } : {}),
      formedAt: new Date().toISOString(),
      ...(afterCommand !== undefined ? { afterCommand } : {}),
    };
    await b.objects.putReadyMarker(marker);
    await b.reporter.stage("formed", marker.steps.join("; "));
    return;
  }
  const deadline = Date.now() + timeoutMs;
  for (let poll = 0; ; poll++) {
    const marker = await b.objects.readyMarker();
    if (marker && (afterCommand === undefined || marker.afterCommand === afterCommand)) return;
    if (poll % 5 === 0) {
      // The run's end ends the wait (the clients end it when the leader fails): this node has nothing to join.
      const end = await b.objects.runEnd().catch(() => undefined);
      if (end) throw permanent(`the run ended before the cluster was ready: ${end.reason ?? "complete"}`);
    }
    if (Date.now() > deadline)
      throw new Error(`no readiness marker from the leader after ${Math.round(timeoutMs / 1000)} s`);
    await sleep(3000);
  }
}

type Next = { kind: "command"; command: NodeCommand } | { kind: "end"; end: RunEnd };

/** The next command client 0 gives, or the run's end (after which the node stops serving, unless the stack keeps it). */
async function nextCommand(
  objects: RunObjects,
  ledger: CommandLedger,
  pollMs: number,
  until: AbortSignal,
  keepAfterRun: boolean,
): Promise<Next> {
  while (!until.aborted) {
    const command = await objects.nodeCommand().catch(() => undefined);
    if (command && !ledger.has(command.id)) return { kind: "command", command };
    const end = keepAfterRun ? undefined : await objects.runEnd().catch(() => undefined);
    if (end) return { kind: "end", end };
    await sleep(pollMs);
  }
  // Serving is over: this poll never answers (the boot already has its outcome).
  return new Promise(() => {});
}

/** A reset on this node: stop, wipe, drop caches, start (each only when asked). */
async function carryOut(c: NodeCommand, engine: NodeEngine, env: BootEnvironment, own: () => void): Promise<string[]> {
  const done: string[] = [];
  if (c.wipeData || c.restartServer) {
    await engine.stop();
    done.push("engine stopped");
  }
  if (c.wipeData) {
    done.push(`data wiped (${engine.wipe().length} folder(s))`);
    own();
  }
  if (c.dropCaches) {
    if (env.fsRoot) done.push("page cache not dropped: a boot on a development machine shares its cache");
    else {
      spawnSync("sync");
      try {
        writeFileSync("/proc/sys/vm/drop_caches", "3\n");
        done.push("page cache dropped");
      } catch (err) {
        done.push(`page cache not dropped: ${(err as Error).message}`);
      }
    }
  }
  if (c.wipeData || c.restartServer) {
    await engine.start();
    done.push(`engine started again (${engine.pids})`);
  }
  return done;
}
