import * as aws from "@pulumi/aws";
import * as pulumi from "@pulumi/pulumi";
import type { EnginePorts } from "../engines/node-context.js";
import { failOn } from "./errors.js";

export interface BenchmarkNetworkArgs {
  /** CIDR of the VPC. @default "10.42.0.0/16" */
  vpcCidr?: string;
  /** CIDR of the data nodes' subnet (inside vpcCidr). @default "10.42.1.0/24" */
  dataSubnetCidr?: string;
  /** CIDR of the clients' subnet (inside vpcCidr). @default "10.42.2.0/24" */
  clientSubnetCidr?: string;
  /**
   * How instances reach package mirrors, Node.js and the engine's vendor: "public-ip" gives each one a public IPv4
   * address ($0.005 an hour each); "nat" gives them none and routes through one NAT gateway in a public subnet
   * ($0.045 an hour and per GB, plus its own address). No security group admits the internet either way.
   * @default "public-ip"
   */
  egress?: "public-ip" | "nat";
  /** CIDR of the NAT gateway's public subnet (egress "nat"). @default "10.42.0.0/24" */
  publicSubnetCidr?: string;
  /** The one availability zone everything runs in (latency between nodes is part of what is measured). @default the region's first available zone */
  availabilityZone?: pulumi.Input<string>;
  /**
   * Keep the zone the first `up` placed the data subnet in, whatever `availabilityZone` says later (a zone chosen
   * from live capacity scores may differ between ups; moving would replace every subnet and instance). @default false
   */
  keepZone?: boolean;
  /** AWS region, for the S3 gateway endpoint's service name. */
  region: string;
  /** Database ports: `client` opened to the client security group only, `cluster` between data nodes only. */
  ports: EnginePorts;
  /** Tags on every resource. @default {} */
  tags?: Record<string, string>;
}

/**
 * A VPC in one AZ with a data subnet and a client subnet, an S3 gateway endpoint (results and markers never leave the
 * AWS network), and security groups where database ports are open only to the client group; no inbound SSH anywhere
 * (SSM Session Manager instead). Instances reach the internet for their downloads through public IPs of their own or
 * a NAT gateway (`egress`); no security group admits the internet.
 */
export class BenchmarkNetwork extends pulumi.ComponentResource {
  public readonly vpcId: pulumi.Output<string>;
  public readonly dataSubnetId: pulumi.Output<string>;
  public readonly clientSubnetId: pulumi.Output<string>;
  public readonly dataSecurityGroupId: pulumi.Output<string>;
  public readonly clientSecurityGroupId: pulumi.Output<string>;
  public readonly s3EndpointId: pulumi.Output<string>;
  public readonly availabilityZone: pulumi.Output<string>;

