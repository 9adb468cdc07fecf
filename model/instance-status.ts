import { type Static, type TLiteral, type TUnion, Type } from "@sinclair/typebox";
import { InstanceBillingSchema } from "./instance-billing.js";
import { checkAgainst } from "./result-validation.js";

/**
 * What every instance of a run reports under `runs/<id>/status/<instance>.json` as it boots and works, so a fleet can
 * be read at a glance (`ycsb-lab status`) and a failed boot is never invisible: its stage, and on failure the reason
 * and the tail of its boot log (beside it, `<instance>.log`).
 */
export const INSTANCE_STAGES = [
  /** user-data runs (OS packages, the kit). */
  "booting",
  /** data node: engine installed and configured; client: kit ready. */
  "installed",
  /** data node: engine processes started. */
  "started",
  /** leader: every node joined, schema prepared. */
  "formed",
  /** data node: the cluster is ready (the leader's marker exists); client: waiting for it is over. */
  "ready",
  /** data node: carrying out a reset the plan asked for (wipe, restart, drop caches). */
  "resetting",
  /** client: waiting for the cluster's readiness marker. */
  "waiting",
  /** client: running phase k of n. */
  "running",
  "done",
  "failed",
] as const;
export type InstanceStage = (typeof INSTANCE_STAGES)[number];

/** A run's data nodes and clients, and the team's dashboard service (infra/dashboard-service.ts), booted the same way. */
export const INSTANCE_ROLES = ["data", "client", "dashboard"] as const;
export type InstanceRole = (typeof INSTANCE_ROLES)[number];

// Typed as the union of its literals, so Static<> gives "cassandra" | ... rather than string.
const literalUnion = <T extends readonly string[]>(values: T) =>
  Type.Union(values.map((v) => Type.Literal(v))) as unknown as TUnion<TLiteral<T[number]>[]>;

export const InstanceStatusSchema = Type.Object(
  {
    /** "node-<i>", "client-<i>" or "dashboard-<i>". */
    instance: Type.String({ pattern: "^(node|client|dashboard)-\\d+$" }),
    role: literalUnion(INSTANCE_ROLES),
    index: Type.Integer({ minimum: 0 }),
    stage: literalUnion(INSTANCE_STAGES),
    /** When this stage was reached (ISO). */
    at: Type.String(),
    /** When the instance's boot began (its first stage): the start model/run-cost.ts bills from. */
    bootedAt: Type.Optional(Type.String()),
    /**
     * The instance's EBS volumes and public IPv4 address as cluster.json gave its role (model/instance-billing.ts):
     * what its realized cost bills beside its hours. Absent before the instance read cluster.json, and in markers of
     * runs from before markers carried it (their cost then says it counts hours only).
     */
    billing: Type.Optional(InstanceBillingSchema),
    /** One line on what happens or, when failed, why. */
    detail: Type.Optional(Type.String({ maxLength: 4000 })),
    /** Client: the phase it runs (1-based position among the plan's phases). */
    phase: Type.Optional(
      Type.Object({ position: Type.Integer({ minimum: 1 }), of: Type.Integer({ minimum: 1 }), name: Type.String() }),
    ),
    /** What a rehearsal swapped for this machine (engine artifacts, addresses, disks): never set on AWS. */
    rehearsal: Type.Optional(Type.Array(Type.String())),
    kit: Type.Optional(Type.Object({ sha256: Type.String(), version: Type.String() })),
    /** Set when the boot log's tail was uploaded beside the status. */
    logTail: Type.Optional(Type.Boolean()),
    /**
     * Rewritten every HEARTBEAT_SECONDS while the instance works: a machine that died without a word (lost, killed,
     * powered off) is told from one that is busy by a heartbeat older than STALE_HEARTBEAT_SECONDS.
     */
    heartbeatAt: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type InstanceStatus = Static<typeof InstanceStatusSchema>;

export const instanceName = (role: InstanceRole, index: number): string =>
  `${role === "data" ? "node" : role}-${index}`;

export function parseInstanceStatus(text: string): InstanceStatus | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return checkAgainst(InstanceStatusSchema, value).length === 0 ? (value as InstanceStatus) : undefined;
  } catch {
    return undefined;
  }
}

