import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { nodeContextOf, type NodePaths } from "../../engines/runtime.js";
import { engineRuntime } from "../../engines/runtimes.js";
import type { ReadyMarker } from "../../model/instance-status.js";
import { installArtifacts } from "./engine-install.js";
import { EXIT_PERMANENT, hostPath, type BootEnvironment } from "./environment.js";
import { formationFor } from "./formation/index.js";
import { applyOsTuning, mountVolumes } from "./os-setup.js";
import { runPrepare, startProcess, stopAll, waitForEndpoint, type Supervised } from "./processes.js";
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
}

/** The system user engines run as on an instance (user-data creates it with the OS packages); none in a rehearsal. */
export const ENGINE_USER = "ycsb-lab";

function engineUser(env: BootEnvironment): { uid: number; gid: number } | undefined {
  if (env.rehearsal || process.getuid?.() !== 0) return undefined;
  const uid = spawnSync("id", ["-u", ENGINE_USER], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", ENGINE_USER], { encoding: "utf8" });
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A data node's whole boot after its OS packages: volumes and OS tuning, the engine installed and configured as
 * engines/ renders it, its processes started and supervised, the cluster formed by the leader (node 0), readiness
 * published. Then it watches its engine: a process that dies is reported (stage failed, log tail) and ends the
 * boot with a code systemd does not restart, so a run measures a dead node as such instead of a silent restart.
 */
export async function bootDataNode(b: DataNodeBoot): Promise<number> {
  const { env, objects, reporter } = b;
  const cluster = await objects.cluster();
  if (!cluster.nodes[b.index]) throw Object.assign(new Error(`--index ${b.index}: the cluster has nodes 0..${cluster.nodes.length - 1}`), { permanent: true });
  const paths: NodePaths = {
    install: join(env.home, "engine"),
    conf: join(env.home, "conf"),
    data: hostPath(env, cluster.storage.dataDir),
    log: hostPath(env, cluster.storage.logDir ?? cluster.storage.dataDir),
    run: join(env.home, "run"),
  };
  const notes: string[] = [];
  if (!env.rehearsal) notes.push(...mountVolumes(cluster.storage), ...applyOsTuning(cluster.engine));
  const runtime = engineRuntime(cluster.engine, { ...(env.maxHeapMb ? { maxHeapMb: env.maxHeapMb } : {}), fastGossip: env.rehearsal });
  const ctx = nodeContextOf(cluster, b.index, paths);
  notes.push(...(await installArtifacts(runtime.artifacts(cluster.version), paths.install, env.engineArtifacts)));
  const user = engineUser(env);
  const dirs = runtime.directories(ctx, paths);
  for (const dir of dirs) mkdirSync(dir, { recursive: true });
  for (const file of runtime.files(ctx, paths)) {
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, file.content);
  }
  if (user) spawnSync("chown", ["-R", `${user.uid}:${user.gid}`, paths.conf, paths.run, paths.data, paths.log, ...dirs]);
  await reporter.stage("installed", `${cluster.engine} ${cluster.version} as ${runtime.roles(ctx).join(", ")}; ${notes.join("; ")}`);

  const processes: Supervised[] = [];
  const stop = () => void stopAll(processes).then(() => process.exit(0));
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  try {
    const startMs = b.startTimeoutMs ?? 15 * 60_000;
    for (const spec of runtime.processes(ctx, paths)) {
      for (const a of spec.after ?? []) {
        reporter.log(`waiting for ${a.what} (${a.host}:${a.port})`);
        await waitForEndpoint(a.host, a.port, b.formTimeoutMs ?? 3_600_000);
      }
      runPrepare(spec, paths.run);
      const p = startProcess(spec, paths.run, user);
      processes.push(p);
      reporter.log(`started ${spec.name} (pid ${p.child.pid}), log ${p.logFile}`);
      for (const l of spec.listens) {
        await waitForEndpoint(l.host, l.port, startMs, () => (p.child.exitCode !== null || p.child.signalCode !== null ? `${spec.name} exited while starting` : undefined));
      }
    }
    await reporter.stage("started", processes.map((p) => `${p.spec.name} pid ${p.child.pid}`).join(", "));

    const death = Promise.race(processes.map((p) => p.exited.then((how) => ({ p, how }))));
    const failOnDeath = death.then(({ p, how }) => {
      throw Object.assign(new Error(`${how} before the cluster was ready`), { engineLog: p.logFile });
    });
    const formTimeoutMs = b.formTimeoutMs ?? 3_600_000;
    if (b.index === 0) {
      const formed = await Promise.race([formationFor(cluster.engine)({ ctx, cluster, log: (l) => reporter.log(l), timeoutMs: formTimeoutMs }), failOnDeath]);
      const marker: ReadyMarker = { ...formed, formedAt: new Date().toISOString() };
      await objects.putReadyMarker(marker);
      await reporter.stage("formed", marker.steps.join("; "));
    } else {
      const deadline = Date.now() + formTimeoutMs;
      const waitMarker = (async () => {
        while (!(await objects.readyMarker())) {
          if (Date.now() > deadline) throw new Error(`no readiness marker from the leader after ${Math.round(formTimeoutMs / 1000)} s`);
          await sleep(3000);
        }
      })();
      await Promise.race([waitMarker, failOnDeath]);
    }
    await reporter.stage("ready", `serving; the cluster of ${cluster.nodes.length} node(s) is formed`);
    failOnDeath.catch(() => {});
    const { p, how } = await death;
    await reporter.failed(`${how} while serving the run`, { title: `${p.spec.name} log`, file: p.logFile });
    await stopAll(processes, 10_000);
    return EXIT_PERMANENT;
  } catch (err) {
    const engineLog = (err as { engineLog?: string }).engineLog ?? processes.at(-1)?.logFile;
    await reporter.failed((err as Error).message, engineLog ? { title: "engine log", file: engineLog } : undefined);
    await stopAll(processes, 10_000);
    return EXIT_PERMANENT;
  } finally {
    process.off("SIGTERM", stop);
    process.off("SIGINT", stop);
  }
}
