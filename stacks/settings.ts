import type { MongoTopology } from "../engines/node-context.js";
import type { BenchmarkScenarioArgs } from "../infra/benchmark-scenario.js";
import type { DashboardServiceArgs } from "../infra/dashboard-service.js";
import type { Engine } from "../model/engine.js";
import { INSTANCE_TYPES } from "../model/instance-types.js";
import type { Preset } from "../model/presets.js";
import type { DeploymentChoice, ScenarioSpec } from "../model/scenario.js";
import { scenario } from "../model/scenarios.js";

/** Reads one config value by its full key ("ycsb-lab:nodes", "aws:region"); undefined when unset. */
export type ConfigSource = (key: string) => string | undefined;

export class StackConfigError extends Error {
  constructor(
    readonly key: string,
    message: string,
  ) {
    super(`${key}: ${message}`);
  }
}

const NS = "ycsb-lab";

function required(get: ConfigSource, key: string): string {
  const v = get(key);
  if (v === undefined || v === "") throw new StackConfigError(key, "is required (pulumi config set)");
  return v;
}

function wholeNumber(get: ConfigSource, key: string): number | undefined {
  const v = get(key);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n)) throw new StackConfigError(key, `must be a whole number, got "${v}"`);
  return n;
}

/**
 * A machine override from config: the current type, and the retired original it stands for. A retired original maps
 * to its replacement from model/instance-types.ts unless the type is given; it must be the original the study used.
 */
function machine(
  get: ConfigSource,
  role: "data" | "client",
  spec: ScenarioSpec["dataNode"] | ScenarioSpec["clientNode"],
): string {
  const typeKey = `${NS}:${role}InstanceType`;
  const originalKey = `${NS}:${role}InstanceOriginal`;
  const original = get(originalKey);
  const type = get(typeKey);
  if (original !== undefined) {
    if (spec.original !== undefined && spec.original !== original)
      throw new StackConfigError(originalKey, `the study used "${spec.original}", not "${original}"`);
    const known = INSTANCE_TYPES[original];
    if (known?.retired && type === undefined) return known.replacedBy!;
  }
  return type ?? spec.instanceType;
}

/** The kit the stack ships (kit/build.ts): built by stacks/kit.ts before the program runs. */
export type StackKit = BenchmarkScenarioArgs["kit"];

/** Stack config -> the typed BenchmarkScenario args: the only place config is read (stacks/index.ts passes pulumi.Config in). */
/** The engine a stack's config selects (its scenario's default when unset): which kit it ships. */
export function stackEngine(get: ConfigSource): Engine {
  const name = required(get, `${NS}:scenario`);
  let base: ScenarioSpec;
  try {
    base = scenario(name);
  } catch (e) {
    throw new StackConfigError(`${NS}:scenario`, (e as Error).message.replace(/^scenario: /, ""));
  }
  const engine = get(`${NS}:engine`) ?? base.defaults.engine;
  if (!base.engines.includes(engine as Engine))
    throw new StackConfigError(`${NS}:engine`, `scenario "${name}" covers ${base.engines.join(", ")}, not "${engine}"`);
  return engine as Engine;
}

/**
 * A fresh run id for each `pulumi up` (the stack name and the minute, UTC): every up is a new run, so repeats never
 * share barrier files, results or credentials. Within the tags' alphabet and length (infra/tags.ts).
 */
export function runIdFor(stackName: string, now: Date): string {
  const stamp = now.toISOString().slice(0, 16).replace(/[-:]/g, "").replace("T", "-");
  const base =
    stackName
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, "-")
      .replace(/^-+/, "")
      .slice(0, 27) || "run";
  return `${base}-${stamp}`;
}

/**
 * `ycsb-lab:expiry` as a date: "YYYY-MM-DD" as given, or "<N>d" days from this up (so a stack file never carries a
 * calendar date that silently passes); unset, the component takes the day its maxHours deadline falls on.
 */
export function expiryFrom(value: string | undefined, now: Date): string | undefined {
  if (value === undefined || value === "") return undefined;
  const days = /^\+?(\d{1,3})d$/.exec(value);
  if (days) return new Date(now.getTime() + Number(days[1]) * 86_400_000).toISOString().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value))
    throw new StackConfigError(
      `${NS}:expiry`,
      `a date YYYY-MM-DD or a number of days from the up like "3d", got "${value}"`,
    );
  return value;
}

