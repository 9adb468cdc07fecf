import { type Static, type TLiteral, type TUnion, Type } from "@sinclair/typebox";
import { ENGINES } from "./engine.js";
import { InstanceBillingSchema } from "./instance-billing.js";
import { PRESETS } from "./presets.js";
import { checkAgainst, type FieldError } from "./result-validation.js";

/**
 * What every instance of a run boots from (`runs/<id>/cluster.json`, uploaded by the stack): the engine and preset,
 * every data node and client with its address and machine, where the data and log volumes are, and the kit the
 * instances run. Data nodes derive their configuration from it (engines/), clients their connection and plan.
 * Written by infra, read by `ycsb-lab boot`: validated at that boundary like the result document.
 */
export const CLUSTER_DESCRIPTION_VERSION = 1 as const;

// Typed as the union of its literals, so Static<> gives "cassandra" | ... rather than string.
const literalUnion = <T extends readonly string[]>(values: T) =>
  Type.Union(values.map((v) => Type.Literal(v))) as unknown as TUnion<TLiteral<T[number]>[]>;
const Address = Type.String({ minLength: 1, maxLength: 100, pattern: "^[A-Za-z0-9.:-]+$" });
const Sha256 = Type.String({ pattern: "^[0-9a-f]{64}$" });
const AbsolutePath = Type.String({ minLength: 1, maxLength: 500, pattern: "^/" });

export const ClusterNodeSchema = Type.Object(
  {
    index: Type.Integer({ minimum: 0 }),
    /** Private address of the node; node 0 leads the formation. */
    address: Address,
    instanceType: Type.String({ maxLength: 100 }),
    memoryGiB: Type.Number({ exclusiveMinimum: 0 }),
    vcpus: Type.Integer({ minimum: 1 }),
  },
  { additionalProperties: false },
);

export const VolumeSchema = Type.Union([
  Type.Object({ kind: Type.Literal("instance-store") }, { additionalProperties: false }),
  /** An EBS volume attached under this device name (on Nitro it appears as an NVMe device reporting the name). */
  Type.Object(
    { kind: Type.Literal("ebs"), device: Type.String({ pattern: "^[a-z0-9]+$" }) },
    { additionalProperties: false },
  ),
]);

