import * as aws from "@pulumi/aws";
import * as pulumi from "@pulumi/pulumi";
import type { MongoTopology } from "../engines/node-context.js";
import { engineRuntime } from "../engines/runtimes.js";
import { ENGINE_VERSIONS } from "../model/engine.js";
import { buildPlan, type Plan } from "../model/plan.js";
import { kitKey } from "../model/results-layout.js";
import {
  checkScenario,
  type Deployment,
  type DeploymentChoice,
  resolveDeployment,
  ScenarioError,
  type ScenarioSpec,
} from "../model/scenario.js";
import { type Addressing, addressing } from "./addressing.js";
import { pinnedAmi } from "./ami.js";
import { zoneChosen } from "./availability-zone.js";
import { onDemandVcpuNeed, type VcpuNeed, vcpuQuotaChecked } from "./capacity.js";
import { ClientFleet, type ClientFleetArgs, checkClientFleetArgs } from "./client-fleet.js";
import { clusterDescription } from "./cluster-description.js";
import type { CostEstimate, Egress, RunCostEstimate } from "./cost.js";
import { checkClusterArgs, checkLogVolume, DatabaseCluster, type DatabaseClusterArgs } from "./database-cluster.js";
import { type DeploymentCost, deploymentCost } from "./deployment-cost.js";
import { failOn } from "./errors.js";
import { type RunLifetime, runLifetime } from "./lifetime.js";
import { BenchmarkNetwork } from "./network.js";
import { ResultsBucket } from "./results-bucket.js";
import { runLayout } from "./run-layout.js";
import { checkFit } from "./sizing.js";
import { checkRunTags, runTags } from "./tags.js";
import { instanceBilling, type LogVolumeSpec, type VolumeLayout, volumeLayout } from "./volumes.js";

export interface BenchmarkScenarioArgs {
  /** The study to reproduce (model/scenarios.ts or your own). */
  spec: ScenarioSpec;
  /** Which cell of it: engine, node count, preset, scale, client count. @default spec.defaults */
  deployment?: DeploymentChoice;
  /** Unique id of this run: tags, S3 prefix `runs/<runId>/`, SSM path. */
  runId: string;
  /** Who owns (and pays for) the run: a tag. */
  owner: string;
  /**
   * ISO date (YYYY-MM-DD): a tag, and the end of that day (UTC) is when every instance terminates itself. Refused when
   * past or before the run's estimated end (infra/lifetime.ts). @default the day the maxHours deadline falls on
   */
  expiry?: string;
  /** Every instance also terminates itself this many hours after it booted, if that comes before the expiry. @default twice the plan's estimated hours */
  maxHours?: number;
  /** Keep the fleet running after the run's last barrier (or a failure) until the brake, to inspect it; by default it powers off. @default false */
  keepAfterRun?: boolean;
  /** The time of this preview or up: the expiry is checked against it. @default now */
  now?: Date;
  /** Clients on Spot capacity (cheaper; an interruption ends the run, marked incomplete). @default false */
  clientSpot?: boolean;
  /** Data nodes on Spot capacity: only when asked (an interruption loses the node). @default false */
  dataNodeSpot?: boolean;
  /** AWS region the provider deploys to (S3 endpoint, SSM calls in user-data). */
  region: string;
  /**
   * The kit every instance runs (`ycsb-lab kit build --engine E`, kit/build.ts): uploaded to kits/<sha256>.tar.gz
   * in the results bucket, fetched and checked by each instance's user-data. No git clone, no npm, no build on an
   * instance.
   */
  kit: { path: string; sha256: string; version: string };
  /** The Pulumi stack, recorded in the run's results as provenance. @default none */
  stack?: string;
  /**
   * Availability zone, pinned. @default of the zones offering both instance types, the best Spot placement score for
   * the data nodes and the clients, ties by name (infra/availability-zone.ts); kept by later `up`s of the stack
   */
  availabilityZone?: pulumi.Input<string>;
  /** First two octets of the VPC's /16. @default "10.42" */
  vpcBase?: string;
  /** MongoDB layout. @default "replica-set" when replication > 1 (seed 002), else "sharded" (seeds 000/001) */
  mongoTopology?: MongoTopology;
  /** Use an existing results bucket instead of creating one. @default a new ResultsBucket */
  resultsBucketName?: pulumi.Input<string>;
  /**
   * Cluster placement group for the data nodes, of one instance type as AWS advises (EC2 user guide, "Placement
   * strategies": cluster). Clients stay out of it: they talk to the data nodes only, never to each other, in the same
   * zone. @default true
   */
  placementGroup?: boolean;
  /**
   * Reserve the data nodes' capacity in their placement group before any of them launches (an On-Demand Capacity
   * Reservation, as the EC2 user guide's "Placement group rules and limitations" recommends for cluster groups): a
   * zone without capacity then fails the up before anything runs, instead of part of the cluster waiting for the
   * rest. The reservation is billed like the instances until its end (the run's maxHours) or `pulumi destroy`, used
   * or not. @default false
   */
  reserveCapacity?: boolean;
  /**
   * How instances reach the internet for their downloads: a public IPv4 address each, or none and one NAT gateway
   * (infra/network.ts). @default the cheaper of the two for the run's estimate (infra/deployment-cost.ts): NAT for
   * a large fleet, public addresses for a small one
   */
  egress?: Egress;
  /** Check at preview that the account's On-Demand vCPU quota (L-1216C47A) holds the stack (infra/capacity.ts). @default true */
  checkVcpuQuota?: boolean;
  /** The commit log / journal volume, where the study put the log on a device of its own. @default 100 GiB gp3, its included IOPS and throughput */
  logVolume?: LogVolumeSpec;
  /**
   * AMI id for every instance. @default the newest official Debian 12 image at the stack's first `up`, pinned for
   * later ones (infra/ami.ts pinnedAmi) and recorded in every result's provenance
   */
  amiId?: pulumi.Input<string>;
}

