import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { isEngine, type Engine } from "../model/engine.js";
import { instanceName, type InstanceStatus } from "../model/instance-status.js";
import type { Plan } from "../model/plan.js";
import { planKey } from "../model/results-layout.js";
import { RunObjects } from "../runner/boot/run-objects.js";
import { REPO_ROOT, runSetupScript } from "../runner/java-artifacts.js";
import { stackConfigFromFiles } from "../stacks/config-file.js";
import { stackKit } from "../stacks/kit.js";
import { stackEngine } from "../stacks/settings.js";
import type { PolicyDocument } from "../infra/policies.js";
import { localArtifacts } from "./artifacts.js";
import { createBucketWith, startEmulator, type Credentials, type Emulator } from "./emulator.js";
import { evaluateStack, type EvaluatedStack } from "./evaluate.js";
import { auditCalls, type IamAudit } from "./iam-audit.js";
import { probeRoles, type IamProbe } from "./iam-probes.js";
import { instanceEnvironment, loopbackUsable, RehearsedInstance } from "./instances.js";
import { startRecordingProxy } from "./recording-proxy.js";
import { startResultsService, type ResultsService } from "./results-service.js";

export interface RehearseOptions {
  stack: string;
  engine?: Engine;
  preset?: string;
  nodes?: number;
  clients?: number;
  scale?: number;
  /** Fewer repeats than the study made (a cheaper trial of the same cloud path). */
  repeats?: number;
  /** The run id (a fresh one per rehearsal by default, so rehearsals never share barriers or results). */
  runId?: string;
  /** Where instances keep their folders. @default .local/rehearsals/<runId> */
  root?: string;
  /** Loopback /24 the stack's addresses map to. @default 127.0.12 */
  loopbackPrefix?: string;
  maxHeapMb?: number;
  /** PostgreSQL for the results service; default its own embedded store under the rehearsal's folder. */
  databaseUrl?: string;
  /** Keep the rehearsal's folders (instance homes, engine data, logs) after a successful run. @default false */
  keepFiles?: boolean;
  /** Give up after this long. @default 40 min */
  timeoutMs?: number;
  log?: (line: string) => void;
  /** An emulator already running (the dashboard rehearsal shares one): used, never stopped here. */
  emulator?: Emulator;
  /**
   * Starts the service the run is imported into, instead of the rehearsal's own `ycsb-lab serve` (the dashboard
   * rehearsal boots the DashboardService here): given the bucket, the recording proxy, and `track` to put the
   * service's own calls under the IAM audit.
   */
  resultsService?: (ctx: ResultsServiceContext) => Promise<ResultsService>;
  /** Called on every new stage of an instance: drills (kill a client or an engine mid-phase) hook in here. */
  onStatus?: (status: InstanceStatus, rehearsal: Rehearsal) => void | Promise<void>;
}

export interface ResultsServiceContext {
  emulator: Emulator;
  /** The recording proxy in front of the emulator: every call through it is judged by the audit. */
  endpoint: string;
  bucket: string;
  region: string;
  account: string;
  awsCliDir: string;
  /** Calls signed with these credentials are audited against `policy`. */
  track(credentials: Credentials, role: string, policy: PolicyDocument): void;
  log(line: string): void;
}

export interface PhaseOutcome {
  index: number;
  name: string;
  kind: string;
  clientsStored: number;
  clients: number;
  verdict: string;
  throughputOpsSec: number;
  reasons: string[];
}

export interface RehearsalResult {
  runId: string;
  ok: boolean;
  /** Why not ok, one line each. */
  problems: string[];
  phases: PhaseOutcome[];
  statuses: InstanceStatus[];
  iam: IamAudit & { probes: IamProbe[] };
  dashboardUrl: string;
  seconds: number;
  /** The instances, emulator and results service keep running until `stop()` (so the dashboard can be browsed). */
  stop: () => Promise<void>;
  /** For drills and checks: the emulator (admin access) and the bucket. */
  internals?: { emulator: Emulator; bucket: string };
}

