import * as aws from "@pulumi/aws";
import * as pulumi from "@pulumi/pulumi";
import type { MongoTopology } from "../engines/node-context.js";
import { engineRuntime } from "../engines/runtimes.js";
import { type Engine, isEngine } from "../model/engine.js";
import { instanceType as lookupType } from "../model/instance-types.js";
import { DURABILITY_PRESETS, isPreset, type Preset } from "../model/presets.js";
import { kitKey } from "../model/results-layout.js";
import type { StorageSpec } from "../model/scenario.js";
import { distributionAmi } from "./ami.js";
import { failOn, isInteger } from "./errors.js";
import { instanceRole, SAFE_INSTANCE_DEFAULTS, SPOT_ONE_TIME } from "./instance-role.js";
import { dataNodePolicy } from "./policies.js";
import { runLayout } from "./run-layout.js";
import { checkStorage } from "./sizing.js";
import { instanceUserData } from "./user-data.js";
import { type LogVolumeSpec, type VolumeLayout, volumeLayout } from "./volumes.js";

export interface DatabaseClusterArgs {
  /** cassandra, mongodb, couchbase or hbase. Required, no default. */
  engine: Engine;
  /** Engine version to install. @default ENGINE_VERSIONS[engine] (model/engine.ts) */
  version?: string;
  /** Private IPs of the data nodes, one per node (plain values: they decide how many instances exist). */
  nodeIps: string[];
  /** EC2 type of every data node (must be in model/instance-types.ts). */
  instanceType: string;
  /** Data volume: the instance store, or an EBS volume of a type, size and IOPS. */
  storage: StorageSpec;
  /** Durability preset (model/presets.ts): decides config files and whether the log gets its own volume. */
  preset: Preset;
  /** Preset of the load phase. @default preset */
  loadPreset?: Preset;
  /** Copies of each record. @default 1 */
  replication?: number;
  /** Launch the nodes in a cluster placement group (low, even latency between nodes). @default true */
  placementGroup?: boolean;
  /**
   * Reserve the nodes' On-Demand capacity in the placement group before they launch, until `endDate` (RFC 3339): the
   * EC2 user guide's advice for cluster groups ("Placement group rules and limitations"). Billed like the instances
   * until then, used or not. Needs placementGroup, availabilityZone and no Spot. @default none
   */
  capacityReservation?: { endDate: string };
  /** The zone of the subnet (the reservation's zone). Required with capacityReservation. */
  availabilityZone?: pulumi.Input<string>;
  /** Run data nodes on Spot capacity (an interruption ends the run: never the default for data). @default false */
  spot?: boolean;
  /** Put the commit log / journal on a gp3 volume of its own. @default the preset's choice (model/presets.ts) */
  logVolume?: boolean;
  /** Size, IOPS and throughput of that volume. @default 100 GiB, gp3's included 3000 IOPS and 125 MiB/s */
  logVolumeSpec?: LogVolumeSpec;
  /** MongoDB only: one shard per node (seeds 000/001) or per-shard replica sets (seed 002). @default "sharded" */
  mongoTopology?: MongoTopology;
  /** Records the scenario loads in total (HBase/MongoDB pre-split). Required, no default. */
  recordCount: number;
  /** YCSB fieldcount: columns of the Cassandra table. Required, no default. */
  fieldCount: number;
  /** Server settings beyond the preset, e.g. seed 003's Cassandra timeouts. @default {} */
  serverSettings?: Record<string, string>;
  /** Subnet the instances launch in (BenchmarkNetwork.dataSubnetId or clientSubnetId). Required, no default. */
  subnetId: pulumi.Input<string>;
  /** Security group of the instances (BenchmarkNetwork). Required, no default. */
  securityGroupId: pulumi.Input<string>;
  /** Bucket holding the run's cluster description and kit; the leader writes the readiness marker into it. */
  resultsBucketName: pulumi.Input<string>;
  /**
   * The kit every node runs (kit/build.ts), already uploaded to kits/<sha256>.tar.gz in the bucket (BenchmarkScenario
   * uploads it). Nodes boot from runs/<runId>/cluster.json, which BenchmarkScenario uploads too.
   */
  kit: { sha256: string };
  /** When every node powers itself off whatever happens (the brake user-data arms first). Required, no default. */
  lifetime: { expiry: string; maxHours?: number };
  /** Keep the nodes after the run (or a failure) until the brake, for inspection. @default false */
  keepAfterRun?: boolean;
  /** Run id: tags, S3 prefix `runs/<runId>/`, SSM path. Required, no default. */
  runId: string;
  /** AWS region of the provider, for SSM and S3 calls at boot. Required, no default. */
  region: string;
  /** AMI id. @default the newest official Debian 12 image (aws.ec2.getAmi) */
  amiId?: pulumi.Input<string>;
  /** Tags on every resource. @default {} */
  tags?: Record<string, string>;
}

/**
 * A database cluster of one engine on EC2: one instance per node, each booting with `ycsb-lab boot --role data`
 * from the kit (infra/user-data.ts), which installs, configures and joins it; node 0 forms the cluster.
 */
