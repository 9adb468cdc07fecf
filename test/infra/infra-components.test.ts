import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { engineRuntime } from "../../engines/runtimes.js";
import { addressing } from "../../infra/addressing.js";
import { ClientFleet } from "../../infra/client-fleet.js";
import { DatabaseCluster, type DatabaseClusterArgs } from "../../infra/database-cluster.js";
import { BenchmarkNetwork } from "../../infra/network.js";
import { ResultsBucket } from "../../infra/results-bucket.js";
import type { Engine } from "../../model/engine.js";
import type { Preset } from "../../model/presets.js";
import {
  calls,
  countByType,
  installMocks,
  MOCK_ACCOUNT,
  MOCK_AMI,
  ofType,
  options,
  recorded,
  recordOptions,
  reset,
  settle,
  value,
} from "./infra-mocks.js";

/** Under mocks the kit archive is never read: only its hash reaches user-data and IAM. */
const KIT_SHA = "ab".repeat(32);

beforeAll(installMocks);
beforeEach(reset);

const tmp = mkdtempSync(join(tmpdir(), "ycsb-lab-infra-"));
/** `bash -n` on a rendered script: a syntax error fails the test with bash's message. */
function bashSyntax(script: string): void {
  const file = join(tmp, `script-${Math.random().toString(36).slice(2)}.sh`);
  writeFileSync(file, script);
  execFileSync("bash", ["-n", file], { stdio: "pipe" });
}

const clusterArgs = (engine: Engine, preset: Preset, over: Partial<DatabaseClusterArgs> = {}): DatabaseClusterArgs => ({
  engine,
  preset,
  nodeIps: addressing(3, 1).dataNodeIps,
  instanceType: "m5d.xlarge",
  storage: { kind: "instance-store" },
  recordCount: 3_000_000,
  fieldCount: 10,
  subnetId: "subnet-1",
  securityGroupId: "sg-1",
  resultsBucketName: "results-bucket",
  lifetime: { expiry: "2026-12-31", maxHours: 12 },
  runId: "run-1",
  region: "us-east-1",
  kit: { sha256: KIT_SHA },
  ...over,
});

describe("BenchmarkNetwork", () => {
  it("builds one VPC in one AZ with two subnets, an S3 gateway endpoint and locked-down security groups", async () => {
    const net = new BenchmarkNetwork("net", { region: "eu-west-1", ports: engineRuntime("cassandra").ports });
    await value(net.dataSecurityGroupId);
    await settle();
    expect(countByType()).toMatchObject({
      "ycsb-lab:index:BenchmarkNetwork": 1,
      "aws:ec2/vpc:Vpc": 1,
      "aws:ec2/subnet:Subnet": 2,
      "aws:ec2/vpcEndpoint:VpcEndpoint": 1,
      "aws:ec2/securityGroup:SecurityGroup": 2,
      "aws:ec2/internetGateway:InternetGateway": 1,
    });
    const subnets = ofType("aws:ec2/subnet:Subnet");
    expect(new Set(subnets.map((s) => s.inputs.availabilityZone))).toEqual(new Set(["us-east-1a"]));
    expect(ofType("aws:ec2/vpcEndpoint:VpcEndpoint")[0]!.inputs).toMatchObject({
      serviceName: "com.amazonaws.eu-west-1.s3",
      vpcEndpointType: "Gateway",
    });
    const client = recorded.find((r) => r.name === "net-client-sg")!;
    const data = recorded.find((r) => r.name === "net-data-sg")!;
    expect(client.inputs.ingress ?? []).toEqual([]);
    const ingress = data.inputs.ingress as Array<Record<string, any>>;
    // CQL from the client group only; storage port 7000 only between data nodes; nothing from any CIDR, no port 22.
    const cql = ingress.filter((r) => r.fromPort === 9042);
    expect(cql.some((r) => r.securityGroups?.[0] === "net-client-sg-id" && !r.self)).toBe(true);
    expect(ingress.filter((r) => r.fromPort === 7000).every((r) => r.self === true && !r.securityGroups)).toBe(true);
    expect(ingress.every((r) => !r.cidrBlocks?.length && !r.ipv6CidrBlocks?.length)).toBe(true);
    expect(ingress.some((r) => r.fromPort <= 22 && r.toPort >= 22)).toBe(false);
  });

  it("egress through a NAT gateway: no instance subnet hands out public addresses, the default route goes to the NAT", async () => {
    const net = new BenchmarkNetwork("natnet", {
      region: "us-east-1",
      ports: engineRuntime("cassandra").ports,
      egress: "nat",
    });
    await value(net.dataSecurityGroupId);
    await settle();
    const subnets = ofType("aws:ec2/subnet:Subnet");
    expect(subnets.map((x) => [x.name, x.inputs.mapPublicIpOnLaunch]).sort()).toEqual([
      ["natnet-client", false],
      ["natnet-data", false],
      ["natnet-public", false],
    ]);
    const [nat] = ofType("aws:ec2/natGateway:NatGateway");
    expect(nat!.inputs).toMatchObject({ subnetId: "natnet-public-id", allocationId: "natnet-nat-ip-id" });
    const instanceRoutes = recorded.find((r) => r.name === "natnet-routes")!;
    expect(instanceRoutes.inputs.routes).toEqual([{ cidrBlock: "0.0.0.0/0", natGatewayId: "natnet-nat-id" }]);
    // Public addresses by default (a small fleet: cheaper than the NAT gateway's hour).
    reset();
    const plain = new BenchmarkNetwork("plain", { region: "us-east-1", ports: engineRuntime("cassandra").ports });
    await value(plain.dataSecurityGroupId);
    await settle();
    expect(ofType("aws:ec2/subnet:Subnet").every((x) => x.inputs.mapPublicIpOnLaunch === true)).toBe(true);
    expect(ofType("aws:ec2/natGateway:NatGateway")).toEqual([]);
  });

  it("rejects port 22 and a bad region before creating anything", () => {
    expect(
      () =>
        new BenchmarkNetwork("bad", {
          region: "us-east-1",
          ports: { client: [{ from: 22, to: 22, description: "ssh" }], cluster: [] },
        }),
    ).toThrow(/ports: port 22/);
    expect(() => new BenchmarkNetwork("bad2", { region: "mars", ports: engineRuntime("hbase").ports })).toThrow(
      /region/,
    );
    expect(recorded).toEqual([]);
  });
});

