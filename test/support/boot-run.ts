import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { CLUSTER_DESCRIPTION_VERSION, type ClusterDescription } from "../../model/cluster-description.js";
import type { Engine } from "../../model/engine.js";
import { ENGINE_VERSIONS } from "../../model/engine.js";
import {
  type InstanceStatus,
  parseInstanceStatus,
  parseReadyMarker,
  type ReadyMarker,
} from "../../model/instance-status.js";
import { buildPlan, type Plan } from "../../model/plan.js";
import type { Preset } from "../../model/presets.js";
import type { ResultDocument } from "../../model/result-document.js";
import { clusterKey, planKey, readyMarkerKey, runPrefix, statusKey, statusLogKey } from "../../model/results-layout.js";
import { SCENARIOS } from "../../model/scenarios.js";

/**
 * One run booted on this machine through the boot command (`ycsb-lab boot`), as an instance's user-data runs it,
 * against a folder store (file://) instead of S3: data nodes and clients are separate processes on their own
 * loopback addresses (the stack's private addresses mapped by YCSB_LAB_ADDRESS_MAP).
 */
export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface BootRunOptions {
  engine: Engine;
  nodes: number;
  clients?: number;
  preset: Preset;
  /** Quickstart's records and operations multiplied by this. @default 0.2 (2,000 records) */
  scale?: number;
  /** This engineer's loopback addresses: node i is `${loopback}.${firstHost + i}`, client j `${loopback}.${firstHost + 50 + j}`. */
  loopback: string;
  firstHost: number;
  /** Environment every data node gets besides the address map and folders (YCSB_LAB_STAND_IN, ...). */
  dataEnv?: Record<string, string>;
}