export function stackArgs(
  get: ConfigSource,
  stackName: string,
  kit: StackKit,
  now: Date = new Date(),
): BenchmarkScenarioArgs {
  const name = required(get, `${NS}:scenario`);
  let base: ScenarioSpec;
  try {
    base = scenario(name);
  } catch (e) {
    throw new StackConfigError(`${NS}:scenario`, (e as Error).message.replace(/^scenario: /, ""));
  }
  const spec: ScenarioSpec = {
    ...base,
    dataNode: { ...base.dataNode, instanceType: machine(get, "data", base.dataNode) },
    clientNode: { ...base.clientNode, instanceType: machine(get, "client", base.clientNode) },
  };
  const deployment: DeploymentChoice = {};
  const engine = get(`${NS}:engine`);
  if (engine !== undefined) deployment.engine = engine as Engine;
  const preset = get(`${NS}:preset`);
  if (preset !== undefined) deployment.preset = preset as Preset;
  const nodes = wholeNumber(get, `${NS}:nodes`);
  if (nodes !== undefined) deployment.nodes = nodes;
  const clients = wholeNumber(get, `${NS}:clients`);
  if (clients !== undefined) deployment.clients = clients;
  const repeats = wholeNumber(get, `${NS}:repeats`);
  if (repeats !== undefined) deployment.repeats = repeats;
  const scale = get(`${NS}:scale`);
  if (scale !== undefined) {
    const s = Number(scale);
    if (!Number.isFinite(s)) throw new StackConfigError(`${NS}:scale`, `must be a number, got "${scale}"`);
    deployment.scale = s;
  }
  const topology = get(`${NS}:mongoTopology`);
  if (topology !== undefined && topology !== "sharded" && topology !== "replica-set") {
    throw new StackConfigError(`${NS}:mongoTopology`, `"sharded" or "replica-set", got "${topology}"`);
  }
  const az = get(`${NS}:availabilityZone`);
  const ami = get(`${NS}:ami`);
  const flag = (key: string): boolean => {
    const v = get(`${NS}:${key}`);
    if (v === undefined || v === "false") return false;
    if (v === "true") return true;
    throw new StackConfigError(`${NS}:${key}`, `"true" or "false", got "${v}"`);
  };
  const logVolume = {
    ...(wholeNumber(get, `${NS}:logVolumeGiB`) !== undefined
      ? { sizeGiB: wholeNumber(get, `${NS}:logVolumeGiB`)! }
      : {}),
    ...(wholeNumber(get, `${NS}:logVolumeIops`) !== undefined
      ? { iops: wholeNumber(get, `${NS}:logVolumeIops`)! }
      : {}),
    ...(wholeNumber(get, `${NS}:logVolumeThroughput`) !== undefined
      ? { throughputMiBs: wholeNumber(get, `${NS}:logVolumeThroughput`)! }
      : {}),
  };
  const maxHoursText = get(`${NS}:maxHours`);
  const maxHours = maxHoursText === undefined ? undefined : Number(maxHoursText);
  if (maxHours !== undefined && !(maxHours > 0))
    throw new StackConfigError(`${NS}:maxHours`, `hours > 0, got "${maxHoursText}"`);
  const bucket = get(`${NS}:resultsBucket`);
  const egress = get(`${NS}:egress`);
  if (egress !== undefined && egress !== "nat" && egress !== "public-ip")
    throw new StackConfigError(
      `${NS}:egress`,
      `"nat" or "public-ip" (unset: the cheaper for the run), got "${egress}"`,
    );
  const expiry = expiryFrom(get(`${NS}:expiry`), now);
  return {
    spec,
    deployment,
    runId: get(`${NS}:runId`) ?? runIdFor(stackName, now),
    owner: required(get, `${NS}:owner`),
    ...(expiry ? { expiry } : {}),
    now,
    region: required(get, "aws:region"),
    kit,
    stack: stackName,
    ...(topology ? { mongoTopology: topology as MongoTopology } : {}),
    ...(az ? { availabilityZone: az } : {}),
    ...(ami ? { amiId: ami } : {}),
    ...(maxHours !== undefined ? { maxHours } : {}),
    ...(Object.keys(logVolume).length > 0 ? { logVolume } : {}),
    ...(flag("clientSpot") ? { clientSpot: true } : {}),
    ...(flag("dataNodeSpot") ? { dataNodeSpot: true } : {}),
    ...(flag("keepAfterRun") ? { keepAfterRun: true } : {}),
    ...(flag("reserveCapacity") ? { reserveCapacity: true } : {}),
    ...(egress ? { egress: egress as "nat" | "public-ip" } : {}),
    ...(bucket ? { resultsBucketName: bucket } : {}),
  };
}