  constructor(name: string, args: BenchmarkNetworkArgs, opts?: pulumi.ComponentResourceOptions) {
    failOn("BenchmarkNetwork", checkNetworkArgs(args));
    super("ycsb-lab:index:BenchmarkNetwork", name, {}, opts);
    const tags = args.tags ?? {};
    const p = { parent: this };
    const az = args.availabilityZone ?? aws.getAvailabilityZonesOutput({ state: "available" }, p).names[0]!;

    const { vpc, igw } = vpcWithGateway(name, args.vpcCidr ?? "10.42.0.0/16", tags, this);
    const nat = (args.egress ?? "public-ip") === "nat";
    const keep = { ignoreChanges: ["availabilityZone"] };
    const data = routedSubnet(
      `${name}-data`,
      vpc,
      { cidr: args.dataSubnetCidr ?? "10.42.1.0/24", zone: az, public: !nat },
      tags,
      this,
      args.keepZone ? keep : {},
    );
    // Everything else follows the data subnet's zone: with keepZone, the one the first up chose.
    const zone = data.subnet.availabilityZone;
    const client = routedSubnet(
      `${name}-client`,
      vpc,
      { cidr: args.clientSubnetCidr ?? "10.42.2.0/24", zone, public: !nat },
      tags,
      this,
    );
    const publicCidr = args.publicSubnetCidr ?? "10.42.0.0/24";
    const toInternet = nat
      ? { natGatewayId: natGateway(name, vpc, igw, zone, publicCidr, tags, this).id }
      : { gatewayId: igw.id };
    const routes = routeTable(`${name}-routes`, vpc, toInternet, tags, this);
    data.associate(routes);
    client.associate(routes);
    const s3 = s3Gateway(name, vpc, args.region, [routes.id], tags, this);

    const egress = [
      { protocol: "-1", fromPort: 0, toPort: 0, cidrBlocks: ["0.0.0.0/0"], description: "package downloads, S3, SSM" },
    ];
    const clientSg = new aws.ec2.SecurityGroup(
      `${name}-client-sg`,
      { vpcId: vpc.id, description: "ycsb-lab clients: no inbound", egress, tags },
      p,
    );
    const dataSg = new aws.ec2.SecurityGroup(
      `${name}-data-sg`,
      {
        vpcId: vpc.id,
        description: "ycsb-lab data nodes: database ports from clients and peers only",
        egress,
        ingress: [
          ...args.ports.client.map((r) => ({
            protocol: "tcp",
            fromPort: r.from,
            toPort: r.to,
            securityGroups: [clientSg.id],
            description: `clients: ${r.description}`,
          })),
          ...args.ports.cluster.map((r) => ({
            protocol: "tcp",
            fromPort: r.from,
            toPort: r.to,
            self: true,
            description: `peers: ${r.description}`,
          })),
        ],
        tags,
      },
      p,
    );

    this.vpcId = vpc.id;
    this.dataSubnetId = data.subnet.id;
    this.clientSubnetId = client.subnet.id;
    this.dataSecurityGroupId = dataSg.id;
    this.clientSecurityGroupId = clientSg.id;
    this.s3EndpointId = s3.id;
    this.availabilityZone = zone;
    this.registerOutputs({
      vpcId: this.vpcId,
      dataSubnetId: this.dataSubnetId,
      clientSubnetId: this.clientSubnetId,
      dataSecurityGroupId: this.dataSecurityGroupId,
      clientSecurityGroupId: this.clientSecurityGroupId,
    });
  }
}

type Tags = Record<string, string>;

/** A VPC with DNS names and its internet gateway: the start of every network here (benchmark and dashboard). */
export function vpcWithGateway(name: string, cidr: string, tags: Tags, parent: pulumi.Resource) {
  const p = { parent };
  const vpc = new aws.ec2.Vpc(
    `${name}-vpc`,
    { cidrBlock: cidr, enableDnsHostnames: true, enableDnsSupport: true, tags: { ...tags, Name: `${name}-vpc` } },
    p,
  );
  const igw = new aws.ec2.InternetGateway(`${name}-igw`, { vpcId: vpc.id, tags }, p);
  return { vpc, igw };
}

/** A route table, with a default route to the internet gateway or a NAT gateway, or none (no way out). */
export function routeTable(
  name: string,
  vpc: aws.ec2.Vpc,
  toInternet: { gatewayId: pulumi.Input<string> } | { natGatewayId: pulumi.Input<string> } | undefined,
  tags: Tags,
  parent: pulumi.Resource,
): aws.ec2.RouteTable {
  const routes = toInternet ? { routes: [{ cidrBlock: "0.0.0.0/0", ...toInternet }] } : {};
  return new aws.ec2.RouteTable(name, { vpcId: vpc.id, ...routes, tags }, { parent });
}

/**
 * A subnet named `name` in one zone; `associate` routes it through a table (association `${name}-routes`).
 * `public`: instances launched in it get a public IPv4 address of their own.
 */