/** Everything one benchmark run needs, from one typed scenario spec: network, bucket, cluster, clients, plan. */
export class BenchmarkScenario extends pulumi.ComponentResource {
  public readonly runId: string;
  public readonly deployment: Deployment;
  public readonly network: BenchmarkNetwork;
  public readonly cluster: DatabaseCluster;
  public readonly clients: ClientFleet;
  public readonly bucketName: pulumi.Output<string>;
  /** s3://bucket/runs/<runId>/ */
  public readonly resultsPrefix: pulumi.Output<string>;
  public readonly planUrl: pulumi.Output<string>;
  public readonly readyMarkerUrl: pulumi.Output<string>;
  /** host:port the clients connect to. */
  public readonly endpoints: string[];
  public readonly estimatedCostPerHour: number;
  /** What `pulumi destroy` leaves of the results, in words. */
  public readonly resultsKeptOnDestroy: pulumi.Output<string>;
  public readonly cost: CostEstimate;
  public readonly runCost: RunCostEstimate;

  constructor(name: string, args: BenchmarkScenarioArgs, opts?: pulumi.ComponentResourceOptions) {
    const plan = planScenario(args);
    super("ycsb-lab:index:BenchmarkScenario", name, {}, opts);
    for (const warning of plan.warnings) void pulumi.log.warn(warning, this);
    const p = { parent: this };
    const { deployment: d, addresses, tags } = plan;
    const runtime = engineRuntime(d.engine);
    const layout = runLayout(args.runId);

    this.network = new BenchmarkNetwork(
      `${name}-net`,
      {
        region: args.region,
        ports: runtime.ports,
        vpcCidr: addresses.vpcCidr,
        dataSubnetCidr: addresses.dataSubnetCidr,
        clientSubnetCidr: addresses.clientSubnetCidr,
        publicSubnetCidr: addresses.publicSubnetCidr,
        egress: plan.cost.egress,
        // The zone waits for the quota check: nothing is placed in it while the account cannot hold the stack.
        availabilityZone: pulumi
          .all([
            args.availabilityZone ?? zoneChosen(zoneGroups(d), args.region, this),
            args.checkVcpuQuota === false ? 0 : vcpuQuotaChecked(plan.vcpus, args.region, this),
          ])
          .apply(([zone]) => zone),
        keepZone: args.availabilityZone === undefined,
        tags,
      },
      p,
    );
    const results = args.resultsBucketName ? undefined : new ResultsBucket(`${name}-results`, { tags }, p);
    const bucketName = args.resultsBucketName ? pulumi.output(args.resultsBucketName) : results!.bucketName;
    this.resultsKeptOnDestroy = results
      ? results.keptOnDestroy
      : pulumi.interpolate`the results live in ${bucketName}, which this stack does not own`;
    // The plan and the cluster description are part of the run's record: a destroy keeps them with the results.
    const json = (suffix: string, key: string, body: pulumi.Input<string>) =>
      new aws.s3.BucketObjectv2(
        `${name}-${suffix}`,
        {
          bucket: bucketName,
          key,
          contentType: "application/json",
          content: body,
          serverSideEncryption: "AES256",
          tags,
        },
        { parent: this, retainOnDelete: true },
      );
    const ami = args.amiId ? pulumi.output(args.amiId) : pinnedAmi(name, args.stack ?? name, tags, this);
    // The kit is shared by every run that uses the bucket (its key is its content hash): a destroy keeps it.
    const kitObject = new aws.s3.BucketObjectv2(
      `${name}-kit`,
      {
        bucket: bucketName,
        key: kitKey(args.kit.sha256),
        source: new pulumi.asset.FileAsset(args.kit.path),
        contentType: "application/gzip",
        serverSideEncryption: "AES256",
        tags,
      },
      { parent: this, retainOnDelete: true },
    );
    // The plan (model/plan.ts buildPlan) the clients execute, and what every instance boots from.
    const planObject = json("plan", layout.planKey, JSON.stringify(plan.plan, null, 2));
    const clusterObject = json(
      "cluster",
      layout.clusterInfoKey,
      pulumi.all([bucketName, ami]).apply(([bucket, amiId]) =>
        JSON.stringify(
          clusterDescription({
            ami: amiId,
            lifetime: plan.lifetime,
            runId: args.runId,
            ...(args.stack ? { stack: args.stack } : {}),
            deployment: d,
            version: plan.cluster.version ?? ENGINE_VERSIONS[d.engine],
            nodeIps: addresses.dataNodeIps,
            clientIps: plan.clients.clientIps.slice(0, d.clients),
            storage: plan.volumes.storage,
            billing: instanceBilling(plan.volumes, plan.cost.egress),
            ...(plan.cluster.mongoTopology ? { mongoTopology: plan.cluster.mongoTopology } : {}),
            serverSettings: plan.cluster.serverSettings ?? {},
            region: args.region,
            bucket,
            parameterPath: layout.parameterPath,
            kit: args.kit,
          }),
          null,
          2,
        ),
      ),
    );
    this.cluster = new DatabaseCluster(
      `${name}-db`,
      {
        ...plan.cluster,
        amiId: ami,
        subnetId: this.network.dataSubnetId,
        securityGroupId: this.network.dataSecurityGroupId,
        resultsBucketName: bucketName,
        availabilityZone: this.network.availabilityZone,
      },
      { parent: this, dependsOn: [kitObject, clusterObject] },
    );
    this.clients = new ClientFleet(
      `${name}-clients`,
      {
        ...plan.clients,
        amiId: ami,
        subnetId: this.network.clientSubnetId,
        securityGroupId: this.network.clientSecurityGroupId,
        resultsBucketName: bucketName,
      },
      { parent: this, dependsOn: [kitObject, planObject, clusterObject] },
    );

    this.runId = args.runId;
    this.deployment = d;
    this.bucketName = bucketName;
    this.resultsPrefix = pulumi.interpolate`s3://${bucketName}/${layout.resultsPrefix}`;
    this.planUrl = pulumi.interpolate`s3://${bucketName}/${layout.planKey}`;
    this.readyMarkerUrl = this.cluster.readyMarkerUrl;
    this.endpoints = this.cluster.endpoints;
    this.cost = plan.cost;
    this.runCost = plan.runCost;
    this.estimatedCostPerHour = plan.cost.usdPerHour;
    this.registerOutputs({
      runId: this.runId,
      endpoints: this.endpoints,
      resultsPrefix: this.resultsPrefix,
      planUrl: this.planUrl,
      readyMarkerUrl: this.readyMarkerUrl,
      estimatedCostPerHour: this.estimatedCostPerHour,
      resultsKeptOnDestroy: this.resultsKeptOnDestroy,
    });
  }
}

