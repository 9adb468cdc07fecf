import * as aws from "@pulumi/aws";
import * as pulumi from "@pulumi/pulumi";
import { kitKey, statusPrefix } from "../model/results-layout.js";
import { type ServiceDescription, serviceDescriptionKey } from "../model/service-description.js";
import { RDS_POSTGRES_USD_PER_HOUR, SERVICE_INSTANCE_USD_PER_HOUR } from "../model/service-prices.js";
import { distributionAmi } from "./ami.js";
import { type DashboardCostEstimate, estimateDashboardCost } from "./cost.js";
import { failOn, isInteger } from "./errors.js";
import { instanceRole, SAFE_INSTANCE_DEFAULTS } from "./instance-role.js";
import { natInSubnet, routedSubnet, routeTable, s3Gateway, vpcWithGateway } from "./network.js";
import { dashboardPolicy } from "./policies.js";
import { ResultsBucket } from "./results-bucket.js";
import { instanceUserData } from "./user-data.js";

export interface DashboardDatabaseArgs {
  /** RDS instance class (priced in model/service-prices.ts). @default "db.t4g.micro" */
  instanceClass?: string;
  /** gp3 storage in GiB (RDS's minimum for gp3 is 20). @default 20 */
  allocatedStorageGiB?: number;
  /** PostgreSQL major version. @default "16" */
  engineVersion?: string;
  /** Days of automated backups (point-in-time recovery); at least 7. @default 7 */
  backupRetentionDays?: number;
  /** Refuse `pulumi destroy` of the database until turned off: the team's results live there. @default true */
  deletionProtection?: boolean;
  /** A standby in a second zone (doubles the database's price). @default false */
  multiAz?: boolean;
}

export interface DashboardLoadBalancerArgs {
  /** ACM certificate for the HTTPS listener (its domain points at the load balancer's DNS name). */
  certificateArn: string;
  /** Who may connect, as CIDR blocks; nothing else reaches port 443. Never "0.0.0.0/0" by default: name it. */
  allowedCidrs: string[];
}

export interface DashboardServiceArgs {
  /** Names the service: tags, its S3 prefix runs/<serviceId>/, its secrets ycsb-lab/<serviceId>/... ([a-z0-9-], at most 41). */
  serviceId: string;
  /** Who owns (and pays for) the service: a tag. */
  owner: string;
  /** AWS region of the provider. */
  region: string;
  /** The dashboard kit (`ycsb-lab kit build --service`, kit/build.ts): the API, the dashboard and the migrations. */
  kit: { path: string; sha256: string; version: string };
  /**
   * The results buckets to import from (each scenario stack's `resultsPrefix` bucket), read-only; a scenario stack
   * needs nothing but its bucket. Plain values: they decide the role's statements. @default []
   */
  importBuckets?: Array<string | { bucket: string; prefix?: string }>;
  /** Seconds between two imports of every bucket. @default 60 */
  pollSeconds?: number;
  /** EC2 type of the service (x86_64; priced in model/service-prices.ts). @default "t3.small" */
  instanceType?: string;
  /** The port the API and dashboard listen on (the port Session Manager forwards). @default 8080 */
  port?: number;
  /** First two octets of the VPC's /16. @default "10.43" */
  vpcBase?: string;
  /**
   * How the instance reaches package mirrors, Node.js and AWS APIs: "nat" keeps it in a private subnet behind a NAT
   * gateway; "public-ip" puts it in a public subnet with its own address (cheaper; still no inbound rule). @default "nat"
   */
  egress?: "nat" | "public-ip";
  /** The managed PostgreSQL (RDS). @default db.t4g.micro, 20 GiB gp3, encrypted, 7 days of backups, deletion protection */
  database?: DashboardDatabaseArgs;
  /** An internet-facing ALB with HTTPS and an allow-list. @default none (reached through Session Manager port forwarding) */
  loadBalancer?: DashboardLoadBalancerArgs;
  /** Reads need a token (a read token kept in Secrets Manager, or the write token). @default true with a load balancer, else false */
  protectReads?: boolean;
  /** AMI id. @default the newest official Debian 12 image, never replaced by a newer one (ignoreChanges) */
  amiId?: pulumi.Input<string>;
  /** Tags on every resource. @default {} */
  tags?: Record<string, string>;
  /** The time of this up: names the database's final snapshot (kept from the first up). @default now */
  now?: Date;
}