/** A running rehearsal, as the onStatus hook sees it. */
export interface Rehearsal {
  runId: string;
  instances: RehearsedInstance[];
  emulator: Emulator;
  instance(name: string): RehearsedInstance;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function freshRunId(stack: string): string {
  // Tags and IAM names carry the run id: [a-z0-9-], at most 41 characters (infra/tags.ts).
  return `${stack.toLowerCase().replace(/[^a-z0-9-]/g, "-").slice(0, 26)}-${Date.now().toString(36)}`;
}

/** What the API stored of each measured phase of the plan, against what every client should have stored. */
async function storedPhases(service: ResultsService, runId: string, plan: Plan): Promise<PhaseOutcome[]> {
  type Run = { phases: Array<{ phase: { name: string; index: number; kind: string; clients: number }; verdict: string; aggregate: { clients: number; expectedClients: number; throughputOpsSec: number } }> };
  const run = await service.get<Run>(`/api/v1/runs/${encodeURIComponent(runId)}`).catch(() => undefined);
  return plan.phases
    .filter((p) => p.kind === "load" || p.kind === "warmup" || p.kind === "workload")
    .map((p) => {
      const got = run?.phases.find((x) => x.phase.index === p.index);
      return {
        index: p.index,
        name: p.name,
        kind: p.kind,
        clientsStored: got?.aggregate.clients ?? 0,
        clients: plan.deployment.clients,
        verdict: got?.verdict ?? "not stored",
        throughputOpsSec: got?.aggregate.throughputOpsSec ?? 0,
        reasons: [],
      };
    });
}

/**
 * `ycsb-lab rehearse`: the cloud path of a stack on this machine (DESIGN.md "One boot path, rehearsed"). The stack is
 * evaluated under Pulumi mocks; moto stands for S3 and IAM with the stack's bucket, uploads and role policies; each
 * instance runs its user-data exactly as rendered (data nodes on 127.0.x.N, clients as processes), restarted as
 * systemd would; the results service imports the run from the bucket. Swapped, and said so: the engine's download
 * (local artifacts), addresses (loopback), disks (folders), OS packages (this machine's).
 */
export async function rehearse(o: RehearseOptions): Promise<RehearsalResult> {
  const started = Date.now();
  const log = o.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const runId = o.runId ?? freshRunId(o.stack);
  const overrides: Record<string, string> = { "ycsb-lab:runId": runId };
  if (o.engine) overrides["ycsb-lab:engine"] = o.engine;
  if (o.preset) overrides["ycsb-lab:preset"] = o.preset;
  if (o.nodes !== undefined) overrides["ycsb-lab:nodes"] = String(o.nodes);
  if (o.clients !== undefined) overrides["ycsb-lab:clients"] = String(o.clients);
  if (o.scale !== undefined) overrides["ycsb-lab:scale"] = String(o.scale);
  if (o.repeats !== undefined) overrides["ycsb-lab:repeats"] = String(o.repeats);
  const get = stackConfigFromFiles(o.stack, overrides);
  const engine = stackEngine(get);
  if (!isEngine(engine)) throw new Error(`rehearse: unknown engine ${engine}`);
  const root = o.root ?? join(REPO_ROOT, ".local", "rehearsals", runId);
  mkdirSync(root, { recursive: true });
  const prefix = o.loopbackPrefix ?? "127.0.12";

  log(`rehearse ${o.stack}: run ${runId}, ${engine}; folder ${root}`);
  const kit = await stackKit(get, engine);
  log(`kit ${kit.sha256.slice(0, 12)} (${kit.path})`);
  const stack: EvaluatedStack = await evaluateStack(o.stack, get, kit);
  const plan = JSON.parse(stack.uploads.find((u) => u.key === planKey(runId))?.content ?? "null") as Plan | null;
  if (!plan) throw new Error(`rehearse: the stack uploads no ${planKey(runId)}`);
  log(`stack evaluated under mocks: ${stack.instances.filter((i) => i.role === "data").length} data node(s), ${stack.instances.filter((i) => i.role === "client").length} client(s), bucket ${stack.bucket}, ${stack.uploads.length} upload(s)`);

  const addresses = new Map<string, string>();
  for (const i of stack.instances) addresses.set(i.privateIp, `${prefix}.${i.role === "data" ? i.index + 1 : i.index + 101}`);
  for (const a of addresses.values()) if (!loopbackUsable(a)) throw new Error(`rehearse: cannot bind ${a} here (Linux routes 127.0.0.0/8 to loopback; pick --loopback)`);
  // moto and the AWS CLI from PyPI (each in its own place; cached after the first rehearsal).
  const [awsCliDir, artifacts] = await Promise.all([runSetupScript("setup-awscli.sh"), localArtifacts(engine), runSetupScript("setup-moto.sh")]);
  log(`swap: ${artifacts.note}`);
  log(`swap: addresses ${[...addresses].map(([a, b]) => `${a} -> ${b}`).join(", ")}`);
  if (!existsSync(join(REPO_ROOT, "prisma", "generated"))) {
    // The results service needs the Prisma client a fresh checkout has not generated yet (npm start and npm test do it).
    const gen = spawnSync("npm", ["run", "--silent", "db:generate"], { cwd: REPO_ROOT, encoding: "utf8" });
    if (gen.status !== 0) throw new Error(`rehearse: npm run db:generate failed: ${gen.stderr.trim().split("\n").slice(-5).join(" ")}`);
  }

  const emulator = o.emulator ?? (await startEmulator(stack.region, log));
  // Every tracked principal's S3 calls are answered as S3 answers them under its policy (rehearse/s3-semantics.ts).
  const roles = new Map<string, { role: string; policy: PolicyDocument }>();
  const proxy = await startRecordingProxy(emulator.endpoint, { policyOf: (key) => roles.get(key)?.policy, scope: { region: stack.region, account: stack.account } });
  const instances: RehearsedInstance[] = [];
  let service: ResultsService | undefined;
  let removeFiles = false;
  const stopAll = async () => {
    await Promise.all(instances.map((i) => i.stop()));
    await service?.stop();
    await proxy.stop();
    if (!o.emulator) await emulator.stop();
    // A good rehearsal leaves nothing behind; a failed one keeps every log for inspection.
    if (removeFiles) rmSync(root, { recursive: true, force: true });
  };
  try {
    await createBucketWith(emulator, stack.bucket, stack.uploads);
    const credentialsOf = new Map<string, Credentials>();
    for (const [role, policy] of stack.policies) {
      const c = await emulator.userFor(role, policy);
      credentialsOf.set(role, c);
      roles.set(c.accessKeyId, { role, policy });
    }
    // The results service reads the bucket with a read-only user, as a team's service would.
    const reader = await emulator.userFor("results-service-reader", {
      Version: "2012-10-17",
      Statement: [{ Sid: "ReadResults", Effect: "Allow", Action: ["s3:ListBucket", "s3:GetObject"], Resource: [`arn:aws:s3:::${stack.bucket}`, `arn:aws:s3:::${stack.bucket}/*`] }],
    });
    log(`S3 emulator: bucket ${stack.bucket} with the stack's uploads; ${credentialsOf.size} role(s) as IAM users with the stack's policies`);
    const probes = await probeRoles(emulator, {
      bucket: stack.bucket,
      runId,
      region: stack.region,
      account: stack.account,
      roles: [...stack.policies].map(([role, policy]) => ({ role, policy, credentials: credentialsOf.get(role)! })),
    });
    log(`IAM probes: ${probes.filter((p) => p.ok).length} of ${probes.length} as expected (another run's prefix and parameters denied, the run's own parameters readable)`);
    service = o.resultsService
      ? await o.resultsService({
          emulator,
          endpoint: proxy.endpoint,
          bucket: stack.bucket,
          region: stack.region,
          account: stack.account,
          awsCliDir,
          track: (c, role, policy) => roles.set(c.accessKeyId, { role, policy }),
          log,
        })
      : await startResultsService({ dir: root, endpoint: proxy.endpoint, region: stack.region, bucket: stack.bucket, credentials: reader, ...(o.databaseUrl ? { databaseUrl: o.databaseUrl } : {}) });
    log(`results service on ${service.url} (importing from the bucket every 5 s)`);

    const addressMap = [...addresses].map(([a, b]) => `${a}=${b}`).join(",");
    for (const spec of stack.instances) {
      const credentials = credentialsOf.get(spec.roleName);
      if (!credentials) throw new Error(`rehearse: no policy for role ${spec.roleName} of ${spec.name}`);
      const home = join(root, instanceName(spec.role, spec.index));
      const env = instanceEnvironment({
        credentials,
        endpoint: proxy.endpoint,
        region: stack.region,
        addressMap,
        awsCliDir,
        maxHeapMb: o.maxHeapMb ?? 768,
        ...(spec.role === "data" ? { fsRoot: join(home, "fs"), ...(artifacts.engineArtifacts ? { engineArtifacts: artifacts.engineArtifacts } : {}), ...(artifacts.standIn ? { standIn: artifacts.standIn } : {}) } : {}),
      });
      instances.push(new RehearsedInstance(spec, root, env));
    }
    const rehearsal: Rehearsal = {
      runId,
      instances,
      emulator,
      instance: (name) => {
        const found = instances.find((i) => i.name === name);
        if (!found) throw new Error(`no instance ${name}`);
        return found;
      },
    };
    for (const i of instances) {
      i.boot();
      log(`${i.name}: user-data started (${i.spec.privateIp} -> ${addresses.get(i.spec.privateIp)}), console ${i.consoleLog}`);
    }

    const objects = await RunObjects.open(`s3://${stack.bucket}/runs/${runId}/`, undefined, { endpoint: emulator.endpoint, region: stack.region, credentials: emulator.admin });
    const seen = new Map<string, string>();
    const deadline = started + (o.timeoutMs ?? 40 * 60_000);
    const clients = instances.filter((i) => i.spec.role === "client");
    let statuses = new Map<string, InstanceStatus>();
    for (;;) {
      statuses = await objects.statuses().catch(() => statuses);
      for (const s of [...statuses.values()].sort((a, b) => a.at.localeCompare(b.at))) {
        const key = `${s.stage}|${s.phase?.position ?? ""}|${s.at}`;
        if (seen.get(s.instance) === key) continue;
        seen.set(s.instance, key);
        const where = s.phase ? ` ${s.phase.position}/${s.phase.of} ${s.phase.name}` : "";
        log(`${s.instance.padEnd(9)} ${s.stage}${where}${s.detail && s.stage !== "running" ? `: ${s.detail.length > 240 ? `${s.detail.slice(0, 240)}...` : s.detail}` : ""}`);
        await o.onStatus?.(s, rehearsal);
      }
      // systemd's Restart=on-failure (RestartPreventExitStatus=78), for processes that ended on their own or were killed.
      for (const i of instances) {
        if (i.running || i.starts === 0) continue;
        const code = await i.exited();
        const status = statuses.get(i.name);
        if (code === 0 || code === 78 || status?.stage === "done" || i.starts >= 6 || !existsSync(join(i.home, "boot"))) continue;
        log(`${i.name}: exited (${code === null ? "killed" : `code ${code}`}); restarting its boot command as systemd would`);
        i.restart();
      }
      const finished = clients.every((c) => ["done", "failed"].includes(statuses.get(c.name)?.stage ?? "") && !c.running);
      if (finished) break;
      if (Date.now() > deadline) {
        log(`rehearse: timed out after ${Math.round((Date.now() - started) / 1000)} s`);
        break;
      }
      await sleep(2000);
    }

    // The service imports every 5 s: wait until it has every client's result of every phase, or a minute more.
    let phases = await storedPhases(service, runId, plan);
    const importDeadline = Date.now() + 90_000;
    while (phases.some((p) => p.clientsStored < p.clients) && Date.now() < importDeadline) {
      await sleep(2500);
      phases = await storedPhases(service, runId, plan);
    }
    const iam = { ...auditCalls(proxy.calls, roles, stack.region, stack.account), probes };
    const problems: string[] = [];
    for (const p of phases) if (p.clientsStored < p.clients) problems.push(`phase ${p.index} ${p.name}: ${p.clientsStored} of ${p.clients} client result(s) stored`);
    for (const s of statuses.values()) if (s.stage === "failed") problems.push(`${s.instance} failed: ${s.detail ?? "no reason"}`);
    for (const c of clients) if (statuses.get(c.name)?.stage !== "done") problems.push(`${c.name} did not finish (${statuses.get(c.name)?.stage ?? "no status"})`);
    for (const f of iam.findings) problems.push(`IAM: ${f.role} ${f.call}: ${f.status === 403 ? "refused by the emulator" : `policy says ${f.decision}`}`);
    for (const p of probes.filter((x) => !x.ok)) problems.push(`IAM probe: ${p.role} could ${p.outcome === "allowed" ? "" : "not "}${p.probe} (expected ${p.expected}, judged by the ${p.judgedBy})`);
    removeFiles = problems.length === 0 && !o.keepFiles;
    if (!removeFiles) log(`folders kept for inspection: ${root}`);
    return {
      runId,
      ok: problems.length === 0,
      problems,
      phases,
      statuses: [...statuses.values()],
      iam,
      dashboardUrl: `${service.url}/?run=${encodeURIComponent(runId)}`,
      seconds: Math.round((Date.now() - started) / 1000),
      stop: stopAll,
      internals: { emulator, bucket: stack.bucket },
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