export const ClusterDescriptionSchema = Type.Object(
  {
    descriptionVersion: Type.Literal(CLUSTER_DESCRIPTION_VERSION),
    runId: Type.String({ minLength: 1, maxLength: 200, pattern: "^[A-Za-z0-9._:-]+$" }),
    scenario: Type.String({ minLength: 1, maxLength: 200 }),
    /** The Pulumi stack that launched the run (result provenance). */
    stack: Type.Optional(Type.String({ maxLength: 200 })),
    engine: literalUnion(ENGINES),
    version: Type.String({ minLength: 1, maxLength: 50 }),
    preset: literalUnion(PRESETS),
    loadPreset: literalUnion(PRESETS),
    replication: Type.Integer({ minimum: 1 }),
    recordCount: Type.Integer({ minimum: 1 }),
    fieldCount: Type.Integer({ minimum: 1 }),
    mongoTopology: Type.Optional(literalUnion(["sharded", "replica-set"] as const)),
    /** Server settings a study changed beyond the preset (scenario.serverSettings[engine]). */
    serverSettings: Type.Record(Type.String(), Type.String()),
    /**
     * A study's own values over the preset's server side and its HBase pre-split (model/scenario.ts StudyServerSide,
     * e.g. seed 004's LeveledCompactionStrategy and 10 ms batch window): rendered by engines/ on the data node.
     */
    study: Type.Optional(
      Type.Object(
        {
          cassandra: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
          hbaseSplit: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
        },
        { additionalProperties: false },
      ),
    ),
    region: Type.String({ minLength: 1, maxLength: 50 }),
    bucket: Type.String({ minLength: 3, maxLength: 63 }),
    /** SSM path of the run's secrets, e.g. "/ycsb-lab/<runId>/". */
    parameterPath: Type.String({ pattern: "^/.*/$", maxLength: 500 }),
    nodes: Type.Array(ClusterNodeSchema, { minItems: 1 }),
    clients: Type.Array(
      Type.Object(
        { index: Type.Integer({ minimum: 0 }), address: Address, instanceType: Type.String({ maxLength: 100 }) },
        { additionalProperties: false },
      ),
      { minItems: 1 },
    ),
    storage: Type.Object(
      {
        data: VolumeSchema,
        dataDir: AbsolutePath,
        /** A separate commitlog / journal volume, when the preset puts the log on its own device (seed 004). */
        log: Type.Optional(
          Type.Object({ device: Type.String({ pattern: "^[a-z0-9]+$" }) }, { additionalProperties: false }),
        ),
        logDir: Type.Optional(AbsolutePath),
      },
      { additionalProperties: false },
    ),
    kit: Type.Object({ sha256: Sha256, version: Type.String({ maxLength: 50 }) }, { additionalProperties: false }),
    /**
     * When every instance terminates itself: the end of the expiry day (UTC), or `maxHours` after it booted if that
     * comes first (the stack's cost brake); and whether the fleet stays after the run's last barrier (keepAfterRun,
     * default false: it shuts itself down).
     */
    lifetime: Type.Object(
      {
        expiry: Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$" }),
        maxHours: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
        keepAfterRun: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    /**
     * What each role's instance is billed for beside its hours (its EBS volumes, its public IPv4 address), as the
     * stack launched it: each instance copies its role's into its status markers (model/instance-billing.ts).
     */
    billing: Type.Optional(
      Type.Object({ data: InstanceBillingSchema, client: InstanceBillingSchema }, { additionalProperties: false }),
    ),
    /** The AMI every instance of the run boots from (pinned per stack; recorded in every result's provenance). */
    ami: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type ClusterDescription = Static<typeof ClusterDescriptionSchema>;
export type ClusterNode = Static<typeof ClusterNodeSchema>;

/** Schema and consistency problems, each naming its field (empty when the description can be booted from). */
export function clusterDescriptionProblems(value: unknown): FieldError[] {
  const errors = checkAgainst(ClusterDescriptionSchema, value);
  if (errors.length > 0) return errors;
  const d = value as ClusterDescription;
  const problems: FieldError[] = [];
  for (const [i, n] of d.nodes.entries()) {
    if (n.index !== i)
      problems.push({ path: `/nodes/${i}/index`, message: `must be ${i} (nodes are listed in index order)` });
  }
  for (const [i, c] of d.clients.entries()) {
    if (c.index !== i)
      problems.push({ path: `/clients/${i}/index`, message: `must be ${i} (clients are listed in index order)` });
  }
  if (new Set(d.nodes.map((n) => n.address)).size !== d.nodes.length)
    problems.push({ path: "/nodes", message: "node addresses must be distinct" });
  if (d.replication > d.nodes.length)
    problems.push({
      path: "/replication",
      message: `${d.replication} copies need at least as many nodes (got ${d.nodes.length})`,
    });
  if ((d.storage.log === undefined) !== (d.storage.logDir === undefined))
    problems.push({ path: "/storage/logDir", message: "a log volume and its mount point go together" });
  if (d.engine === "mongodb" && !d.mongoTopology)
    problems.push({ path: "/mongoTopology", message: "required for mongodb" });
  return problems;
}

export function parseClusterDescription(text: string, where: string): ClusterDescription {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`${where}: not JSON: ${(err as Error).message}`);
  }
  const problems = clusterDescriptionProblems(value);
  if (problems.length > 0)
    throw new Error(
      `${where}: not a ycsb-lab cluster description: ${problems.map((p) => `${p.path} ${p.message}`).join("; ")}`,
    );
  return value as ClusterDescription;
}
