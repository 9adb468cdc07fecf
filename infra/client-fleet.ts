import * as aws from "@pulumi/aws";
import * as pulumi from "@pulumi/pulumi";
import { instanceType as lookupType } from "../model/instance-types.js";
import { kitKey } from "../model/results-layout.js";
import { distributionAmi } from "./ami.js";
import { failOn, isInteger } from "./errors.js";
import { instanceRole, SAFE_INSTANCE_DEFAULTS, SPOT_ONE_TIME } from "./instance-role.js";
import { clientPolicy } from "./policies.js";
import { runLayout } from "./run-layout.js";
import { instanceUserData } from "./user-data.js";

/** A fixed client count, or one client per `dataNodesPerClient` data nodes (seed 001: 3, seed 000: 1), rounded up. */
export type ClientCount = { count: number } | { dataNodesPerClient: number; dataNodes: number };

export function resolveClientCount(c: ClientCount): number {
  return "count" in c ? c.count : Math.ceil(c.dataNodes / c.dataNodesPerClient);
}

export interface ClientFleetArgs {
  /** How many clients: a count, or a ratio to the data nodes. */
  clients: ClientCount;
  /** Private IPs for the clients; must hold at least the resolved count (plain: decides how many instances exist). */
  clientIps: string[];
  /** EC2 type of every client (must be in model/instance-types.ts). */
  instanceType: string;
  /** YCSB threads per client, recorded as a tag (the plan carries the thread schedule). */
  threadsPerClient: number;
  /** Subnet the instances launch in (BenchmarkNetwork.dataSubnetId or clientSubnetId). Required, no default. */
  subnetId: pulumi.Input<string>;
  /** Security group of the instances (BenchmarkNetwork). Required, no default. */
  securityGroupId: pulumi.Input<string>;
  /** Bucket holding the plan and receiving results; the clients may write only under their run's prefix. */
  resultsBucketName: pulumi.Input<string>;
  /** Run id: tags, S3 prefix `runs/<runId>/`, SSM path. Required, no default. */
  runId: string;
  /** AWS region of the provider, for SSM and S3 calls at boot. Required, no default. */
  region: string;
  /**
   * The kit every client runs (kit/build.ts), already uploaded to kits/<sha256>.tar.gz in the bucket; clients boot
   * from runs/<runId>/plan.json and cluster.json there (BenchmarkScenario uploads all three).
   */
  kit: { sha256: string };
  /** When every client powers itself off whatever happens (the brake user-data arms first). Required, no default. */
  lifetime: { expiry: string; maxHours?: number };
  /** Keep the clients after the run (or a failure) until the brake, for inspection. @default false */
  keepAfterRun?: boolean;
  /** Join this cluster placement group (the data nodes'): clients close to the cluster, as in the studies. @default none */
  placementGroupName?: pulumi.Input<string>;
  /** Run clients on Spot capacity (cheaper; an interruption ends the run, which is then marked incomplete). @default false */
  spot?: boolean;
  /** AMI id. @default the newest official Debian 12 image (aws.ec2.getAmi) */
  amiId?: pulumi.Input<string>;
  /** Tags on every resource. @default {} */
  tags?: Record<string, string>;
}

/** YCSB clients, each booting with `ycsb-lab boot --role client --index I` from the kit (infra/user-data.ts). */
export class ClientFleet extends pulumi.ComponentResource {
  public readonly count: number;
  public readonly instanceIds: pulumi.Output<string>[];
  public readonly privateIps: string[];
  /** Each client's instance profile (one role each), by index. */
  public readonly instanceProfileArns: pulumi.Output<string>[];