export interface ScenarioPlan {
  deployment: Deployment;
  /** The runner's plan (model/plan.ts), uploaded to the run's prefix. */
  plan: Plan;
  addresses: Addressing;
  tags: Record<string, string>;
  cluster: Omit<DatabaseClusterArgs, "subnetId" | "securityGroupId" | "resultsBucketName">;
  clients: Omit<ClientFleetArgs, "subnetId" | "securityGroupId" | "resultsBucketName">;
  cost: CostEstimate;
  /** The whole run: estimated hours, its cost, and what the fleet costs per day left running. */
  runCost: RunCostEstimate;
  /** The egress not chosen, and the run's cost with it. */
  otherEgress: DeploymentCost["otherEgress"];
  /** What each data node attaches and mounts. */
  volumes: VolumeLayout;
  /** When the fleet ends itself (infra/lifetime.ts), as cluster.json tells every instance. */
  lifetime: RunLifetime;
  /** The On-Demand vCPUs the stack needs at once (checked against the account's quota at preview). */
  vcpus: VcpuNeed;
  /** What preview should say but not refuse (a far expiry). */
  warnings: string[];
}

/**
 * Every decision of a BenchmarkScenario as plain values, checked in full before any resource exists: a bad scenario
 * fails here with a ResourceError naming the field (unknown engine, 0 nodes, a preset the engine lacks, data too big).
 */