describe("ResultsBucket", () => {
  it("is encrypted, blocks public access, enforces TLS and has lifecycle rules", async () => {
    const b = new ResultsBucket("results", { expireAfterDays: 365 });
    await value(b.bucketName);
    await settle();
    const pab = ofType("aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock")[0]!.inputs;
    expect(pab).toMatchObject({
      blockPublicAcls: true,
      blockPublicPolicy: true,
      ignorePublicAcls: true,
      restrictPublicBuckets: true,
    });
    const sse = ofType("aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration")[0]!
      .inputs;
    expect(sse.rules[0].applyServerSideEncryptionByDefault.sseAlgorithm).toBe("AES256");
    const rules = ofType("aws:s3/bucketLifecycleConfiguration:BucketLifecycleConfiguration")[0]!.inputs.rules;
    expect(rules[0]).toMatchObject({
      status: "Enabled",
      transitions: [{ days: 30, storageClass: "STANDARD_IA" }],
      expiration: { days: 365 },
    });
    const policy = JSON.parse(ofType("aws:s3/bucketPolicy:BucketPolicy")[0]!.inputs.policy);
    expect(policy.Statement[0]).toMatchObject({
      Effect: "Deny",
      Condition: { Bool: { "aws:SecureTransport": "false" } },
    });
    expect(ofType("aws:s3/bucket:Bucket")[0]!.inputs.forceDestroy).toBe(false);
  });

  it("pulumi destroy keeps the bucket and every guard (retainOnDelete), and says so; forceDestroy deletes them", async () => {
    const b = new ResultsBucket("kept", {}, { transformations: [recordOptions] });
    await value(b.bucketName);
    await settle();
    const guarded = [
      "kept-bucket",
      "kept-public-access",
      "kept-ownership",
      "kept-encryption",
      "kept-lifecycle",
      "kept-tls-only",
    ];
    for (const name of guarded) expect(options.get(name)?.retainOnDelete, name).toBe(true);
    expect(await value(b.keptOnDestroy)).toMatch(/pulumi destroy keeps s3:\/\/.* with every result and its guards/);
    reset();
    const gone = new ResultsBucket("gone", { forceDestroy: true }, { transformations: [recordOptions] });
    await value(gone.bucketName);
    await settle();
    expect(ofType("aws:s3/bucket:Bucket")[0]!.inputs.forceDestroy).toBe(true);
    for (const name of guarded.map((n) => n.replace("kept", "gone")))
      expect(options.get(name)?.retainOnDelete ?? false, name).toBe(false);
  });

  it("rejects a Standard-IA transition before 30 days", () => {
    expect(() => new ResultsBucket("r2", { infrequentAccessAfterDays: 7 })).toThrow(/infrequentAccessAfterDays/);
    expect(recorded).toEqual([]);
  });
});

async function buildCluster(name: string, args: DatabaseClusterArgs) {
  const c = new DatabaseCluster(name, args);
  await Promise.all(c.instanceIds.map(value));
  await settle();
  const instances = ofType("aws:ec2/instance:Instance").filter((r) => r.name.startsWith(`${name}-`));
  return { cluster: c, instances, userData: instances.map((i) => i.inputs.userData as string) };
}