/** Every decision of a DashboardService as plain values, checked before any resource exists. */
export interface DashboardPlan {
  serviceId: string;
  importBuckets: Array<{ bucket: string; prefix: string }>;
  pollSeconds: number;
  instanceType: string;
  port: number;
  egress: "nat" | "public-ip";
  protectReads: boolean;
  database: Required<DashboardDatabaseArgs>;
  cidrs: { vpc: string; privateSubnets: [string, string]; publicSubnets: [string, string] };
  tags: Record<string, string>;
  cost: DashboardCostEstimate;
}

const DATABASE_NAME = "ycsb_lab";
const DATABASE_USER = "ycsb_lab";
const POSTGRES_PORT = 5432;
const ROOT_VOLUME_GIB = SAFE_INSTANCE_DEFAULTS.rootBlockDevice.volumeSize;

export function planDashboard(args: DashboardServiceArgs): DashboardPlan {
  const problems: Array<{ field: string; message: string }> = [];
  if (!/^[a-z0-9][a-z0-9-]{0,40}$/.test(args.serviceId ?? ""))
    problems.push({ field: "serviceId", message: `[a-z0-9-], at most 41 characters, got "${args.serviceId}"` });
  if (!args.owner) problems.push({ field: "owner", message: "who owns the service (a tag)" });
  if (!/^[a-z]{2}(-[a-z]+)+-\d$/.test(args.region ?? ""))
    problems.push({ field: "region", message: `an AWS region like "us-east-1", got "${args.region}"` });
  if (!/^[0-9a-f]{64}$/.test(args.kit?.sha256 ?? "") || !args.kit?.path)
    problems.push({
      field: "kit",
      message: "a built dashboard kit: { path, sha256, version } from `ycsb-lab kit build --service`",
    });
  const importBuckets = (args.importBuckets ?? []).map((b) =>
    typeof b === "string" ? { bucket: b, prefix: "" } : { bucket: b.bucket, prefix: b.prefix ?? "" },
  );
  for (const [i, b] of importBuckets.entries()) {
    // S3 bucket naming rules (S3 user guide, "Bucket naming rules").
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(b.bucket))
      problems.push({ field: `importBuckets[${i}]`, message: `an S3 bucket name, got "${b.bucket}"` });
    if (b.prefix && !b.prefix.endsWith("/"))
      problems.push({ field: `importBuckets[${i}].prefix`, message: `a prefix ending in "/", got "${b.prefix}"` });
  }
  const pollSeconds = args.pollSeconds ?? 60;
  if (!isInteger(pollSeconds, 5))
    problems.push({ field: "pollSeconds", message: `a whole number >= 5, got ${pollSeconds}` });
  const instanceType = args.instanceType ?? "t3.small";
  if (SERVICE_INSTANCE_USD_PER_HOUR[instanceType] === undefined)
    problems.push({
      field: "instanceType",
      message: `one of ${Object.keys(SERVICE_INSTANCE_USD_PER_HOUR).join(", ")} (x86_64, priced), got "${instanceType}"`,
    });
  const port = args.port ?? 8080;
  if (!isInteger(port, 1024) || port > 65535) problems.push({ field: "port", message: `1024-65535, got ${port}` });
  const egress = args.egress ?? "nat";
  if (egress !== "nat" && egress !== "public-ip")
    problems.push({ field: "egress", message: `"nat" or "public-ip", got "${egress}"` });
  const base = args.vpcBase ?? "10.43";
  if (!/^\d{1,3}\.\d{1,3}$/.test(base))
    problems.push({ field: "vpcBase", message: `two octets like "10.43", got "${base}"` });
  const db = args.database ?? {};
  const database: Required<DashboardDatabaseArgs> = {
    instanceClass: db.instanceClass ?? "db.t4g.micro",
    allocatedStorageGiB: db.allocatedStorageGiB ?? 20,
    engineVersion: db.engineVersion ?? "16",
    backupRetentionDays: db.backupRetentionDays ?? 7,
    deletionProtection: db.deletionProtection ?? true,
    multiAz: db.multiAz ?? false,
  };
  if (RDS_POSTGRES_USD_PER_HOUR[database.instanceClass] === undefined)
    problems.push({
      field: "database.instanceClass",
      message: `one of ${Object.keys(RDS_POSTGRES_USD_PER_HOUR).join(", ")}, got "${database.instanceClass}"`,
    });
  // RDS gp3 starts at 20 GiB (RDS user guide, "Amazon RDS DB instance storage").
  if (!isInteger(database.allocatedStorageGiB, 20))
    problems.push({
      field: "database.allocatedStorageGiB",
      message: `a whole number >= 20, got ${database.allocatedStorageGiB}`,
    });
  // A week of point-in-time recovery at least; RDS allows up to 35 days.
  if (!isInteger(database.backupRetentionDays, 7) || database.backupRetentionDays > 35)
    problems.push({ field: "database.backupRetentionDays", message: `7-35 days, got ${database.backupRetentionDays}` });
  if (!/^\d+(\.\d+)?$/.test(database.engineVersion))
    problems.push({
      field: "database.engineVersion",
      message: `a PostgreSQL version like "16", got "${database.engineVersion}"`,
    });
  const lb = args.loadBalancer;
  if (lb) {
    if (!/^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/.+$/.test(lb.certificateArn ?? ""))
      problems.push({
        field: "loadBalancer.certificateArn",
        message: `an ACM certificate ARN, got "${lb.certificateArn}"`,
      });
    if (!Array.isArray(lb.allowedCidrs) || lb.allowedCidrs.length === 0)
      problems.push({ field: "loadBalancer.allowedCidrs", message: "name at least one CIDR block allowed to connect" });
    for (const c of lb.allowedCidrs ?? [])
      if (!/^\d{1,3}(\.\d{1,3}){3}\/\d{1,2}$/.test(c))
        problems.push({ field: "loadBalancer.allowedCidrs", message: `a CIDR block, got "${c}"` });
  }
  const protectReads = args.protectReads ?? Boolean(lb);
  if (lb && !protectReads)
    problems.push({
      field: "protectReads",
      message: "a load balancer serves beyond Session Manager: reads stay protected",
    });
  failOn("DashboardService", problems);
  const tags = { ...(args.tags ?? {}), "ycsb-lab:service": args.serviceId, "ycsb-lab:owner": args.owner };
  const cost = estimateDashboardCost({
    instanceType,
    rootVolumeGiB: ROOT_VOLUME_GIB,
    dbInstanceClass: database.instanceClass,
    dbStorageGiB: database.allocatedStorageGiB,
    multiAz: database.multiAz,
    egress,
    loadBalancer: Boolean(lb),
    secrets: 2 + (protectReads ? 1 : 0),
  });
  return {
    serviceId: args.serviceId,
    importBuckets,
    pollSeconds,
    instanceType,
    port,
    egress,
    protectReads,
    database,
    cidrs: {
      vpc: `${base}.0.0/16`,
      privateSubnets: [`${base}.1.0/24`, `${base}.2.0/24`],
      publicSubnets: [`${base}.101.0/24`, `${base}.102.0/24`],
    },
    tags,
    cost,
  };
}