export function planScenario(args: BenchmarkScenarioArgs): ScenarioPlan {
  const spec = args.spec;
  failOn(
    "BenchmarkScenario",
    checkScenario(spec).map((e) => ({ field: `spec.${e.field}`, message: e.message.replace(`${e.field}: `, "") })),
  );
  let d: Deployment;
  let runPlan: Plan;
  try {
    d = resolveDeployment(spec, args.deployment ?? {});
    runPlan = buildPlan(spec, args.deployment ?? {});
  } catch (e) {
    if (e instanceof ScenarioError)
      failOn("BenchmarkScenario", [{ field: e.field, message: e.message.replace(`${e.field}: `, "") }]);
    throw e;
  }
  failOn("BenchmarkScenario", checkLogVolume(args.logVolume));
  if (!/^[0-9a-f]{64}$/.test(args.kit?.sha256 ?? "") || !args.kit?.path)
    failOn("BenchmarkScenario", [
      { field: "kit", message: "a built kit: { path, sha256, version } from `ycsb-lab kit build` (kit/build.ts)" },
    ]);
  failOn("BenchmarkScenario", checkFit(d, spec.dataNode.storage));
  let addresses: Addressing;
  try {
    addresses = addressing(d.nodes, d.clients, args.vpcBase);
  } catch (e) {
    const [field, ...rest] = (e as Error).message.split(": ");
    failOn("BenchmarkScenario", [{ field: field!, message: rest.join(": ") }]);
    throw e;
  }
  // The run's brakes from its estimated hours (infra/lifetime.ts): an expiry before the run's end is refused here.
  const log = args.logVolume ?? {};
  const {
    hourly: cost,
    run: runCost,
    otherEgress,
  } = deploymentCost(d, spec.dataNode.storage, runPlan, log, args.egress);
  const { lifetime, problems: lifetimeProblems, warnings } = runLifetime(args, runCost.hours, args.now ?? new Date());
  failOn("BenchmarkScenario", lifetimeProblems);
  failOn(
    "BenchmarkScenario",
    checkRunTags({ scenario: spec.name, runId: args.runId, owner: args.owner, expiry: lifetime.expiry }),
  );
  const tags = runTags({ scenario: spec.name, runId: args.runId, owner: args.owner, expiry: lifetime.expiry });
  const cluster = clusterPlan(args, d, addresses, lifetime, tags);
  const clients = clientPlan(args, d, addresses, lifetime, tags);
  const placeholders = {
    subnetId: "",
    securityGroupId: "",
    resultsBucketName: "",
    availabilityZone: "decided at deploy time",
  };
  failOn("BenchmarkScenario", checkClusterArgs({ ...cluster, ...placeholders }));
  failOn("BenchmarkScenario", checkClientFleetArgs({ ...clients, ...placeholders }));
  const volumes = volumeLayout(spec.dataNode.storage, d.ownLogDevice, log);
  const vcpus = onDemandVcpuNeed(d, { dataNodes: args.dataNodeSpot ?? false, clients: args.clientSpot ?? false });
  return {
    deployment: d,
    plan: runPlan,
    addresses,
    tags,
    cluster,
    clients,
    cost,
    runCost,
    otherEgress,
    volumes,
    lifetime,
    warnings,
    vcpus,
  };
}