  constructor(name: string, args: ClientFleetArgs, opts?: pulumi.ComponentResourceOptions) {
    failOn("ClientFleet", checkClientFleetArgs(args));
    super("ycsb-lab:index:ClientFleet", name, {}, opts);
    const p = { parent: this };
    const count = resolveClientCount(args.clients);
    const layout = runLayout(args.runId);
    const tags = { ...(args.tags ?? {}), "ycsb-lab:threads-per-client": String(args.threadsPerClient) };
    const ami = args.amiId ?? distributionAmi(this);
    const identity = aws.getCallerIdentityOutput({}, p);
    // One role per client: each writes only the keys it owns (its results, barrier arrivals and status).
    const profileOf = (index: number) =>
      instanceRole(
        `${name}-client-${index}`,
        pulumi.all([args.resultsBucketName, identity.accountId]).apply(([bucketName, accountId]) =>
          JSON.stringify(
            clientPolicy(
              {
                bucketName,
                accountId,
                region: args.region,
                runId: args.runId,
                ...layout,
                kitKey: kitKey(args.kit.sha256),
              },
              index,
            ),
          ),
        ),
        tags,
        this,
      );
    const ips = args.clientIps.slice(0, count);
    const profiles = ips.map((_, index) => profileOf(index));
    this.instanceIds = ips.map((ip, index) => {
      const profile = profiles[index]!;
      const userData = pulumi.output(args.resultsBucketName).apply((bucket) =>
        instanceUserData({
          role: "client",
          index,
          runId: args.runId,
          region: args.region,
          bucket,
          kitSha256: args.kit.sha256,
          lifetime: args.lifetime,
          ...(args.keepAfterRun ? { keepAfterRun: true } : {}),
        }),
      );
      return new aws.ec2.Instance(
        `${name}-client-${index}`,
        {
          ami,
          instanceType: args.instanceType,
          subnetId: args.subnetId,
          privateIp: ip,
          vpcSecurityGroupIds: [args.securityGroupId],
          iamInstanceProfile: profile.name,
          ...(args.placementGroupName ? { placementGroup: args.placementGroupName } : {}),
          ...SAFE_INSTANCE_DEFAULTS,
          ...(args.spot ? SPOT_ONE_TIME : {}),
          userData,
          userDataReplaceOnChange: true,
          tags: {
            ...tags,
            Name: `${name}-client-${index}`,
            "ycsb-lab:role": "client",
            "ycsb-lab:client-index": String(index),
          },
        },
        // A newer image never replaces a running client (the stack pins its AMI; infra/ami.ts).
        // A new run (user-data) replaces the instance at its fixed address, which EC2 holds until the old one is terminated
        // (EC2 user guide, "Private IPv4 addresses"): the old one goes first, or the launch fails InvalidIPAddress.InUse.
        { parent: this, ignoreChanges: ["ami"], deleteBeforeReplace: true },
      ).id;
    });
    this.count = count;
    this.privateIps = ips;
    this.instanceProfileArns = profiles.map((p) => p.arn);
    this.registerOutputs({ count: this.count, instanceIds: this.instanceIds, privateIps: this.privateIps });
  }
}

export function checkClientFleetArgs(args: ClientFleetArgs): Array<{ field: string; message: string }> {
  const problems: Array<{ field: string; message: string }> = [];
  const c = args.clients;
  if (
    !c ||
    ("count" in c ? !isInteger(c.count, 1) : !isInteger(c.dataNodesPerClient, 1) || !isInteger(c.dataNodes, 1))
  ) {
    problems.push({
      field: "clients",
      message: `a count >= 1 or dataNodesPerClient >= 1 with dataNodes >= 1, got ${JSON.stringify(c)}`,
    });
  } else if (resolveClientCount(c) > (args.clientIps?.length ?? 0)) {
    problems.push({
      field: "clientIps",
      message: `${resolveClientCount(c)} clients need as many IPs, got ${args.clientIps?.length ?? 0}`,
    });
  }
  if (!isInteger(args.threadsPerClient, 1))
    problems.push({ field: "threadsPerClient", message: `a whole number >= 1, got ${args.threadsPerClient}` });
  try {
    lookupType(args.instanceType, "instanceType");
  } catch (e) {
    problems.push({ field: "instanceType", message: (e as Error).message.replace(/^instanceType: /, "") });
  }
  if (!/^[0-9a-f]{64}$/.test(args.kit?.sha256 ?? ""))
    problems.push({
      field: "kit.sha256",
      message: `the kit archive's SHA-256 (64 hex digits), got "${args.kit?.sha256}"`,
    });
  return problems;
}