/** RDS's final snapshot on delete, named by the creating up's time (RDS identifiers: letters, digits, hyphens). */
export function finalSnapshotName(serviceId: string, at: Date): string {
  return `${serviceId}-final-${at.toISOString().slice(0, 19).replace(/[-:]/g, "").replace("T", "-").toLowerCase()}`;
}

/**
 * The team's results API and dashboard on AWS (DESIGN.md "One boot path"): one EC2 instance booted with the
 * dashboard kit and `ycsb-lab boot --role dashboard`, over RDS PostgreSQL (encrypted, private subnets, automated
 * backups, deletion protection, reachable from the service's security group only). The write token and the
 * database password live in Secrets Manager (RDS manages the latter); the instance reads them at boot with a role
 * that may read exactly those secrets and the buckets it imports. Private by default: no inbound rule at all, reached
 * through Session Manager port forwarding; optionally an HTTPS load balancer open to an allow-list.
 */
export class DashboardService extends pulumi.ComponentResource {
  public readonly serviceId: string;
  /** Where the dashboard answers: the load balancer's HTTPS URL, or localhost through Session Manager port forwarding. */
  public readonly url: pulumi.Output<string>;
  /** The command that forwards the service's port to this machine (AWS CLI + Session Manager plugin). */
  public readonly portForwardCommand: pulumi.Output<string>;
  public readonly instanceId: pulumi.Output<string>;
  /** The secret holding the write token: runners and `ycsb-lab ingest` read it there, never from an output. */
  public readonly writeTokenSecretArn: pulumi.Output<string>;
  public readonly readTokenSecretArn?: pulumi.Output<string>;
  public readonly databaseEndpoint: pulumi.Output<string>;
  public readonly bucketName: pulumi.Output<string>;
  public readonly roleArn: pulumi.Output<string>;
  public readonly cost: DashboardCostEstimate;