export interface BootProcess {
  child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export class BootRun {
  readonly runId: string;
  readonly runUrl: string;
  readonly store: string;
  private readonly running: BootProcess[] = [];

  private constructor(
    readonly root: string,
    readonly cluster: ClusterDescription,
    readonly plan: Plan,
    private readonly o: BootRunOptions,
  ) {
    this.runId = cluster.runId;
    this.store = join(root, "store");
    this.runUrl = `file://${this.store}/${runPrefix(this.runId)}`;
  }

  static async create(o: BootRunOptions): Promise<BootRun> {
    const root = await mkdtemp(join(tmpdir(), `ycsb-lab-boot-${o.engine}-`));
    const clients = o.clients ?? 1;
    const plan = buildPlan(SCENARIOS.quickstart, {
      engine: o.engine,
      nodes: o.nodes,
      clients,
      preset: o.preset,
      scale: o.scale ?? 0.2,
    });
    const d = plan.deployment;
    const cluster: ClusterDescription = {
      descriptionVersion: CLUSTER_DESCRIPTION_VERSION,
      runId: `boot-${o.engine}-${Date.now().toString(36)}`,
      scenario: "quickstart",
      engine: o.engine,
      version: ENGINE_VERSIONS[o.engine],
      preset: d.preset,
      loadPreset: d.loadPreset,
      replication: d.replication,
      recordCount: d.recordCount,
      fieldCount: d.fieldCount,
      ...(o.engine === "mongodb" ? { mongoTopology: "sharded" as const } : {}),
      serverSettings: {},
      region: "eu-west-1",
      bucket: "ycsb-lab-test",
      parameterPath: "/ycsb-lab/boot-test/",
      nodes: Array.from({ length: o.nodes }, (_, i) => ({
        index: i,
        address: `10.42.1.${10 + i}`,
        instanceType: d.dataInstanceType,
        memoryGiB: 8,
        vcpus: 2,
      })),
      clients: Array.from({ length: clients }, (_, i) => ({
        index: i,
        address: `10.42.2.${10 + i}`,
        instanceType: d.clientInstanceType,
      })),
      storage: { data: { kind: "ebs", device: "sdf" }, dataDir: "/data" },
      kit: { sha256: "0".repeat(64), version: "test" },
      // Kept after the run: the suites kill an engine after the client is done (a node stops serving at the run's
      // end otherwise, which the OS rehearsals check).
      lifetime: { expiry: "2030-01-01", keepAfterRun: true },
    };
    const run = new BootRun(root, cluster, plan, o);
    await mkdir(join(run.store, runPrefix(run.runId)), { recursive: true });
    await writeFile(join(run.store, clusterKey(run.runId)), JSON.stringify(cluster, null, 2));
    await writeFile(join(run.store, planKey(run.runId)), JSON.stringify(plan, null, 2));
    return run;
  }

  nodeAddress(i: number): string {
    return `${this.o.loopback}.${this.o.firstHost + i}`;
  }

  private addressMap(): string {
    return [
      ...this.cluster.nodes.map((n, i) => `${n.address}=${this.nodeAddress(i)}`),
      ...this.cluster.clients.map((c, i) => `${c.address}=${this.o.loopback}.${this.o.firstHost + 50 + i}`),
    ].join(",");
  }

  home(role: "data" | "client", index: number): string {
    return join(this.root, role === "data" ? `node-${index}` : `client-${index}`);
  }

  /** Starts `ycsb-lab boot` as a process of its own, with the rehearsal's declared swaps. */
  start(role: "data" | "client", index: number, extraEnv: Record<string, string> = {}): BootProcess {
    const home = this.home(role, index);
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      YCSB_LAB_REHEARSAL: "1",
      YCSB_LAB_ADDRESS_MAP: this.addressMap(),
      YCSB_LAB_HOME: home,
      ...(role === "data" ? { YCSB_LAB_FS_ROOT: join(home, "fs"), ...this.o.dataEnv } : {}),
      ...extraEnv,
    };
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        join(REPO_ROOT, "cli", "main.ts"),
        "boot",
        "--role",
        role,
        "--index",
        String(index),
        "--run",
        this.runUrl,
      ],
      {
        cwd: REPO_ROOT,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    child.stdout!.setEncoding("utf8").on("data", (c: string) => (out += c));
    child.stderr!.setEncoding("utf8").on("data", (c: string) => (out += c));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal })),
    );
    const p = { child, output: () => out, exited };
    this.running.push(p);
    return p;
  }

  async status(instance: string): Promise<InstanceStatus | undefined> {
    const file = join(this.store, statusKey(this.runId, instance));
    return existsSync(file) ? parseInstanceStatus(await readFile(file, "utf8")) : undefined;
  }

  async logTail(instance: string): Promise<string | undefined> {
    const file = join(this.store, statusLogKey(this.runId, instance));
    return existsSync(file) ? readFile(file, "utf8") : undefined;
  }

  async marker(): Promise<ReadyMarker | undefined> {
    const file = join(this.store, readyMarkerKey(this.runId));
    return existsSync(file) ? parseReadyMarker(await readFile(file, "utf8"), file) : undefined;
  }

  /** The stages an instance went through, in order, from its own boot log. */
  async stages(role: "data" | "client", index: number): Promise<string[]> {
    const name = role === "data" ? `node-${index}` : `client-${index}`;
    const text = await readFile(join(this.home(role, index), "logs", `${name}.log`), "utf8");
    // A stage line is "<stage>", "<stage>: detail" or "running k/n phase" (runner/boot/reporter.ts); other lines are prose.
    return [
      ...text.matchAll(
        new RegExp(
          `\\[${name}\\] (booting|installed|started|formed|ready|waiting|running|done|failed)(?=: | \\d+/\\d+ |$)`,
          "gm",
        ),
      ),
    ].map((m) => m[1]!);
  }

  /** Every stored result document, by phase directory name ("1-load") and client. */
  async results(): Promise<Map<string, ResultDocument>> {
    const out = new Map<string, ResultDocument>();
    const phases = join(this.store, runPrefix(this.runId), "phases");
    if (!existsSync(phases)) return out;
    for (const phase of (await readdir(phases)).sort()) {
      for (const client of await readdir(join(phases, phase))) {
        const file = join(phases, phase, client, "result.json");
        if (existsSync(file)) out.set(`${phase}/${client}`, JSON.parse(await readFile(file, "utf8")) as ResultDocument);
      }
    }
    return out;
  }

  /** Polls until `check` holds (a status, a marker ...) or the process it depends on ends. */
  async waitFor<T>(
    what: string,
    timeoutMs: number,
    check: () => Promise<T | undefined>,
    watch?: BootProcess,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let ended = false;
    void watch?.exited.then(() => (ended = true));
    for (;;) {
      const value = await check();
      if (value !== undefined) return value;
      if (ended) throw new Error(`${what}: the boot process ended first:\n${watch!.output().slice(-4000)}`);
      if (Date.now() > deadline)
        throw new Error(`${what}: not after ${timeoutMs / 1000} s${watch ? `:\n${watch.output().slice(-4000)}` : ""}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  /** Stops every boot process still running (a data node stops its engine on SIGTERM) and removes the folder. */
  async close(): Promise<void> {
    for (const p of this.running) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGTERM");
    await Promise.race([Promise.all(this.running.map((p) => p.exited)), new Promise((r) => setTimeout(r, 60_000))]);
    for (const p of this.running) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGKILL");
    await rm(this.root, { recursive: true, force: true });
  }
}

/** The pid the boot log gave for an engine process ("started ferretdb (pid 1234)"). */
export function startedPid(output: string, name: string): number {
  const m = new RegExp(`started ${name} \\(pid (\\d+)\\)`).exec(output);
  if (!m) throw new Error(`no "started ${name}" line in:\n${output.slice(-2000)}`);
  return Number(m[1]);
}

/**
 * Every operation of a workload phase came back OK: each group's Return=OK equals its count (a time cap may end a
 * phase before its operationcount), no -FAILED group, and the groups add up to at least one operation.
 */
export function expectAllOk(doc: ResultDocument, groups: string[]): void {
  const ops = doc.result.operations;
  expect(Object.keys(ops).filter((g) => g.endsWith("-FAILED"))).toEqual([]);
  let total = 0;
  for (const g of groups) {
    const count = ops[g]?.count ?? 0;
    expect({ group: g, ok: ops[g]?.returns.OK ?? 0 }).toEqual({ group: g, ok: count });
    total += count;
  }
  expect(total).toBeGreaterThan(0);
  expect(total).toBeLessThanOrEqual(Number(doc.phase.properties.operationcount));
}