export class DatabaseCluster extends pulumi.ComponentResource {
  public readonly instanceIds: pulumi.Output<string>[];
  public readonly privateIps: string[];
  /** host:port list the YCSB clients connect to. */
  public readonly endpoints: string[];
  public readonly readyMarkerUrl: pulumi.Output<string>;
  /** Where the boot command mounts the data (and log) volume: the `storage` of the run's cluster description. */
  public readonly storage: VolumeLayout["storage"];
  /** The cluster placement group, for the clients to join (undefined when placementGroup is false). */
  public readonly placementGroupName?: pulumi.Output<string>;

  constructor(name: string, args: DatabaseClusterArgs, opts?: pulumi.ComponentResourceOptions) {
    failOn("DatabaseCluster", checkClusterArgs(args));
    super("ycsb-lab:index:DatabaseCluster", name, {}, opts);
    const p = { parent: this };
    const runtime = engineRuntime(args.engine);
    const tags = { ...(args.tags ?? {}), "ycsb-lab:engine": args.engine, "ycsb-lab:preset": args.preset };
    const layout = runLayout(args.runId);
    const ami = args.amiId ?? distributionAmi(this);
    const identity = aws.getCallerIdentityOutput({}, p);

    const profile = instanceRole(
      `${name}-node`,
      pulumi.all([args.resultsBucketName, identity.accountId]).apply(([bucketName, accountId]) =>
        JSON.stringify(
          dataNodePolicy({
            bucketName,
            accountId,
            region: args.region,
            runId: args.runId,
            ...layout,
            kitKey: kitKey(args.kit.sha256),
          }),
        ),
      ),
      tags,
      this,
    );
    const placement =
      (args.placementGroup ?? true)
        ? new aws.ec2.PlacementGroup(`${name}-placement`, { strategy: "cluster", tags }, p)
        : undefined;

    const reservation =
      placement && args.capacityReservation ? reserveCapacity(name, args, placement, tags, this) : undefined;
    const volumes = volumeLayout(
      args.storage,
      args.logVolume ?? runtime.wantsLogVolume(args.preset),
      args.logVolumeSpec,
    );
    this.instanceIds = args.nodeIps.map((ip, index) => {
      const userData = pulumi.output(args.resultsBucketName).apply((bucket) =>
        instanceUserData({
          role: "data",
          index,
          runId: args.runId,
          region: args.region,
          bucket,
          kitSha256: args.kit.sha256,
          lifetime: args.lifetime,
          ...(args.keepAfterRun ? { keepAfterRun: true } : {}),
        }),
      );
      const instance = new aws.ec2.Instance(
        `${name}-node-${index}`,
        {
          ami,
          instanceType: args.instanceType,
          subnetId: args.subnetId,
          privateIp: ip,
          vpcSecurityGroupIds: [args.securityGroupId],
          iamInstanceProfile: profile.name,
          ...(placement ? { placementGroup: placement.name } : {}),
          ...(reservation
            ? {
                capacityReservationSpecification: {
                  capacityReservationTarget: { capacityReservationId: reservation.id },
                },
              }
            : {}),
          ...SAFE_INSTANCE_DEFAULTS,
          ...(args.spot ? SPOT_ONE_TIME : {}),
          ebsBlockDevices: volumes.ebs,
          userData,
          userDataReplaceOnChange: true,
          tags: { ...tags, Name: `${name}-node-${index}`, "ycsb-lab:role": index === 0 ? "leader" : "member" },
        },
        // A newer image never replaces a running node (the stack pins its AMI; infra/ami.ts).
        // A new run (user-data) replaces the instance at its fixed address, which EC2 holds until the old one is terminated
        // (EC2 user guide, "Private IPv4 addresses"): the old one goes first, or the launch fails InvalidIPAddress.InUse.
        { parent: this, ignoreChanges: ["ami"], deleteBeforeReplace: true },
      );
      return instance.id;
    });
    this.storage = volumes.storage;
    if (placement) this.placementGroupName = placement.name;
    this.privateIps = args.nodeIps;
    const clientPort = runtime.ports.client[0]!.from;
    // MongoDB clients go through the mongos on every node; the others accept any node as a contact point.
    this.endpoints = args.nodeIps.map((ip) => `${ip}:${clientPort}`);
    this.readyMarkerUrl = pulumi.interpolate`s3://${args.resultsBucketName}/${layout.readyMarkerKey}`;
    this.registerOutputs({
      instanceIds: this.instanceIds,
      privateIps: this.privateIps,
      endpoints: this.endpoints,
      readyMarkerUrl: this.readyMarkerUrl,
    });
  }
}

/** One reservation for every node, in the placement group: all of the capacity or a failed up before any launch. */
function reserveCapacity(
  name: string,
  args: DatabaseClusterArgs,
  placement: aws.ec2.PlacementGroup,
  tags: Record<string, string>,
  parent: pulumi.Resource,
): aws.ec2.CapacityReservation {
  return new aws.ec2.CapacityReservation(
    `${name}-capacity`,
    {
      availabilityZone: args.availabilityZone!,
      instanceCount: args.nodeIps.length,
      instanceType: args.instanceType,
      instancePlatform: "Linux/UNIX",
      placementGroupArn: placement.arn,
      // Only this cluster's instances, which name it, use the reservation.
      instanceMatchCriteria: "targeted",
      endDateType: "limited",
      endDate: args.capacityReservation!.endDate,
      tags,
    },
    { parent },
  );
}