  constructor(name: string, args: DashboardServiceArgs, opts?: pulumi.ComponentResourceOptions) {
    const plan = planDashboard(args);
    super("ycsb-lab:index:DashboardService", name, {}, opts);
    const net = dashboardNetwork(name, plan, args.region, this);
    const groups = securityGroups(name, plan, net.vpc, args.loadBalancer, this);
    const db = database(name, plan, net.privateSubnets, groups.db, args.now ?? new Date(), this);
    const writeToken = tokenSecret(name, plan, "write", this);
    const readToken = plan.protectReads ? tokenSecret(name, plan, "read", this) : undefined;
    const tokens = { write: writeToken.arn, read: readToken?.arn };
    const own = serviceObjects(name, plan, args, { db, tokens }, this);
    const profile = instanceRole(
      `${name}-service`,
      servicePolicy(plan, args, own.bucketName, tokens, db.secretArn),
      plan.tags,
      this,
    );
    const subnet = plan.egress === "nat" ? net.privateSubnets[0]! : net.publicSubnets[0]!;
    const instance = serviceInstance(
      name,
      plan,
      args,
      { subnet, group: groups.service, profile, own, db: db.instance },
      this,
    );
    const url =
      args.loadBalancer && groups.lb
        ? loadBalancer(
            name,
            plan,
            args.loadBalancer,
            { vpc: net.vpc, subnets: net.publicSubnets, group: groups.lb, instance },
            this,
          )
        : pulumi.output(`http://localhost:${plan.port}/ (after the port forwarding command)`);

    this.serviceId = plan.serviceId;
    this.url = url;
    this.portForwardCommand = pulumi.interpolate`aws ssm start-session --region ${args.region} --target ${instance.id} --document-name AWS-StartPortForwardingSession --parameters portNumber=${plan.port},localPortNumber=${plan.port}`;
    this.instanceId = instance.id;
    this.writeTokenSecretArn = writeToken.arn;
    if (readToken) this.readTokenSecretArn = readToken.arn;
    this.databaseEndpoint = db.instance.endpoint;
    this.bucketName = own.bucketName;
    this.roleArn = profile.arn;
    this.cost = plan.cost;
    this.registerOutputs({
      url: this.url,
      portForwardCommand: this.portForwardCommand,
      instanceId: this.instanceId,
      writeTokenSecretArn: this.writeTokenSecretArn,
      databaseEndpoint: this.databaseEndpoint,
      estimatedUsdPerMonth: this.cost.usdPerMonth,
    });
  }
}

type Tokens = { write: pulumi.Output<string>; read: pulumi.Output<string> | undefined };

/**
 * The service's network, from the same blocks as BenchmarkNetwork (infra/network.ts): two private subnets (RDS needs
 * two zones) and two public ones (the NAT gateway, the optional ALB), each pair in the region's first two zones.
 */
function dashboardNetwork(name: string, plan: DashboardPlan, region: string, parent: pulumi.Resource) {
  const { tags, cidrs } = plan;
  const zones = aws.getAvailabilityZonesOutput({ state: "available" }, { parent }).names;
  const { vpc, igw } = vpcWithGateway(name, cidrs.vpc, tags, parent);
  const publicRoutes = routeTable(`${name}-public-routes`, vpc, { gatewayId: igw.id }, tags, parent);
  const subnets = (kind: "public" | "private", list: readonly string[]) =>
    list.map((cidr, i) =>
      routedSubnet(`${name}-${kind}-${i}`, vpc, { cidr, zone: zones[i]!, public: false }, tags, parent),
    );
  const publicSubnets = subnets("public", cidrs.publicSubnets);
  for (const s of publicSubnets) s.associate(publicRoutes);
  const nat = plan.egress === "nat" ? natInSubnet(name, publicSubnets[0]!.subnet, igw, tags, parent) : undefined;
  // With public-ip egress the private subnets hold only the database: no way out at all.
  const privateRoutes = routeTable(
    `${name}-private-routes`,
    vpc,
    nat ? { natGatewayId: nat.id } : undefined,
    tags,
    parent,
  );
  const privateSubnets = subnets("private", cidrs.privateSubnets);
  for (const s of privateSubnets) s.associate(privateRoutes);
  // S3 reads of the poll never leave the AWS network (and cost no NAT processing).
  s3Gateway(name, vpc, region, [privateRoutes.id, publicRoutes.id], tags, parent);
  return {
    vpc,
    publicSubnets: publicSubnets.map((s) => s.subnet),
    privateSubnets: privateSubnets.map((s) => s.subnet),
  };
}

