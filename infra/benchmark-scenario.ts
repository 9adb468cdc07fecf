import * as aws from "@pulumi/aws";
import * as pulumi from "@pulumi/pulumi";
import { engineRuntime } from "../engines/runtimes.js";
import type { MongoTopology } from "../engines/node-context.js";
import { ENGINE_VERSIONS } from "../model/engine.js";
import { checkScenario, resolveDeployment, ScenarioError, type Deployment, type DeploymentChoice, type ScenarioSpec } from "../model/scenario.js";
import { buildPlan, type Plan } from "../model/plan.js";
import { addressing, type Addressing } from "./addressing.js";
import { ClientFleet, checkClientFleetArgs, type ClientFleetArgs } from "./client-fleet.js";
import type { CostEstimate, RunCostEstimate } from "./cost.js";
import { deploymentCost } from "./deployment-cost.js";
import { DatabaseCluster, checkClusterArgs, checkLogVolume, type DatabaseClusterArgs } from "./database-cluster.js";
import { failOn } from "./errors.js";
import { BenchmarkNetwork } from "./network.js";
import { ResultsBucket } from "./results-bucket.js";
import { pinnedAmi } from "./ami.js";
import { zoneOfferingBoth } from "./availability-zone.js";
import { clusterDescription } from "./cluster-description.js";
import { kitKey } from "../model/results-layout.js";
import { volumeLayout, type LogVolumeSpec, type VolumeLayout } from "./volumes.js";
import { runLayout } from "./run-layout.js";
import { checkFit } from "./sizing.js";
import { checkRunTags, runTags } from "./tags.js";

