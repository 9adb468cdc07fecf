import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AMI_DISTRIBUTIONS, type AmiDistribution, DEBIAN_12 } from "../infra/ami.js";
import type { PolicyDocument } from "../infra/policies.js";
import { NODE_VERSION } from "../infra/user-data.js";
import { type ClusterDescription, parseClusterDescription } from "../model/cluster-description.js";
import { type Engine, isEngine } from "../model/engine.js";
import { type InstanceStatus, instanceName } from "../model/instance-status.js";
import type { Plan } from "../model/plan.js";
import { clusterKey, planKey } from "../model/results-layout.js";
import { RunObjects } from "../runner/boot/run-objects.js";
import { REPO_ROOT } from "../runner/java-artifacts.js";
import { stackConfigFromFiles } from "../stacks/config-file.js";
import { stackKit } from "../stacks/kit.js";
import { type ConfigSource, stackEngine } from "../stacks/settings.js";
import { localArtifacts } from "./artifacts.js";
import { type Credentials, createBucketWith, type Emulator, startEmulator } from "./emulator.js";
import { type EvaluatedStack, evaluateStack, type StackInstance } from "./evaluate.js";
import { buildFleet, instanceIdOf, serviceMachine } from "./fleet.js";
import { type Front, startFront } from "./front.js";
import { auditCalls, type IamAudit } from "./iam-audit.js";
import { type IamProbe, probeRoles } from "./iam-probes.js";
import { type MetadataService, startMetadataService } from "./imds.js";
import { loopbackUsable } from "./loopback.js";
import { Machine, type SeamFile } from "./machine.js";
import { checkMachineTools, keepAptDownloads, osImage } from "./os-image.js";
import { findProblems, type PhaseOutcome } from "./problems.js";
import { startRecordingProxy } from "./recording-proxy.js";
import { rehearsalCa } from "./rehearsal-ca.js";
import { type ResultsService, startResultsService } from "./results-service.js";
import { nodeDistribution } from "./vendor-mirror.js";
import { watchStatuses } from "./watch.js";

export interface RehearseOptions {
  stack: string;
  engine?: Engine;
  preset?: string;
  nodes?: number;
  clients?: number;
  scale?: number;
  /** Fewer repeats than the study made (a cheaper trial of the same cloud path). */
  repeats?: number;
  /** Further stack config, as `pulumi config set` would give it (e.g. { "ycsb-lab:maxHours": "0.05" }). */
  config?: Record<string, string>;
  /** The run id (a fresh one per rehearsal by default, so rehearsals never share barriers or results). */
  runId?: string;
  /** Where instances keep their folders. @default .local/rehearsals/<runId> */
  root?: string;
  /** Loopback /24 the stack's addresses map to. @default 127.0.12 */
  loopbackPrefix?: string;
  maxHeapMb?: number;
  /** PostgreSQL for the results service; default its own embedded store under the rehearsal's folder. */
  databaseUrl?: string;
  /** Keep the rehearsal's folders (instance layers, disks, logs) after a successful run. @default false */
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
  /** Boot only these instances (e.g. ["client-0"]: a failure drill of one machine). @default every instance */
  only?: string[];
  /** Changes an instance's seam before it boots (a drill points a host elsewhere or adds a unit). */
  seam?: (instance: string, files: SeamFile[]) => SeamFile[];
  /** No results service: nothing is imported (failure drills, whose runs store no result). @default false */
  noResultsService?: boolean;
  /** How long to wait for every instance to power itself off after the run. @default 180 s */
  powerOffGraceMs?: number;
  /** Called once the bucket holds the stack's uploads, before any instance boots (failure drills tamper here). */
  beforeBoot?: (rehearsal: Rehearsal) => void | Promise<void>;
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
  /** Calls signed with these credentials are audited against `policy`. */
  track(credentials: Credentials, role: string, policy: PolicyDocument): void;
  /**
   * Boots an instance of another stack (the dashboard service) as a machine of this rehearsal, reaching AWS through
   * its front with `buckets` named in its /etc/hosts; stopped with the rehearsal, never expected to power off.
   */
  bootService(
    spec: StackInstance,
    o: { credentials: Credentials; buckets: string[]; address: string; bootEnvironment: Record<string, string> },
  ): Machine;
  log(line: string): void;
}