/** Nothing from the internet unless a load balancer with an allow-list is asked for; the database from the service only. */
function securityGroups(
  name: string,
  plan: DashboardPlan,
  vpc: aws.ec2.Vpc,
  lbArgs: DashboardLoadBalancerArgs | undefined,
  parent: pulumi.Resource,
) {
  const { tags, cidrs } = plan;
  const p = { parent };
  const lb = lbArgs
    ? new aws.ec2.SecurityGroup(
        `${name}-lb-sg`,
        {
          vpcId: vpc.id,
          description: "ycsb-lab dashboard load balancer: HTTPS from the allow-list only",
          ingress: [
            {
              protocol: "tcp",
              fromPort: 443,
              toPort: 443,
              cidrBlocks: lbArgs.allowedCidrs,
              description: "HTTPS from the allow-list",
            },
          ],
          egress: [
            {
              protocol: "tcp",
              fromPort: plan.port,
              toPort: plan.port,
              cidrBlocks: cidrs.privateSubnets.concat(cidrs.publicSubnets),
              description: "the service",
            },
          ],
          tags,
        },
        p,
      )
    : undefined;
  const service = new aws.ec2.SecurityGroup(
    `${name}-service-sg`,
    {
      vpcId: vpc.id,
      description: lb
        ? "ycsb-lab dashboard: its port from the load balancer only"
        : "ycsb-lab dashboard: no inbound (Session Manager port forwarding)",
      ingress: lb
        ? [
            {
              protocol: "tcp",
              fromPort: plan.port,
              toPort: plan.port,
              securityGroups: [lb.id],
              description: "the load balancer",
            },
          ]
        : [],
      egress: [
        {
          protocol: "-1",
          fromPort: 0,
          toPort: 0,
          cidrBlocks: ["0.0.0.0/0"],
          description: "packages, Node.js, S3, Secrets Manager, SSM, the database",
        },
      ],
      tags,
    },
    p,
  );
  const db = new aws.ec2.SecurityGroup(
    `${name}-db-sg`,
    {
      vpcId: vpc.id,
      description: "ycsb-lab dashboard database: PostgreSQL from the service only",
      ingress: [
        {
          protocol: "tcp",
          fromPort: POSTGRES_PORT,
          toPort: POSTGRES_PORT,
          securityGroups: [service.id],
          description: "the dashboard service",
        },
      ],
      egress: [],
      tags,
    },
    p,
  );
  return { lb, service, db };
}

/** The database: RDS manages the master password in Secrets Manager (never in Pulumi state or outputs). */
function database(
  name: string,
  plan: DashboardPlan,
  subnets: aws.ec2.Subnet[],
  group: aws.ec2.SecurityGroup,
  now: Date,
  parent: pulumi.Resource,
) {
  const { tags } = plan;
  const subnetGroup = new aws.rds.SubnetGroup(
    `${name}-db-subnets`,
    { subnetIds: subnets.map((s) => s.id), tags },
    { parent },
  );
  const instance = new aws.rds.Instance(
    `${name}-db`,
    {
      engine: "postgres",
      engineVersion: plan.database.engineVersion,
      instanceClass: plan.database.instanceClass,
      allocatedStorage: plan.database.allocatedStorageGiB,
      storageType: "gp3",
      storageEncrypted: true,
      dbName: DATABASE_NAME,
      username: DATABASE_USER,
      manageMasterUserPassword: true,
      dbSubnetGroupName: subnetGroup.name,
      vpcSecurityGroupIds: [group.id],
      publiclyAccessible: false,
      multiAz: plan.database.multiAz,
      backupRetentionPeriod: plan.database.backupRetentionDays,
      deletionProtection: plan.database.deletionProtection,
      skipFinalSnapshot: false,
      // One name per database created (ignoreChanges keeps the first up's): a second destroy never collides.
      finalSnapshotIdentifier: finalSnapshotName(plan.serviceId, now),
      copyTagsToSnapshot: true,
      autoMinorVersionUpgrade: true,
      tags,
    },
    // The snapshot's name is decided once, when the database is created.
    { parent, ignoreChanges: ["finalSnapshotIdentifier"] },
  );
  const secretArn = instance.masterUserSecrets.apply((s) => {
    const arn = s?.[0]?.secretArn;
    if (!arn) throw new Error(`DashboardService: RDS reported no managed master user secret for ${name}-db`);
    return arn;
  });
  return { instance, secretArn };
}