describe("DatabaseCluster", () => {
  it("launches one hardened instance per node from the looked-up Debian 12 AMI, with SSM and a scoped role", async () => {
    const { cluster, instances } = await buildCluster("cas", clusterArgs("cassandra", "balanced"));
    expect(instances).toHaveLength(3);
    expect(calls).toContain("aws:ec2/getAmi:getAmi");
    for (const [i, inst] of instances.entries()) {
      expect(inst.inputs).toMatchObject({
        ami: MOCK_AMI,
        instanceType: "m5d.xlarge",
        privateIp: `10.42.1.${10 + i}`,
        metadataOptions: { httpTokens: "required" },
        rootBlockDevice: { encrypted: true },
        placementGroup: "cas-placement",
      });
      expect(inst.inputs.keyName).toBeUndefined();
      expect(inst.inputs.tags).toMatchObject({ "ycsb-lab:engine": "cassandra", "ycsb-lab:preset": "balanced" });
      // balanced keeps the commitlog on its own encrypted volume (seed 004).
      expect(inst.inputs.ebsBlockDevices).toEqual([
        expect.objectContaining({ deviceName: "/dev/sdg", encrypted: true }),
      ]);
    }
    // No AWS managed policy: AmazonSSMManagedInstanceCore's ssm:GetParameter* on "*" would void the run-scoped grant.
    expect(ofType("aws:iam/rolePolicyAttachment:RolePolicyAttachment")).toEqual([]);
    const policy = JSON.parse(ofType("aws:iam/rolePolicy:RolePolicy")[0]!.inputs.policy);
    const put = policy.Statement.find((s: any) => s.Action.includes("s3:PutObject"));
    expect(put.Resource).toEqual([
      "arn:aws:s3:::results-bucket/runs/run-1/cluster/*",
      "arn:aws:s3:::results-bucket/runs/run-1/status/node-*",
    ]);
    expect(policy.Statement.find((s: any) => s.Sid === "ReadClusterAndKit").Resource).toContain(
      `arn:aws:s3:::results-bucket/kits/${KIT_SHA}.tar.gz`,
    );
    expect(policy.Statement.find((s: any) => s.Sid === "SessionManager").Action).toEqual(
      expect.arrayContaining(["ssmmessages:OpenDataChannel", "ssm:UpdateInstanceInformation"]),
    );
    expect(JSON.stringify(policy)).not.toMatch(/ssm:GetParameter\*|"ssm:\*"/);
    expect(policy.Statement.find((s: any) => s.Action.includes("ssm:PutParameter")).Resource).toEqual([
      `arn:aws:ssm:us-east-1:${MOCK_ACCOUNT}:parameter/ycsb-lab/run-1/*`,
    ]);
    expect(cluster.endpoints).toEqual(["10.42.1.10:9042", "10.42.1.11:9042", "10.42.1.12:9042"]);
  });

  it("boots every node with one ycsb-lab command from the kit: no engine download, config or formation in user-data", async () => {
    const { userData } = await buildCluster("boot", clusterArgs("hbase", "durable", { replication: 2 }));
    userData.forEach(bashSyntax);
    expect(userData[1]).toContain("boot --role data --index 1 --run 's3://results-bucket/runs/run-1/'");
    expect(userData[0]).toContain(`kits/${KIT_SHA}.tar.gz`);
    for (const ud of userData)
      expect(ud).not.toMatch(/archive\.apache\.org|hbase-site|git clone|npm (ci|install)|cqlsh|mongosh|couchbase-cli/);
  });

  it("EBS data storage attaches an encrypted volume of the asked type, size and IOPS", async () => {
    const { instances } = await buildCluster(
      "ebs",
      clusterArgs("hbase", "balanced", {
        instanceType: "c6i.2xlarge",
        storage: { kind: "ebs", ebsType: "gp3", sizeGiB: 500, iops: 6000 },
      }),
    );
    expect(instances[0]!.inputs.ebsBlockDevices).toEqual([
      expect.objectContaining({
        deviceName: "/dev/sdf",
        volumeType: "gp3",
        volumeSize: 500,
        iops: 6000,
        encrypted: true,
      }),
    ]);
  });

  it.each([
    ["engine", { engine: "redis" as Engine }, /engine: unknown engine "redis"/],
    ["nodes", { nodeIps: [] }, /nodes: a cluster needs at least 1 node/],
    ["replication", { replication: 4 }, /replication: 1\.\.nodes \(3\)/],
    ["instance store", { instanceType: "c6i.xlarge" }, /storage: c6i\.xlarge has no instance store/],
    ["retired type", { instanceType: "m1.xlarge" }, /instanceType: m1\.xlarge is retired; use m5d\.xlarge/],
    ["mongo topology on cassandra", { mongoTopology: "sharded" as const }, /mongoTopology: only for mongodb/],
    ["kit", { kit: { sha256: "latest" } }, /kit\.sha256: the kit archive's SHA-256/],
  ])("rejects a bad %s before creating anything", (_, over, message) => {
    expect(
      () => new DatabaseCluster("bad", clusterArgs("cassandra", "balanced", over as Partial<DatabaseClusterArgs>)),
    ).toThrow(message);
    expect(recorded).toEqual([]);
  });
});

describe("ClientFleet", () => {
  it("sizes the fleet from the data-node ratio and gives each client a role writing only the keys it owns", async () => {
    const fleet = new ClientFleet("fleet", {
      clients: { dataNodesPerClient: 3, dataNodes: 8 },
      clientIps: addressing(8, 3).clientIps,
      instanceType: "m5.xlarge",
      threadsPerClient: 341,
      subnetId: "subnet-c",
      securityGroupId: "sg-c",
      resultsBucketName: "results-bucket",
      runId: "run-7",
      region: "us-east-1",
      kit: { sha256: KIT_SHA },
      lifetime: { expiry: "2026-12-31" },
    });
    await Promise.all(fleet.instanceIds.map(value));
    await settle();
    expect(fleet.count).toBe(3);
    const instances = ofType("aws:ec2/instance:Instance");
    expect(instances).toHaveLength(3);
    const policies = ofType("aws:iam/rolePolicy:RolePolicy").map((p) => JSON.parse(p.inputs.policy));
    expect(policies).toHaveLength(3);
    expect(ofType("aws:iam/instanceProfile:InstanceProfile").map((p) => p.name)).toEqual([
      "fleet-client-0-profile",
      "fleet-client-1-profile",
      "fleet-client-2-profile",
    ]);
    expect(instances.map((i) => i.inputs.iamInstanceProfile)).toEqual([
      "fleet-client-0-profile",
      "fleet-client-1-profile",
      "fleet-client-2-profile",
    ]);
    const policy = policies[2];
    const writes = policy.Statement.filter((s: any) => s.Action.some((a: string) => /Put|Delete|Abort/.test(a)));
    expect(writes.flatMap((s: any) => s.Resource)).toEqual([
      "arn:aws:s3:::results-bucket/runs/run-7/phases/*/client-2/*",
      "arn:aws:s3:::results-bucket/runs/run-7/barriers/*/client-2.json",
      "arn:aws:s3:::results-bucket/runs/run-7/status/client-2.json",
      "arn:aws:s3:::results-bucket/runs/run-7/status/client-2.log",
      "arn:aws:s3:::results-bucket/runs/run-7/cluster/end.json",
    ]);
    expect(policy.Statement.find((s: any) => s.Action.includes("s3:ListBucket")).Condition).toEqual({
      StringLike: { "s3:prefix": ["runs/run-7/*"] },
    });
    // Only Session Manager's channel actions take "*" (they have no resource-level permissions); nothing else does.
    const wide = policy.Statement.filter((s: any) => s.Resource.includes("*"));
    expect(wide.map((s: any) => s.Sid)).toEqual(["SessionManager"]);
    expect(
      wide[0].Action.every((a: string) => a.startsWith("ssmmessages:") || a === "ssm:UpdateInstanceInformation"),
    ).toBe(true);
    expect(JSON.stringify(policy)).not.toMatch(/"s3:\*"/);
    const ud = instances[2]!.inputs.userData as string;
    bashSyntax(ud);
    expect(ud).toContain("boot --role client --index 2 --run 's3://results-bucket/runs/run-7/'");
    expect(ud).toContain("RestartPreventExitStatus=78");
    expect(instances[2]!.inputs.metadataOptions).toMatchObject({ httpTokens: "required" });
    expect(instances[2]!.inputs.tags["ycsb-lab:threads-per-client"]).toBe("341");
  });

  it("rejects a kit that is not named by its SHA-256 before creating anything", () => {
    expect(
      () =>
        new ClientFleet("badfleet", {
          clients: { count: 1 },
          clientIps: ["10.42.2.10"],
          instanceType: "c6i.large",
          threadsPerClient: 1,
          subnetId: "s",
          securityGroupId: "g",
          resultsBucketName: "b",
          runId: "r",
          region: "us-east-1",
          kit: { sha256: "v0.1.0" },
          lifetime: { expiry: "2026-12-31" },
        }),
    ).toThrow(/kit\.sha256/);
    expect(recorded).toEqual([]);
  });
});