export function routedSubnet(
  name: string,
  vpc: aws.ec2.Vpc,
  at: { cidr: string; zone: pulumi.Input<string>; public: boolean },
  tags: Tags,
  parent: pulumi.Resource,
  opts: pulumi.CustomResourceOptions = {},
) {
  const subnet = new aws.ec2.Subnet(
    name,
    {
      vpcId: vpc.id,
      cidrBlock: at.cidr,
      availabilityZone: at.zone,
      mapPublicIpOnLaunch: at.public,
      tags: { ...tags, Name: name },
    },
    { parent, ...opts },
  );
  const associate = (table: aws.ec2.RouteTable) =>
    new aws.ec2.RouteTableAssociation(`${name}-routes`, { subnetId: subnet.id, routeTableId: table.id }, { parent });
  return { subnet, associate };
}

/** A NAT gateway in a public subnet, with its one public address (it needs the internet gateway attached first). */
export function natInSubnet(
  name: string,
  subnet: aws.ec2.Subnet,
  igw: aws.ec2.InternetGateway,
  tags: Tags,
  parent: pulumi.Resource,
) {
  const address = new aws.ec2.Eip(`${name}-nat-ip`, { domain: "vpc", tags }, { parent });
  return new aws.ec2.NatGateway(
    `${name}-nat`,
    { allocationId: address.id, subnetId: subnet.id, tags },
    { parent, dependsOn: [igw] },
  );
}

/** An S3 gateway endpoint on these route tables: S3 traffic never leaves the AWS network (and costs no NAT processing). */
export function s3Gateway(
  name: string,
  vpc: aws.ec2.Vpc,
  region: string,
  routeTableIds: pulumi.Input<string>[],
  tags: Tags,
  parent: pulumi.Resource,
) {
  return new aws.ec2.VpcEndpoint(
    `${name}-s3`,
    { vpcId: vpc.id, serviceName: `com.amazonaws.${region}.s3`, vpcEndpointType: "Gateway", routeTableIds, tags },
    { parent },
  );
}

/** A NAT gateway in a public subnet of its own (routed to the internet gateway), with its one public address. */
function natGateway(
  name: string,
  vpc: aws.ec2.Vpc,
  igw: aws.ec2.InternetGateway,
  az: pulumi.Input<string>,
  cidr: string,
  tags: Tags,
  parent: pulumi.Resource,
): aws.ec2.NatGateway {
  const publicRoutes = routeTable(`${name}-public-routes`, vpc, { gatewayId: igw.id }, tags, parent);
  const publicSubnet = routedSubnet(`${name}-public`, vpc, { cidr, zone: az, public: false }, tags, parent);
  publicSubnet.associate(publicRoutes);
  return natInSubnet(name, publicSubnet.subnet, igw, tags, parent);
}

export function checkNetworkArgs(args: BenchmarkNetworkArgs): Array<{ field: string; message: string }> {
  const problems: Array<{ field: string; message: string }> = [];
  if (!/^[a-z]{2}(-[a-z]+)+-\d$/.test(args.region ?? ""))
    problems.push({ field: "region", message: `an AWS region like "us-east-1", got "${args.region}"` });
  if (args.egress !== undefined && args.egress !== "public-ip" && args.egress !== "nat")
    problems.push({ field: "egress", message: `"public-ip" or "nat", got "${String(args.egress)}"` });
  for (const f of ["vpcCidr", "dataSubnetCidr", "clientSubnetCidr", "publicSubnetCidr"] as const) {
    const v = args[f];
    if (v !== undefined && !/^\d{1,3}(\.\d{1,3}){3}\/\d{1,2}$/.test(v))
      problems.push({ field: f, message: `a CIDR block, got "${v}"` });
  }
  const all = [...(args.ports?.client ?? []), ...(args.ports?.cluster ?? [])];
  if (!args.ports || args.ports.client.length === 0)
    problems.push({ field: "ports.client", message: "name at least one client port" });
  for (const r of all)
    if (!(r.from >= 1 && r.to <= 65535 && r.from <= r.to))
      problems.push({ field: "ports", message: `bad port range ${r.from}-${r.to}` });
  if (all.some((r) => r.from <= 22 && r.to >= 22))
    problems.push({ field: "ports", message: "port 22 is never opened (SSM Session Manager instead of SSH)" });
  return problems;
}