/** What a stack deploys: a benchmark scenario (the default) or the team's dashboard service (`ycsb-lab:kind: dashboard`). */
export function stackKind(get: ConfigSource): "scenario" | "dashboard" {
  const kind = get(`${NS}:kind`) ?? "scenario";
  if (kind !== "scenario" && kind !== "dashboard")
    throw new StackConfigError(`${NS}:kind`, `"scenario" or "dashboard", got "${kind}"`);
  return kind;
}

const list = (v: string | undefined): string[] =>
  (v ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * Stack config -> DashboardService args. `ycsb-lab:importBuckets` lists the scenario stacks' results buckets
 * (comma-separated, each "bucket" or "bucket/prefix/"): the dashboard imports them; the scenario stacks need nothing.
 */
export function dashboardArgs(get: ConfigSource, stackName: string, kit: StackKit): DashboardServiceArgs {
  const importBuckets = list(get(`${NS}:importBuckets`)).map((b) => {
    const slash = b.indexOf("/");
    return slash < 0 ? { bucket: b } : { bucket: b.slice(0, slash), prefix: b.slice(slash + 1) };
  });
  const flag = (key: string): boolean | undefined => {
    const v = get(`${NS}:${key}`);
    if (v === undefined) return undefined;
    if (v === "true" || v === "false") return v === "true";
    throw new StackConfigError(`${NS}:${key}`, `"true" or "false", got "${v}"`);
  };
  const certificateArn = get(`${NS}:certificateArn`);
  const allowedCidrs = list(get(`${NS}:allowedCidrs`));
  if (allowedCidrs.length > 0 && !certificateArn)
    throw new StackConfigError(
      `${NS}:allowedCidrs`,
      `needs ${NS}:certificateArn (the load balancer serves HTTPS only)`,
    );
  if (certificateArn && allowedCidrs.length === 0)
    throw new StackConfigError(`${NS}:allowedCidrs`, "is required with a certificate: who may connect (CIDR blocks)");
  const egress = get(`${NS}:egress`);
  if (egress !== undefined && egress !== "nat" && egress !== "public-ip")
    throw new StackConfigError(`${NS}:egress`, `"nat" or "public-ip", got "${egress}"`);
  const pollSeconds = wholeNumber(get, `${NS}:pollSeconds`);
  const port = wholeNumber(get, `${NS}:port`);
  const storage = wholeNumber(get, `${NS}:dbStorageGiB`);
  const backups = wholeNumber(get, `${NS}:dbBackupRetentionDays`);
  const dbClass = get(`${NS}:dbInstanceClass`);
  const deletionProtection = flag("dbDeletionProtection");
  const multiAz = flag("dbMultiAz");
  const protectReads = flag("protectReads");
  const instanceType = get(`${NS}:instanceType`);
  const ami = get(`${NS}:ami`);
  return {
    serviceId: (get(`${NS}:serviceId`) ?? stackName)
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, "-")
      .slice(0, 41),
    owner: required(get, `${NS}:owner`),
    region: required(get, "aws:region"),
    kit,
    importBuckets,
    ...(pollSeconds !== undefined ? { pollSeconds } : {}),
    ...(port !== undefined ? { port } : {}),
    ...(instanceType ? { instanceType } : {}),
    ...(egress ? { egress: egress as "nat" | "public-ip" } : {}),
    ...(ami ? { amiId: ami } : {}),
    ...(protectReads !== undefined ? { protectReads } : {}),
    database: {
      ...(dbClass ? { instanceClass: dbClass } : {}),
      ...(storage !== undefined ? { allocatedStorageGiB: storage } : {}),
      ...(backups !== undefined ? { backupRetentionDays: backups } : {}),
      ...(deletionProtection !== undefined ? { deletionProtection } : {}),
      ...(multiAz !== undefined ? { multiAz } : {}),
    },
    ...(certificateArn ? { loadBalancer: { certificateArn, allowedCidrs } } : {}),
  };
}