/** The instance groups a zone must hold: the data nodes and the clients, each of one type. */
const zoneGroups = (d: Deployment) => [
  { instanceType: d.dataInstanceType, count: d.nodes },
  { instanceType: d.clientInstanceType, count: d.clients },
];

/** The DatabaseCluster's plain args of a planned scenario (its network and bucket come at deploy time). */
function clusterPlan(
  args: BenchmarkScenarioArgs,
  d: Deployment,
  addresses: Addressing,
  lifetime: RunLifetime,
  tags: Record<string, string>,
): ScenarioPlan["cluster"] {
  const spec = args.spec;
  return {
    engine: d.engine,
    version: ENGINE_VERSIONS[d.engine],
    nodeIps: addresses.dataNodeIps,
    instanceType: d.dataInstanceType,
    storage: spec.dataNode.storage,
    preset: d.preset,
    loadPreset: d.loadPreset,
    replication: d.replication,
    placementGroup: args.placementGroup ?? true,
    // The reservation ends an hour after the fleet's own deadline (instances boot a little after the up).
    ...(args.reserveCapacity
      ? {
          capacityReservation: {
            endDate: new Date((args.now ?? new Date()).getTime() + (lifetime.maxHours + 1) * 3_600_000).toISOString(),
          },
        }
      : {}),
    logVolume: d.ownLogDevice,
    ...(args.logVolume ? { logVolumeSpec: args.logVolume } : {}),
    ...(d.engine === "mongodb"
      ? { mongoTopology: args.mongoTopology ?? (d.replication > 1 ? "replica-set" : "sharded") }
      : {}),
    lifetime: { expiry: lifetime.expiry, maxHours: lifetime.maxHours },
    ...(lifetime.keepAfterRun ? { keepAfterRun: true } : {}),
    recordCount: d.recordCount,
    fieldCount: d.fieldCount,
    serverSettings: spec.serverSettings?.[d.engine] ?? {},
    runId: args.runId,
    region: args.region,
    kit: { sha256: args.kit.sha256 },
    ...(args.amiId ? { amiId: args.amiId } : {}),
    ...(args.dataNodeSpot ? { spot: true } : {}),
    tags,
  };
}

/** The ClientFleet's plain args of a planned scenario. */
function clientPlan(
  args: BenchmarkScenarioArgs,
  d: Deployment,
  addresses: Addressing,
  lifetime: RunLifetime,
  tags: Record<string, string>,
): ScenarioPlan["clients"] {
  return {
    clients: { count: d.clients },
    clientIps: addresses.clientIps,
    instanceType: d.clientInstanceType,
    threadsPerClient: d.threadsPerClient,
    lifetime: { expiry: lifetime.expiry, maxHours: lifetime.maxHours },
    ...(lifetime.keepAfterRun ? { keepAfterRun: true } : {}),
    runId: args.runId,
    region: args.region,
    kit: { sha256: args.kit.sha256 },
    ...(args.amiId ? { amiId: args.amiId } : {}),
    ...(args.clientSpot ? { spot: true } : {}),
    tags,
  };
}