export interface BenchmarkScenarioArgs {
  /** The study to reproduce (model/scenarios.ts or your own). */
  spec: ScenarioSpec;
  /** Which cell of it: engine, node count, preset, scale, client count. @default spec.defaults */
  deployment?: DeploymentChoice;
  /** Unique id of this run: tags, S3 prefix `runs/<runId>/`, SSM path. */
  runId: string;
  /** Who owns (and pays for) the run: a tag. */
  owner: string;
  /** ISO date (YYYY-MM-DD): a tag, and the end of that day (UTC) is when every instance terminates itself. */
  expiry: string;
  /** Every instance also terminates itself this many hours after it booted, if that comes before the expiry. @default none */
  maxHours?: number;
  /** Keep the instances after the run (or a failure) until the brake, for inspection; by default they power off. @default false */
  keepAfterRun?: boolean;
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
  /** Availability zone. @default the first zone offering both the data nodes' and the clients' instance types */
  availabilityZone?: pulumi.Input<string>;
  /** First two octets of the VPC's /16. @default "10.42" */
  vpcBase?: string;
  /** MongoDB layout. @default "replica-set" when replication > 1 (seed 002), else "sharded" (seeds 000/001) */
  mongoTopology?: MongoTopology;
  /** Use an existing results bucket instead of creating one. @default a new ResultsBucket */
  resultsBucketName?: pulumi.Input<string>;
  /** Cluster placement group for the data nodes. @default true */
  placementGroup?: boolean;
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
        availabilityZone: args.availabilityZone ?? zoneOfferingBoth([d.dataInstanceType, d.clientInstanceType], args.region, this),
        tags,
      },
      p,
    );
    const results = args.resultsBucketName ? undefined : new ResultsBucket(`${name}-results`, { tags }, p);
    const bucketName = args.resultsBucketName ? pulumi.output(args.resultsBucketName) : results!.bucketName;
    this.resultsKeptOnDestroy = results ? results.keptOnDestroy : pulumi.interpolate`the results live in ${bucketName}, which this stack does not own`;
    // The plan and the cluster description are part of the run's record: a destroy keeps them with the results.
    const json = (suffix: string, key: string, body: pulumi.Input<string>) =>
      new aws.s3.BucketObjectv2(`${name}-${suffix}`, { bucket: bucketName, key, contentType: "application/json", content: body, serverSideEncryption: "AES256", tags }, { parent: this, retainOnDelete: true });
    const ami = args.amiId ? pulumi.output(args.amiId) : pinnedAmi(name, args.stack ?? name, tags, this);
    // The kit is shared by every run that uses the bucket (its key is its content hash): a destroy keeps it.
    const kitObject = new aws.s3.BucketObjectv2(
      `${name}-kit`,
      { bucket: bucketName, key: kitKey(args.kit.sha256), source: new pulumi.asset.FileAsset(args.kit.path), contentType: "application/gzip", serverSideEncryption: "AES256", tags },
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
            lifetime: { expiry: args.expiry, ...(args.maxHours !== undefined ? { maxHours: args.maxHours } : {}) },
            runId: args.runId,
            ...(args.stack ? { stack: args.stack } : {}),
            deployment: d,
            version: plan.cluster.version ?? ENGINE_VERSIONS[d.engine],
            nodeIps: addresses.dataNodeIps,
            clientIps: plan.clients.clientIps.slice(0, d.clients),
            storage: plan.volumes.storage,
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
      { ...plan.cluster, amiId: ami, subnetId: this.network.dataSubnetId, securityGroupId: this.network.dataSecurityGroupId, resultsBucketName: bucketName },
      { parent: this, dependsOn: [kitObject, clusterObject] },
    );
    this.clients = new ClientFleet(
      `${name}-clients`,
      {
        ...plan.clients,
        amiId: ami,
        ...(this.cluster.placementGroupName ? { placementGroupName: this.cluster.placementGroupName } : {}),
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
  /** What each data node attaches and mounts. */
  volumes: VolumeLayout;
}

/**
 * Every decision of a BenchmarkScenario as plain values, checked in full before any resource exists: a bad scenario
 * fails here with a ResourceError naming the field (unknown engine, 0 nodes, a preset the engine lacks, data too big).
 */
export function planScenario(args: BenchmarkScenarioArgs): ScenarioPlan {
  const spec = args.spec;
  failOn("BenchmarkScenario", checkScenario(spec).map((e) => ({ field: `spec.${e.field}`, message: e.message.replace(`${e.field}: `, "") })));
  let d: Deployment;
  let runPlan: Plan;
  try {
    d = resolveDeployment(spec, args.deployment ?? {});
    runPlan = buildPlan(spec, args.deployment ?? {});
  } catch (e) {
    if (e instanceof ScenarioError) failOn("BenchmarkScenario", [{ field: e.field, message: e.message.replace(`${e.field}: `, "") }]);
    throw e;
  }
  failOn("BenchmarkScenario", checkRunTags({ scenario: spec.name, runId: args.runId, owner: args.owner, expiry: args.expiry }));
  failOn("BenchmarkScenario", checkLogVolume(args.logVolume));
  if (args.maxHours !== undefined && !(Number.isFinite(args.maxHours) && args.maxHours > 0)) failOn("BenchmarkScenario", [{ field: "maxHours", message: `hours > 0, got ${args.maxHours}` }]);
  if (!/^[0-9a-f]{64}$/.test(args.kit?.sha256 ?? "") || !args.kit?.path) failOn("BenchmarkScenario", [{ field: "kit", message: "a built kit: { path, sha256, version } from `ycsb-lab kit build` (kit/build.ts)" }]);
  failOn("BenchmarkScenario", checkFit(d, spec.dataNode.storage));
  let addresses: Addressing;
  try {
    addresses = addressing(d.nodes, d.clients, args.vpcBase);
  } catch (e) {
    const [field, ...rest] = (e as Error).message.split(": ");
    failOn("BenchmarkScenario", [{ field: field!, message: rest.join(": ") }]);
    throw e;
  }
  const tags = runTags({ scenario: spec.name, runId: args.runId, owner: args.owner, expiry: args.expiry });
  const cluster: ScenarioPlan["cluster"] = {
    engine: d.engine,
    version: ENGINE_VERSIONS[d.engine],
    nodeIps: addresses.dataNodeIps,
    instanceType: d.dataInstanceType,
    storage: spec.dataNode.storage,
    preset: d.preset,
    loadPreset: d.loadPreset,
    replication: d.replication,
    placementGroup: args.placementGroup ?? true,
    logVolume: d.ownLogDevice,
    ...(args.logVolume ? { logVolumeSpec: args.logVolume } : {}),
    ...(d.engine === "mongodb" ? { mongoTopology: args.mongoTopology ?? (d.replication > 1 ? "replica-set" : "sharded") } : {}),
    lifetime: { expiry: args.expiry, ...(args.maxHours !== undefined ? { maxHours: args.maxHours } : {}) },
    ...(args.keepAfterRun ? { keepAfterRun: true } : {}),
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
  const clients: ScenarioPlan["clients"] = {
    clients: { count: d.clients },
    clientIps: addresses.clientIps,
    instanceType: d.clientInstanceType,
    threadsPerClient: d.threadsPerClient,
    lifetime: { expiry: args.expiry, ...(args.maxHours !== undefined ? { maxHours: args.maxHours } : {}) },
    ...(args.keepAfterRun ? { keepAfterRun: true } : {}),
    runId: args.runId,
    region: args.region,
    kit: { sha256: args.kit.sha256 },
    ...(args.amiId ? { amiId: args.amiId } : {}),
    ...(args.clientSpot ? { spot: true } : {}),
    tags,
  };
  const placeholders = { subnetId: "", securityGroupId: "", resultsBucketName: "" };
  failOn("BenchmarkScenario", checkClusterArgs({ ...cluster, ...placeholders }));
  failOn("BenchmarkScenario", checkClientFleetArgs({ ...clients, ...placeholders }));
  const log = args.logVolume ?? {};
  const volumes = volumeLayout(spec.dataNode.storage, d.ownLogDevice, log);
  const { hourly: cost, run: runCost } = deploymentCost(d, spec.dataNode.storage, runPlan, log);
  return { deployment: d, plan: runPlan, addresses, tags, cluster, clients, cost, runCost, volumes };
}