export type { PhaseOutcome } from "./problems.js";

/** How each instance ended: powered itself off (as EC2 then terminates it), still running, or stopped by the rehearsal. */
export type MachineEnd = "powered off" | "running" | "stopped by the rehearsal";

export interface RehearsalResult {
  runId: string;
  ok: boolean;
  /** Why not ok, one line each. */
  problems: string[];
  phases: PhaseOutcome[];
  statuses: InstanceStatus[];
  /** Each instance's end when the rehearsal returned. */
  machines: Record<string, MachineEnd>;
  /** What the rehearsal swapped, one line each (printed as it starts, kept here for the record). */
  swaps: string[];
  iam: IamAudit & { probes: IamProbe[] };
  dashboardUrl: string;
  seconds: number;
  /** The results service and the emulator keep running until `stop()` (so the dashboard can be browsed). */
  stop: () => Promise<void>;
  /** For drills and checks: the emulator (admin access) and the bucket. */
  internals?: { emulator: Emulator; bucket: string };
}

/** A running rehearsal, as the hooks see it. */
export interface Rehearsal {
  runId: string;
  bucket: string;
  instances: Machine[];
  emulator: Emulator;
  front: Front;
  /** Each instance's metadata service (a drill plants a Spot interruption notice here). */
  metadata: MetadataService;
  /** The emulator's users standing for each role (drills narrow a role's policy). */
  credentialsOf(roleName: string): Credentials;
  stack: EvaluatedStack;
  instance(name: string): Machine;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const instanceNameOf = (i: { role: "data" | "client" | "dashboard"; index: number }) => instanceName(i.role, i.index);

function freshRunId(stack: string): string {
  // Tags and IAM names carry the run id: [a-z0-9-], at most 41 characters (infra/tags.ts).
  return `${stack
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, "-")
    .slice(0, 26)}-${Date.now().toString(36)}`;
}

/** The distribution of the stack's AMI: the default image's, or the one a stack bringing its own AMI declares. */
export function stackDistribution(get: ConfigSource): AmiDistribution {
  const declared = get("ycsb-lab:amiDistribution");
  if (declared) {
    const d = AMI_DISTRIBUTIONS[declared];
    if (!d)
      throw new Error(
        `ycsb-lab:amiDistribution: ${declared} is not one ycsb-lab rehearses (${Object.keys(AMI_DISTRIBUTIONS).join(", ")})`,
      );
    return d;
  }
  if (get("ycsb-lab:ami"))
    throw new Error(
      "ycsb-lab:ami names an AMI of its own: say its distribution with ycsb-lab:amiDistribution (e.g. debian-12) so the rehearsal boots the same one",
    );
  return DEBIAN_12;
}

/** What the API stored of each measured phase of the plan, against what every client should have stored. */
async function storedPhases(service: ResultsService, runId: string, plan: Plan): Promise<PhaseOutcome[]> {
  type Run = {
    phases: Array<{
      phase: { name: string; index: number; kind: string; clients: number };
      verdict: string;
      aggregate: { clients: number; expectedClients: number; throughputOpsSec: number };
    }>;
  };
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

/** A drill's stand-in for the results service: it imports nothing and answers nothing. */
function noResultsService(): ResultsService {
  return { url: "http://127.0.0.1:9", token: "", get: async () => undefined, stop: async () => {} };
}

/** The process a rehearsal's folder belongs to (its file "owner"), so another rehearsal knows it is still running. */
const OWNER_FILE = "owner";

function ownerAlive(runDir: string): boolean {
  let pid = 0;
  try {
    pid = Number(readFileSync(join(runDir, OWNER_FILE), "utf8").trim());
  } catch {
    return false;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists (owned by someone else); ESRCH: it is gone.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Folders of earlier rehearsals that died: their mounts and loop devices released, so a disk is never held. A folder
 * whose owner process still runs belongs to a rehearsal running beside this one (side-by-side tests, drills): kept.
 */
function releaseStale(base: string): void {
  if (!existsSync(base)) return;
  for (const run of readdirSync(base)) {
    if (ownerAlive(join(base, run))) continue;
    for (const name of readdirSync(join(base, run)).filter((n) => /^(node|client|dashboard)-\d+$/.test(n)))
      Machine.release(join(base, run, name));
  }
}

interface Prepared {
  runId: string;
  root: string;
  prefix: string;
  engine: Engine;
  stack: EvaluatedStack;
  plan: Plan;
  cluster?: ClusterDescription;
  addresses: Map<string, string>;
  swaps: string[];
}

/** The stack evaluated under mocks with its kit, and its instances' loopback addresses. */
async function evaluate(o: RehearseOptions, log: (l: string) => void): Promise<Prepared> {
  const runId = o.runId ?? freshRunId(o.stack);
  const overrides: Record<string, string> = { ...(o.config ?? {}), "ycsb-lab:runId": runId };
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
  writeFileSync(join(root, OWNER_FILE), String(process.pid));
  const prefix = o.loopbackPrefix ?? "127.0.12";
  log(`rehearse ${o.stack}: run ${runId}, ${engine}; folder ${root}`);
  const kit = await stackKit(get, engine);
  log(`kit ${kit.sha256.slice(0, 12)} (${kit.path})`);
  const stack = await evaluateStack(o.stack, get, kit);
  const plan = JSON.parse(stack.uploads.find((u) => u.key === planKey(runId))?.content ?? "null") as Plan | null;
  if (!plan) throw new Error(`rehearse: the stack uploads no ${planKey(runId)}`);
  const clusterText = stack.uploads.find((u) => u.key === clusterKey(runId))?.content;
  const cluster = clusterText ? parseClusterDescription(clusterText, clusterKey(runId)) : undefined;
  log(
    `stack evaluated under mocks: ${stack.instances.filter((i) => i.role === "data").length} data node(s), ${stack.instances.filter((i) => i.role === "client").length} client(s), bucket ${stack.bucket}, ${stack.uploads.length} upload(s)`,
  );
  const addresses = new Map<string, string>();
  for (const i of stack.instances)
    addresses.set(i.privateIp, `${prefix}.${i.role === "data" ? i.index + 1 : i.index + 101}`);
  for (const a of [...addresses.values(), `${prefix}.253`, `${prefix}.254`])
    if (!loopbackUsable(a))
      throw new Error(`rehearse: cannot bind ${a} here (Linux routes 127.0.0.0/8 to loopback; pick --loopback)`);
  const swaps = [
    `addresses: ${[...addresses].map(([a, b]) => `${a} -> ${b}`).join(", ")} (the instances share this machine's network namespace)`,
  ];
  return { runId, root, prefix, engine, stack, plan, ...(cluster ? { cluster } : {}), addresses, swaps };
}

/**
 * `ycsb-lab rehearse`: the cloud path of a stack on this machine (DESIGN.md "One boot path, rehearsed"). The stack is
 * evaluated under Pulumi mocks; moto stands for S3 and IAM with the stack's bucket, uploads and role policies; every
 * instance boots as an OS container of the AMI's distribution, cloud-init running its exact user-data, systemd
 * running its service, its disks loop devices; the results service imports the run from the bucket. What cannot be
 * real here is swapped at one seam (rehearse/seam.ts, rehearse/front.ts) and listed in the output.
 */
export async function rehearse(o: RehearseOptions): Promise<RehearsalResult> {
  const started = Date.now();
  const log = o.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  releaseStale(join(REPO_ROOT, ".local", "rehearsals"));
  const p = await evaluate(o, log);
  const { runId, root, stack, plan } = p;
  const distribution = stackDistribution(stackConfigFromFiles(o.stack, o.config ?? {}));
  const ca = rehearsalCa();
  const [image, nodeFiles, artifacts] = await Promise.all([
    osImage(distribution, ca.certificate, log),
    nodeDistribution(undefined, log),
    localArtifacts(p.engine),
  ]);
  p.swaps.push(
    `machines: OS containers of ${distribution.id} (${distribution.codename}) from Debian's mirror, booted by systemd-nspawn; cloud-init reads the user-data from a NoCloud seed`,
  );
  p.swaps.push(
    `credentials: the emulator's user for each instance role in /root/.aws/credentials (EC2: the instance profile)`,
  );
  p.swaps.push(`vendors: ${nodeFiles.map((f) => `${f.url} from ${f.source}`).join("; ")}`);
  p.swaps.push(`engine: ${artifacts.note}`);
  for (const s of p.swaps) log(`swap: ${s}`);

  const emulator = o.emulator ?? (await startEmulator(stack.region, log));
  // Every tracked principal's S3 calls are answered as S3 answers them under its policy (rehearse/s3-semantics.ts).
  const roles = new Map<string, { role: string; policy: PolicyDocument }>();
  const proxy = await startRecordingProxy(emulator.endpoint, {
    policyOf: (key) => roles.get(key)?.policy,
    scope: { region: stack.region, account: stack.account },
  });
  let front: Front | undefined;
  let metadata: MetadataService | undefined;
  let service: ResultsService | undefined;
  const machines: Machine[] = [];
  /** Machines of services booted beside the run (the dashboard): stopped with it, not part of the fleet's end. */
  const services: Machine[] = [];
  let removeFiles = false;
  let stopped = false;
  const stopAll = async (why?: string) => {
    if (stopped) return;
    stopped = true;
    const up = machines.filter((m) => m.running);
    if (why && up.length)
      log(`rehearse: ${why}: stopping ${up.length} instance(s): ${up.map((m) => m.name).join(", ")}`);
    await Promise.all([...machines, ...services].map((m) => m.stop()));
    const kept = await keepAptDownloads(
      image,
      machines.map((m) => m.upper),
    ).catch(() => 0);
    if (kept) log(`apt: ${kept} downloaded package(s) kept for the next rehearsal`);
    await service?.stop();
    await front?.stop();
    await metadata?.stop();
    await proxy.stop();
    if (!o.emulator) await emulator.stop();
    // A good rehearsal leaves nothing behind; a failed one keeps every log for inspection.
    if (removeFiles) for (const m of [...machines, ...services]) m.remove();
    else if (!o.keepFiles) for (const m of [...machines, ...services]) m.dropSoftware();
    if (removeFiles) rmSync(root, { recursive: true, force: true });
    if (why)
      log(
        `rehearse: ${why}: every instance stopped${removeFiles ? "" : `; folders kept in ${root} (without the software each installed)`}`,
      );
  };
  const onInterrupt = () => void stopAll("interrupted (Ctrl-C)").then(() => process.exit(130));
  process.once("SIGINT", onInterrupt);
  process.once("SIGTERM", onInterrupt);
  try {
    await createBucketWith(emulator, stack.bucket, stack.uploads);
    const credentialsOf = new Map<string, Credentials>();
    for (const [role, policy] of stack.policies) {
      const c = await emulator.userFor(role, policy);
      credentialsOf.set(role, c);
      roles.set(c.accessKeyId, { role, policy });
    }
    const reader = await emulator.userFor("results-service-reader", {
      Version: "2012-10-17",
      Statement: [
        {
          Sid: "ReadResults",
          Effect: "Allow",
          Action: ["s3:ListBucket", "s3:GetObject"],
          Resource: [`arn:aws:s3:::${stack.bucket}`, `arn:aws:s3:::${stack.bucket}/*`],
        },
      ],
    });
    log(
      `S3 emulator: bucket ${stack.bucket} with the stack's uploads; ${credentialsOf.size} role(s) as IAM users with the stack's policies`,
    );
    const probes = await probeRoles(emulator, {
      bucket: stack.bucket,
      runId,
      region: stack.region,
      account: stack.account,
      roles: [...stack.policies].map(([role, policy]) => ({ role, policy, credentials: credentialsOf.get(role)! })),
    });
    log(
      `IAM probes: ${probes.filter((x) => x.ok).length} of ${probes.length} as expected (another run's prefix and parameters denied, the run's own parameters readable)`,
    );
    front = await startFront({
      address: `${p.prefix}.254`,
      awsUpstream: proxy.endpoint,
      region: stack.region,
      buckets: [stack.bucket],
      files: nodeFiles,
      ca,
    });
    log(
      `front on ${front.address}:443: AWS's endpoints and the vendors' hosts for the instances (TLS from the rehearsal's CA)`,
    );
    const theFront = front;
    const bootService: ResultsServiceContext["bootService"] = (spec: StackInstance, so) => {
      const m = serviceMachine(spec, {
        root,
        runId,
        image,
        hosts: theFront.hostsFor([stack.bucket, ...so.buckets]),
        address: so.address,
        credentials: so.credentials,
        bootEnvironment: so.bootEnvironment,
      });
      services.push(m);
      m.boot();
      return m;
    };
    service = o.noResultsService
      ? noResultsService()
      : o.resultsService
        ? await o.resultsService({
            emulator,
            endpoint: proxy.endpoint,
            bucket: stack.bucket,
            region: stack.region,
            account: stack.account,
            track: (c, role, policy) => roles.set(c.accessKeyId, { role, policy }),
            bootService,
            log,
          })
        : await startResultsService({
            dir: root,
            endpoint: proxy.endpoint,
            region: stack.region,
            bucket: stack.bucket,
            credentials: reader,
            ...(o.databaseUrl ? { databaseUrl: o.databaseUrl } : {}),
          });
    log(`results service on ${service.url} (importing from the bucket every 5 s)`);

    metadata = await startMetadataService(
      `${p.prefix}.253`,
      stack.instances.map((i) => ({ name: instanceNameOf(i), instanceId: instanceIdOf(runId, instanceNameOf(i)) })),
    );
    const storage = p.cluster?.storage ?? { data: { kind: "ebs" as const, device: "sdf" }, dataDir: "/data" };
    const fleet = buildFleet(stack.instances, {
      runId,
      root,
      image,
      addresses: p.addresses,
      frontHosts: front.hosts,
      storage,
      artifacts,
      maxHeapMb: o.maxHeapMb ?? 768,
      ...(o.seam ? { seam: o.seam } : {}),
      metadataEndpointOf: (name) => metadata!.endpointOf(name),
      credentialsOf: (role) => {
        const c = credentialsOf.get(role);
        if (!c) throw new Error(`rehearse: no policy for role ${role}`);
        return c;
      },
    });
    machines.push(...fleet.machines.filter((m) => !o.only || o.only.includes(m.name)));
    for (const n of fleet.notes) log(`swap: ${n}`);
    const rehearsal: Rehearsal = {
      runId,
      bucket: stack.bucket,
      instances: machines,
      emulator,
      front,
      metadata,
      stack,
      credentialsOf: (role) => credentialsOf.get(role)!,
      instance: (name) => {
        const found = machines.find((m) => m.name === name);
        if (!found) throw new Error(`no instance ${name}`);
        return found;
      },
    };
    await o.beforeBoot?.(rehearsal);
    for (const m of machines) {
      m.boot();
      const ip = stack.instances.find((i) => instanceNameOf(i) === m.name)!.privateIp;
      log(`${m.name}: booting as ${ip} -> ${p.addresses.get(ip)}, console ${m.consoleLog}`);
    }
    const { statuses, timedOut } = await watchRun(o, p, rehearsal, started, log);
    const ends = await awaitPowerOff(machines, statuses, log, o.powerOffGraceMs);
    // What the instances said last, after the clients (data nodes report "done" when they stop serving).
    const objects = await RunObjects.open(`s3://${stack.bucket}/runs/${runId}/`, undefined, {
      endpoint: emulator.endpoint,
      region: stack.region,
      credentials: emulator.admin,
    });
    for (const [name, s] of await objects.statuses().catch(() => new Map<string, InstanceStatus>()))
      statuses.set(name, s);
    let phases = await storedPhases(service, runId, plan);
    const importDeadline = Date.now() + 90_000;
    while (phases.some((x) => x.clientsStored < x.clients) && Date.now() < importDeadline) {
      await sleep(2500);
      phases = await storedPhases(service, runId, plan);
    }
    const iam = { ...auditCalls(proxy.calls, roles, stack.region, stack.account), probes };
    const problems = findProblems({ phases, statuses, machines, iam, unserved: front.unserved, timedOut });
    removeFiles = problems.length === 0 && !o.keepFiles;
    if (!removeFiles)
      log(`folders kept for inspection: ${root} (logs, /etc, /var/lib, homes, kit, disks; not /usr or /var/cache)`);
    process.off("SIGINT", onInterrupt);
    process.off("SIGTERM", onInterrupt);
    return {
      runId,
      ok: problems.length === 0,
      problems,
      phases,
      statuses: [...statuses.values()],
      machines: ends,
      swaps: p.swaps,
      iam,
      dashboardUrl: `${service.url}/?run=${encodeURIComponent(runId)}`,
      seconds: Math.round((Date.now() - started) / 1000),
      stop: () => stopAll(),
      internals: { emulator, bucket: stack.bucket },
    };
  } catch (err) {
    process.off("SIGINT", onInterrupt);
    process.off("SIGTERM", onInterrupt);
    await stopAll();
    throw err;
  }
}

/** Watches the run's statuses (rehearse/watch.ts), logging each new one and handing it to the caller. */
async function watchRun(
  o: RehearseOptions,
  p: Prepared,
  rehearsal: Rehearsal,
  started: number,
  log: (l: string) => void,
): Promise<{ statuses: Map<string, InstanceStatus>; timedOut: boolean }> {
  const { emulator, stack } = { emulator: rehearsal.emulator, stack: p.stack };
  const objects = await RunObjects.open(`s3://${stack.bucket}/runs/${p.runId}/`, undefined, {
    endpoint: emulator.endpoint,
    region: stack.region,
    credentials: emulator.admin,
  });
  const end = await watchStatuses({
    machines: rehearsal.instances,
    poll: () => objects.statuses(),
    deadline: started + (o.timeoutMs ?? 40 * 60_000),
    onStatus: async (s) => {
      const where = s.phase ? ` ${s.phase.position}/${s.phase.of} ${s.phase.name}` : "";
      log(
        `${s.instance.padEnd(9)} ${s.stage}${where}${s.detail && s.stage !== "running" ? `: ${s.detail.length > 240 ? `${s.detail.slice(0, 240)}...` : s.detail}` : ""}`,
      );
      await o.onStatus?.(s, rehearsal);
    },
  });
  if (end.timedOut) log(`rehearse: timed out after ${Math.round((Date.now() - started) / 1000)} s`);
  return end;
}

/** After the run every instance powers itself off (a run's fleet ends itself); waits for that a little while. */
async function awaitPowerOff(
  machines: Machine[],
  statuses: Map<string, InstanceStatus>,
  log: (l: string) => void,
  graceMs = 180_000,
): Promise<Record<string, MachineEnd>> {
  const deadline = Date.now() + graceMs;
  while (machines.some((m) => m.running) && Date.now() < deadline) await sleep(1000);
  const ends: Record<string, MachineEnd> = {};
  for (const m of machines) ends[m.name] = m.running ? "running" : "powered off";
  const still = machines
    .filter((m) => m.running)
    .map((m) => `${m.name} (${statuses.get(m.name)?.stage ?? "no status"})`);
  log(
    still.length
      ? `still running ${Math.round(graceMs / 1000)} s after the run: ${still.join(", ")}`
      : "every instance powered itself off",
  );
  return ends;
}

/** Builds what every rehearsal needs once (the image, the CA, the vendor files), so a first rehearsal starts at once. */
export async function prepareRehearsal(log: (l: string) => void = () => {}): Promise<void> {
  checkMachineTools();
  const ca = rehearsalCa();
  const image = await osImage(DEBIAN_12, ca.certificate, log);
  await nodeDistribution(undefined, log);
  log(`rehearsal ready: image ${image.rootfs}, Node.js ${NODE_VERSION} for the front`);
}