/** The leader's readiness marker (`runs/<id>/cluster/ready.json`): how clients reach the formed cluster. */
export const ReadyMarkerSchema = Type.Object(
  {
    engine: Type.String(),
    nodes: Type.Integer({ minimum: 1 }),
    preset: Type.String(),
    formedAt: Type.String(),
    /** YCSB `-p` properties that point the binding at the cluster (hosts, ports, bucket ...). */
    connection: Type.Record(Type.String(), Type.String()),
    /** Binding properties whose value is a secret, read by the client from SSM: property -> parameter name. */
    secretConnection: Type.Optional(Type.Record(Type.String(), Type.String())),
    /** Set when a stand-in serves instead of the engine (rehearsal): recorded in every result as run.standIn. */
    standIn: Type.Optional(Type.String()),
    /** What formation did, one line per step (for the status view and the run's record). */
    steps: Type.Array(Type.String()),
    /** Set when the leader formed the cluster again after a reset: that command's id. */
    afterCommand: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);
export type ReadyMarker = Static<typeof ReadyMarkerSchema>;

export function parseReadyMarker(text: string, where: string): ReadyMarker {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`${where}: not JSON: ${(err as Error).message}`);
  }
  const problems = checkAgainst(ReadyMarkerSchema, value);
  if (problems.length > 0)
    throw new Error(`${where}: not a readiness marker: ${problems.map((p) => `${p.path} ${p.message}`).join("; ")}`);
  return value as ReadyMarker;
}

/**
 * How often a working instance rewrites its status, and when silence means it is gone: four beats missed, so a lost
 * machine ends its run within a minute (a few S3 PUTs a minute per instance: cents a day for a 32-node fleet).
 */
export const HEARTBEAT_SECONDS = 10;
export const STALE_HEARTBEAT_SECONDS = 45;

/** Seconds since an instance last showed it was alive (its heartbeat, or the stage it reached). */
export function silenceSeconds(status: InstanceStatus, now: Date): number {
  return (now.getTime() - Date.parse(status.heartbeatAt ?? status.at)) / 1000;
}

/**
 * The run's end as one fact every instance reads (model/results-layout.ts runEndKey): written by client 0 when every
 * client passed the last barrier, or by the first client that gives up (a failed data node, a Spot interruption, a
 * lost peer). Every barrier poll reads it, so no client waits for a run that is over; data nodes stop serving on it.
 */
export const RunEndSchema = Type.Object(
  {
    complete: Type.Boolean(),
    /** Why the run ended early (names the node or client). */
    reason: Type.Optional(Type.String({ maxLength: 4000 })),
    /** The instance that wrote it ("client-1"). */
    by: Type.String(),
    at: Type.String(),
  },
  { additionalProperties: false },
);
export type RunEnd = Static<typeof RunEndSchema>;

/** A command from client 0 to every data node (model/results-layout.ts nodeCommandKey): a plan's reset phase. */
export const NodeCommandSchema = Type.Object(
  {
    /** The reset phase's index: unique in the run, so a node carries out each command once. */
    id: Type.Integer({ minimum: 0 }),
    phase: Type.String(),
    action: Type.Literal("reset"),
    wipeData: Type.Boolean(),
    restartServer: Type.Boolean(),
    dropCaches: Type.Boolean(),
    issuedAt: Type.String(),
  },
  { additionalProperties: false },
);
export type NodeCommand = Static<typeof NodeCommandSchema>;

export const NodeAckSchema = Type.Object(
  {
    id: Type.Integer({ minimum: 0 }),
    node: Type.Integer({ minimum: 0 }),
    ok: Type.Boolean(),
    /** What the node did, one line each, or why it failed. */
    done: Type.Array(Type.String()),
    at: Type.String(),
  },
  { additionalProperties: false },
);
export type NodeAck = Static<typeof NodeAckSchema>;

export function parseChecked<T>(schema: Parameters<typeof checkAgainst>[0], text: string, where: string): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`${where}: not JSON: ${(err as Error).message}`);
  }
  const problems = checkAgainst(schema, value);
  if (problems.length > 0) throw new Error(`${where}: ${problems.map((p) => `${p.path} ${p.message}`).join("; ")}`);
  return value as T;
}