export function checkClusterArgs(args: DatabaseClusterArgs): Array<{ field: string; message: string }> {
  const problems: Array<{ field: string; message: string }> = [];
  if (!isEngine(args.engine)) return [{ field: "engine", message: `unknown engine "${String(args.engine)}"` }];
  if (!isPreset(args.preset) || !DURABILITY_PRESETS[args.engine][args.preset])
    problems.push({ field: "preset", message: `engine ${args.engine} has no preset "${String(args.preset)}"` });
  if (args.loadPreset !== undefined && !isPreset(args.loadPreset))
    problems.push({ field: "loadPreset", message: `unknown preset "${String(args.loadPreset)}"` });
  if (!Array.isArray(args.nodeIps) || args.nodeIps.length < 1)
    problems.push({ field: "nodes", message: "a cluster needs at least 1 node" });
  if (new Set(args.nodeIps ?? []).size !== (args.nodeIps ?? []).length)
    problems.push({ field: "nodeIps", message: "node IPs must be distinct" });
  const replication = args.replication ?? 1;
  if (!isInteger(replication, 1) || replication > (args.nodeIps?.length ?? 0))
    problems.push({ field: "replication", message: `1..nodes (${args.nodeIps?.length ?? 0}), got ${replication}` });
  if (args.engine === "couchbase" && replication > 4)
    problems.push({ field: "replication", message: "Couchbase buckets hold at most 3 replicas (replication 4)" });
  if (args.mongoTopology !== undefined && args.engine !== "mongodb")
    problems.push({ field: "mongoTopology", message: `only for mongodb, not ${args.engine}` });
  if (args.mongoTopology === "sharded" && replication > 1)
    problems.push({
      field: "mongoTopology",
      message: `"sharded" keeps one copy per shard; use "replica-set" for replication ${replication}`,
    });
  if (!/^[0-9a-f]{64}$/.test(args.kit?.sha256 ?? ""))
    problems.push({
      field: "kit.sha256",
      message: `the kit archive's SHA-256 (64 hex digits), got "${args.kit?.sha256}"`,
    });
  if (!isInteger(args.recordCount, 1))
    problems.push({ field: "recordCount", message: `a whole number >= 1, got ${args.recordCount}` });
  if (!isInteger(args.fieldCount, 1))
    problems.push({ field: "fieldCount", message: `a whole number >= 1, got ${args.fieldCount}` });
  problems.push(...checkLogVolume(args.logVolumeSpec));
  if (args.capacityReservation) {
    if (args.placementGroup === false)
      problems.push({
        field: "capacityReservation",
        message: "reserves capacity in the placement group: needs placementGroup",
      });
    if (args.spot)
      problems.push({
        field: "capacityReservation",
        message: "an On-Demand Capacity Reservation cannot hold Spot instances",
      });
    if (!args.availabilityZone)
      problems.push({
        field: "availabilityZone",
        message: "the reservation's zone is required with capacityReservation",
      });
    if (Number.isNaN(Date.parse(args.capacityReservation.endDate)))
      problems.push({
        field: "capacityReservation.endDate",
        message: `an RFC 3339 time, got "${args.capacityReservation.endDate}"`,
      });
  }
  for (const message of engineRuntime(args.engine).checkServerSettings(args.serverSettings ?? {}))
    problems.push({ field: `serverSettings.${args.engine}`, message });
  try {
    problems.push(
      ...checkStorage(args.storage, lookupType(args.instanceType, "instanceType")).map((x) => ({
        ...x,
        field: x.field.replace(/^dataNode\./, ""),
      })),
    );
  } catch (e) {
    problems.push({ field: "instanceType", message: (e as Error).message.replace(/^instanceType: /, "") });
  }
  return problems;
}

/** gp3's limits (EBS user guide, "General Purpose SSD volumes"): 1-16384 GiB, 3000-16000 IOPS, 125-1000 MiB/s. */
export function checkLogVolume(v: LogVolumeSpec | undefined): Array<{ field: string; message: string }> {
  const problems: Array<{ field: string; message: string }> = [];
  if (!v) return problems;
  if (v.sizeGiB !== undefined && !(isInteger(v.sizeGiB, 1) && v.sizeGiB <= 16384))
    problems.push({ field: "logVolume.sizeGiB", message: `1..16384, got ${v.sizeGiB}` });
  if (v.iops !== undefined && !(isInteger(v.iops, 3000) && v.iops <= 16000))
    problems.push({ field: "logVolume.iops", message: `gp3 takes 3000..16000, got ${v.iops}` });
  if (v.throughputMiBs !== undefined && !(isInteger(v.throughputMiBs, 125) && v.throughputMiBs <= 1000))
    problems.push({ field: "logVolume.throughputMiBs", message: `gp3 takes 125..1000 MiB/s, got ${v.throughputMiBs}` });
  return problems;
}