/** A token generated once (ignoreChanges: a later up never rotates it under the runners' feet), kept in Secrets Manager. */
function tokenSecret(name: string, plan: DashboardPlan, kind: "write" | "read", parent: pulumi.Resource) {
  // A name per deployment (namePrefix): a destroyed one waits out Secrets Manager's recovery window (7 to 30 days)
  // under its own name, and the next up never collides with it.
  const secret = new aws.secretsmanager.Secret(
    `${name}-${kind}-token`,
    {
      namePrefix: `ycsb-lab/${plan.serviceId}/${kind}-token-`,
      recoveryWindowInDays: 7,
      description: `ycsb-lab dashboard ${plan.serviceId}: the ${kind} token`,
      tags: plan.tags,
    },
    { parent },
  );
  const value = aws.secretsmanager.getRandomPasswordOutput(
    { passwordLength: 40, excludePunctuation: true },
    { parent },
  ).randomPassword;
  new aws.secretsmanager.SecretVersion(
    `${name}-${kind}-token-value`,
    { secretId: secret.id, secretString: pulumi.secret(value) },
    { parent, ignoreChanges: ["secretString"] },
  );
  return secret;
}

/** Its own bucket: the kit, the service description, its status (the results stay in the scenario buckets). */
function serviceObjects(
  name: string,
  plan: DashboardPlan,
  args: DashboardServiceArgs,
  from: { db: ReturnType<typeof database>; tokens: Tokens },
  parent: pulumi.Resource,
) {
  const { tags } = plan;
  const bucketName = new ResultsBucket(`${name}-svc`, { tags }, { parent }).bucketName;
  const kit = new aws.s3.BucketObjectv2(
    `${name}-kit`,
    {
      bucket: bucketName,
      key: kitKey(args.kit.sha256),
      source: new pulumi.asset.FileAsset(args.kit.path),
      contentType: "application/gzip",
      serverSideEncryption: "AES256",
      tags,
    },
    { parent, retainOnDelete: true },
  );
  const { instance: db, secretArn } = from.db;
  const description = pulumi
    .all([db.address, db.port, from.tokens.write, from.tokens.read ?? pulumi.output(undefined), secretArn])
    .apply(
      ([host, dbPort, writeArn, readArn, dbSecretArn]): ServiceDescription => ({
        serviceId: plan.serviceId,
        region: args.region,
        port: plan.port,
        importBuckets: plan.importBuckets,
        pollSeconds: plan.pollSeconds,
        writeTokenSecretArn: writeArn,
        protectReads: plan.protectReads,
        ...(readArn ? { readTokenSecretArn: readArn } : {}),
        database: { host, port: dbPort, name: DATABASE_NAME, secretArn: dbSecretArn, sslMode: "verify-full" },
      }),
    );
  const service = new aws.s3.BucketObjectv2(
    `${name}-service`,
    {
      bucket: bucketName,
      key: serviceDescriptionKey(plan.serviceId),
      contentType: "application/json",
      content: description.apply((d) => JSON.stringify(d, null, 2)),
      serverSideEncryption: "AES256",
      tags,
    },
    { parent },
  );
  return { bucketName, kit, service };
}

/** The instance role's policy: its own objects, the buckets it imports, exactly its secrets. */
function servicePolicy(
  plan: DashboardPlan,
  args: DashboardServiceArgs,
  bucketName: pulumi.Output<string>,
  tokens: Tokens,
  dbSecretArn: pulumi.Output<string>,
) {
  return pulumi
    .all([bucketName, tokens.write, tokens.read ?? pulumi.output(undefined), dbSecretArn])
    .apply(([bucket, writeArn, readArn, secretArn]) =>
      JSON.stringify(
        dashboardPolicy({
          bucketName: bucket,
          serviceKey: serviceDescriptionKey(plan.serviceId),
          statusPrefix: statusPrefix(plan.serviceId),
          kitKey: kitKey(args.kit.sha256),
          importBuckets: plan.importBuckets,
          secretArns: [writeArn, ...(readArn ? [readArn] : []), secretArn],
        }),
      ),
    );
}

/** The one instance, booted with the dashboard kit (`ycsb-lab boot --role dashboard`). */
function serviceInstance(
  name: string,
  plan: DashboardPlan,
  args: DashboardServiceArgs,
  on: {
    subnet: aws.ec2.Subnet;
    group: aws.ec2.SecurityGroup;
    profile: ReturnType<typeof instanceRole>;
    own: ReturnType<typeof serviceObjects>;
    db: aws.rds.Instance;
  },
  parent: pulumi.ComponentResource,
): aws.ec2.Instance {
  const userData = on.own.bucketName.apply((bucket) =>
    instanceUserData({
      role: "dashboard",
      index: 0,
      runId: plan.serviceId,
      region: args.region,
      bucket,
      kitSha256: args.kit.sha256,
    }),
  );
  return new aws.ec2.Instance(
    `${name}-instance`,
    {
      ami: args.amiId ?? distributionAmi(parent),
      instanceType: plan.instanceType,
      subnetId: on.subnet.id,
      associatePublicIpAddress: plan.egress === "public-ip",
      vpcSecurityGroupIds: [on.group.id],
      iamInstanceProfile: on.profile.name,
      ...SAFE_INSTANCE_DEFAULTS,
      // A service is meant to stay: a shutdown stops it (its root volume and address kept), it never terminates itself.
      instanceInitiatedShutdownBehavior: "stop",
      userData,
      userDataReplaceOnChange: true,
      tags: { ...plan.tags, Name: `${name}-dashboard`, "ycsb-lab:role": "dashboard" },
    },
    { parent, ignoreChanges: ["ami"], dependsOn: [on.own.kit, on.own.service, on.db] },
  );
}

/** An internet-facing ALB with HTTPS (TLS 1.2 and 1.3 only) forwarding to the instance; its URL. */
function loadBalancer(
  name: string,
  plan: DashboardPlan,
  lbArgs: DashboardLoadBalancerArgs,
  on: { vpc: aws.ec2.Vpc; subnets: aws.ec2.Subnet[]; group: aws.ec2.SecurityGroup; instance: aws.ec2.Instance },
  parent: pulumi.Resource,
): pulumi.Output<string> {
  const { tags } = plan;
  const p = { parent };
  const lb = new aws.lb.LoadBalancer(
    `${name}-lb`,
    {
      loadBalancerType: "application",
      internal: false,
      securityGroups: [on.group.id],
      subnets: on.subnets.map((s) => s.id),
      dropInvalidHeaderFields: true,
      tags,
    },
    p,
  );
  const target = new aws.lb.TargetGroup(
    `${name}-targets`,
    {
      port: plan.port,
      protocol: "HTTP",
      vpcId: on.vpc.id,
      targetType: "instance",
      healthCheck: { path: "/health", matcher: "200", interval: 30 },
      tags,
    },
    p,
  );
  new aws.lb.TargetGroupAttachment(
    `${name}-target`,
    { targetGroupArn: target.arn, targetId: on.instance.id, port: plan.port },
    p,
  );
  new aws.lb.Listener(
    `${name}-https`,
    {
      loadBalancerArn: lb.arn,
      port: 443,
      protocol: "HTTPS",
      // TLS 1.3 and 1.2 only (Elastic Load Balancing user guide, "Security policies for your Application Load Balancer").
      sslPolicy: "ELBSecurityPolicy-TLS13-1-2-2021-06",
      certificateArn: lbArgs.certificateArn,
      defaultActions: [{ type: "forward", targetGroupArn: target.arn }],
      tags,
    },
    p,
  );
  return pulumi.interpolate`https://${lb.dnsName}/`;
}
