import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DashboardService, type DashboardServiceArgs, planDashboard } from "../../infra/dashboard-service.js";
import type { PolicyDocument } from "../../infra/policies.js";
import { evaluatePolicy } from "../../infra/policy-eval.js";
import { parseServiceDescription } from "../../model/service-description.js";
import { stackConfigFromFiles } from "../../stacks/config-file.js";
import { dashboardProgram } from "../../stacks/program.js";
import { dashboardArgs } from "../../stacks/settings.js";
import { installMocks, MOCK_ACCOUNT, ofType, options, recordOptions, reset, settle, value } from "./infra-mocks.js";

const KIT = { path: "ycsb-lab-kit-dashboard.tar.gz", sha256: "cd".repeat(32), version: "0.1.0" };
const RANDOM = "mock-random-password-0123456789abcdefghij";
const args = (over: Partial<DashboardServiceArgs> = {}): DashboardServiceArgs => ({
  serviceId: "team-dash",
  owner: "perf-team",
  region: "us-east-1",
  kit: KIT,
  importBuckets: ["scenario-a-results", { bucket: "scenario-b-results", prefix: "nightly/" }],
  ...over,
});

beforeAll(installMocks);
beforeEach(reset);

const tmp = mkdtempSync(join(tmpdir(), "ycsb-lab-dashboard-"));

async function deploy(over: Partial<DashboardServiceArgs> = {}) {
  const service = new DashboardService("dash", args(over), { transformations: [recordOptions] });
  await value(service.url);
  await value(service.instanceId);
  await settle();
  const policies = ofType("aws:iam/rolePolicy:RolePolicy").map((p) => JSON.parse(p.inputs.policy) as PolicyDocument);
  const sgs = new Map(ofType("aws:ec2/securityGroup:SecurityGroup").map((g) => [g.name, g.inputs]));
  return { service, policy: policies[0]!, policies, sgs };
}

const ingressCidrs = (sg: { ingress?: Array<{ cidrBlocks?: string[] }> }) =>
  (sg.ingress ?? []).flatMap((r) => r.cidrBlocks ?? []);

describe("DashboardService", () => {
  it("runs RDS PostgreSQL encrypted, in private subnets, backed up for 7 days, deletion-protected, its password managed by RDS", async () => {
    await deploy();
    const [db] = ofType("aws:rds/instance:Instance");
    expect(db!.inputs).toMatchObject({
      engine: "postgres",
      storageEncrypted: true,
      publiclyAccessible: false,
      deletionProtection: true,
      manageMasterUserPassword: true,
      skipFinalSnapshot: false,
      instanceClass: "db.t4g.micro",
      storageType: "gp3",
    });
    expect(db!.inputs.backupRetentionPeriod).toBeGreaterThanOrEqual(7);
    expect(db!.inputs.password).toBeUndefined();
    const [group] = ofType("aws:rds/subnetGroup:SubnetGroup");
    const subnets = new Map(ofType("aws:ec2/subnet:Subnet").map((s) => [`${s.name}-id`, s.inputs]));
    expect(group!.inputs.subnetIds).toHaveLength(2);
    for (const id of group!.inputs.subnetIds as string[]) {
      expect(id).toMatch(/private/);
      expect(subnets.get(id)!.mapPublicIpOnLaunch).toBe(false);
    }
    // Two zones (RDS requires a subnet group spanning two).
    expect(new Set((group!.inputs.subnetIds as string[]).map((id) => subnets.get(id)!.availabilityZone)).size).toBe(2);
  });

  it("lets nothing in from the internet by default: the database from the service's group only, the service from nobody", async () => {
    const { sgs } = await deploy();
    expect([...sgs.keys()].sort()).toEqual(["dash-db-sg", "dash-service-sg"]);
    for (const [name, sg] of sgs) expect(ingressCidrs(sg), name).toEqual([]);
    expect(sgs.get("dash-service-sg")!.ingress).toEqual([]);
    const dbRules = sgs.get("dash-db-sg")!.ingress as Array<{
      fromPort: number;
      toPort: number;
      securityGroups: string[];
    }>;
    expect(dbRules).toHaveLength(1);
    expect(dbRules[0]).toMatchObject({ fromPort: 5432, toPort: 5432, securityGroups: ["dash-service-sg-id"] });
    expect(ofType("aws:lb/loadBalancer:LoadBalancer")).toHaveLength(0);
    const [instance] = ofType("aws:ec2/instance:Instance");
    expect(instance!.inputs.subnetId).toBe("dash-private-0-id");
    expect(instance!.inputs.associatePublicIpAddress).toBe(false);
    expect(instance!.inputs.metadataOptions.httpTokens).toBe("required");
    expect(instance!.inputs.instanceInitiatedShutdownBehavior).toBe("stop");
    expect(ofType("aws:ec2/natGateway:NatGateway")).toHaveLength(1);
  });

  it("keeps the write token in Secrets Manager, generated once (a later up never rotates it), never in user-data, outputs or the service description", async () => {
    const { service } = await deploy();
    const secrets = ofType("aws:secretsmanager/secret:Secret");
    expect(secrets.map((s) => s.inputs.namePrefix)).toEqual(["ycsb-lab/team-dash/write-token-"]);
    const [version] = ofType("aws:secretsmanager/secretVersion:SecretVersion");
    expect(options.get(version!.name)?.ignoreChanges).toEqual(["secretString"]);
    const [instance] = ofType("aws:ec2/instance:Instance");
    const [described] = ofType("aws:s3/bucketObjectv2:BucketObjectv2").filter(
      (o) => o.inputs.key === "runs/team-dash/service.json",
    );
    const d = parseServiceDescription(described!.inputs.content, "service.json");
    expect(d.writeTokenSecretArn).toBe(await value(service.writeTokenSecretArn));
    expect(d.database).toMatchObject({ port: 5432, name: "ycsb_lab", sslMode: "verify-full" });
    expect(d.database.secretArn).toMatch(/:secret:rds!db-/);
    expect(d.importBuckets).toEqual([
      { bucket: "scenario-a-results", prefix: "" },
      { bucket: "scenario-b-results", prefix: "nightly/" },
    ]);
    for (const text of [
      instance!.inputs.userData,
      described!.inputs.content,
      await value(service.url),
      await value(service.portForwardCommand),
    ])
      expect(text).not.toContain(RANDOM);
  });

  it("may read exactly the buckets it is given and exactly its secrets, write only its own status, and nothing else", async () => {
    const { policy } = await deploy();
    const d = parseServiceDescription(
      ofType("aws:s3/bucketObjectv2:BucketObjectv2").find((o) => o.inputs.key === "runs/team-dash/service.json")!.inputs
        .content,
      "service.json",
    );
    const can = (action: string, resource: string, context?: Record<string, string>) =>
      evaluatePolicy(policy, { action, resource, ...(context ? { context } : {}) });
    expect(can("s3:GetObject", "arn:aws:s3:::scenario-a-results/runs/r1/manifest.json")).toBe("allowed");
    expect(can("s3:ListBucket", "arn:aws:s3:::scenario-a-results", { "s3:prefix": "" })).toBe("allowed");
    expect(can("s3:GetObject", "arn:aws:s3:::scenario-b-results/nightly/runs/r1/manifest.json")).toBe("allowed");
    expect(can("s3:GetObject", "arn:aws:s3:::scenario-b-results/other/secret.json")).toBe("implicit-deny");
    expect(can("s3:ListBucket", "arn:aws:s3:::scenario-b-results", { "s3:prefix": "other/" })).toBe("implicit-deny");
    expect(can("s3:GetObject", "arn:aws:s3:::someone-elses-bucket/runs/r1/manifest.json")).toBe("implicit-deny");
    expect(can("s3:PutObject", "arn:aws:s3:::scenario-a-results/runs/r1/manifest.json")).toBe("implicit-deny");
    expect(can("s3:DeleteObject", "arn:aws:s3:::scenario-a-results/runs/r1/manifest.json")).toBe("implicit-deny");
    expect(can("secretsmanager:GetSecretValue", d.writeTokenSecretArn)).toBe("allowed");
    expect(can("secretsmanager:GetSecretValue", d.database.secretArn)).toBe("allowed");
    expect(
      can("secretsmanager:GetSecretValue", `arn:aws:secretsmanager:us-east-1:${MOCK_ACCOUNT}:secret:another-AbCdEf`),
    ).toBe("implicit-deny");
    expect(can("secretsmanager:PutSecretValue", d.writeTokenSecretArn)).toBe("implicit-deny");
    expect(can("ssm:GetParameter", `arn:aws:ssm:us-east-1:${MOCK_ACCOUNT}:parameter/anything`)).toBe("implicit-deny");
    // Only Session Manager's own actions name "*" (no AWS managed policy).
    for (const s of policy.Statement) if (s.Resource.includes("*")) expect(s.Sid).toBe("SessionManager");
    expect(ofType("aws:iam/rolePolicyAttachment:RolePolicyAttachment")).toHaveLength(0);
  });

  it("boots with the same user-data shape as every instance: the kit and one `ycsb-lab boot --role dashboard`, no Java", async () => {
    await deploy();
    const userData = ofType("aws:ec2/instance:Instance")[0]!.inputs.userData as string;
    expect(userData).toContain("boot --role dashboard --index 0 --run 's3://dash-svc-bucket-bucket/runs/team-dash/'");
    expect(userData).toContain(`kits/${KIT.sha256}.tar.gz`);
    expect(userData).not.toMatch(/openjdk/);
    const file = join(tmp, "user-data.sh");
    writeFileSync(file, userData);
    execFileSync("bash", ["-n", file]);
  });

  it("with a load balancer: HTTPS from the allow-listed CIDRs only, the service from the load balancer only, reads protected by a read token", async () => {
    const { sgs, service } = await deploy({
      loadBalancer: {
        certificateArn: `arn:aws:acm:us-east-1:${MOCK_ACCOUNT}:certificate/abc`,
        allowedCidrs: ["203.0.113.0/24"],
      },
    });
    expect(ingressCidrs(sgs.get("dash-lb-sg")!)).toEqual(["203.0.113.0/24"]);
    expect((sgs.get("dash-lb-sg")!.ingress as Array<{ fromPort: number }>).map((r) => r.fromPort)).toEqual([443]);
    expect(ingressCidrs(sgs.get("dash-service-sg")!)).toEqual([]);
    expect(sgs.get("dash-service-sg")!.ingress).toEqual([
      expect.objectContaining({ fromPort: 8080, securityGroups: ["dash-lb-sg-id"] }),
    ]);
    const [listener] = ofType("aws:lb/listener:Listener");
    expect(listener!.inputs).toMatchObject({
      port: 443,
      protocol: "HTTPS",
      certificateArn: `arn:aws:acm:us-east-1:${MOCK_ACCOUNT}:certificate/abc`,
    });
    expect(await value(service.url)).toBe("https://dash-lb.elb.mock/");
    const d = parseServiceDescription(
      ofType("aws:s3/bucketObjectv2:BucketObjectv2").find((o) => o.inputs.key === "runs/team-dash/service.json")!.inputs
        .content,
      "service.json",
    );
    expect(d.protectReads).toBe(true);
    expect(d.readTokenSecretArn).toMatch(/read-token/);
    expect(
      ofType("aws:secretsmanager/secret:Secret")
        .map((s) => s.inputs.namePrefix)
        .sort(),
    ).toEqual(["ycsb-lab/team-dash/read-token-", "ycsb-lab/team-dash/write-token-"]);
  });

  it.each([
    [
      "fewer than 7 days of backups",
      { database: { backupRetentionDays: 3 } },
      /database.backupRetentionDays: 7-35 days, got 3/,
    ],
    [
      "a load balancer open to nobody named",
      { loadBalancer: { certificateArn: "arn:aws:acm:us-east-1:123456789012:certificate/x", allowedCidrs: [] } },
      /loadBalancer.allowedCidrs: name at least one CIDR/,
    ],
    [
      "a load balancer with open reads",
      {
        protectReads: false,
        loadBalancer: {
          certificateArn: "arn:aws:acm:us-east-1:123456789012:certificate/x",
          allowedCidrs: ["10.0.0.0/8"],
        },
      },
      /protectReads/,
    ],
    ["a bucket name S3 refuses", { importBuckets: ["Bad_Bucket"] }, /importBuckets\[0\]: an S3 bucket name/],
    ["an unpriced instance type", { instanceType: "t4g.small" }, /instanceType: one of t3.micro/],
  ])("refuses %s before creating anything", (_what, over, message) => {
    expect(() => new DashboardService("bad", args(over as Partial<DashboardServiceArgs>))).toThrow(message);
    expect(ofType("aws:rds/instance:Instance")).toHaveLength(0);
  });

  it("estimates its monthly cost from the project's price tables: the NAT gateway is the largest part by default", () => {
    const nat = planDashboard(args()).cost;
    // t3.small 0.0208 $/h, root 30 GiB gp3, db.t4g.micro 0.016 $/h + 20 GiB, NAT 0.045 $/h + its IPv4, 2 secrets; 730 h.
    expect(nat.breakdown).toEqual({
      instance: 15.184,
      ebs: 2.4,
      database: 11.68,
      databaseStorage: 2.3,
      egress: 36.5,
      loadBalancer: 0,
      secrets: 0.8,
    });
    expect(nat.usdPerMonth).toBe(68.864);
    const publicIp = planDashboard(args({ egress: "public-ip" })).cost;
    expect(publicIp.usdPerMonth).toBeCloseTo(68.864 - 36.5 + 3.65, 3);
  });
});

describe("stacks/Pulumi.dashboard.yaml", () => {
  it("evaluates under mocks into a DashboardService importing the buckets its config lists", async () => {
    const get = stackConfigFromFiles("dashboard", {
      "ycsb-lab:importBuckets": "quickstart-results-abc,endpoint-results-def/runs-2026/",
    });
    expect(dashboardArgs(get, "dashboard", KIT).importBuckets).toEqual([
      { bucket: "quickstart-results-abc" },
      { bucket: "endpoint-results-def", prefix: "runs-2026/" },
    ]);
    const out = dashboardProgram(get, "dashboard", KIT);
    expect(out.serviceId).toBe("dashboard");
    expect(await value(out.portForwardCommand)).toMatch(
      /AWS-StartPortForwardingSession --parameters portNumber=8080,localPortNumber=8080/,
    );
    await value(out.instanceId);
    await settle();
    expect(out.estimatedUsdPerMonth).toBe(68.864);
    expect(ofType("aws:rds/instance:Instance")).toHaveLength(1);
  });

  it("names what is wrong in its config", () => {
    const get = stackConfigFromFiles("dashboard", { "ycsb-lab:allowedCidrs": "10.0.0.0/8" });
    expect(() => dashboardArgs(get, "dashboard", KIT)).toThrow(/ycsb-lab:allowedCidrs: needs ycsb-lab:certificateArn/);
  });
});

describe("DashboardService survives destroy and up", () => {
  it("a second deployment after a destroy: its secrets take names of their own, its database a final snapshot name of its own", async () => {
    await deploy({ now: new Date("2026-11-23T18:30:00Z") });
    const first = {
      secrets: ofType("aws:secretsmanager/secret:Secret").map((s) => s.inputs),
      db: ofType("aws:rds/instance:Instance")[0]!.inputs,
    };
    expect(options.get("dash-db")?.ignoreChanges).toEqual(["finalSnapshotIdentifier"]);
    reset();
    await deploy({ now: new Date("2026-12-02T09:00:00Z") });
    const second = {
      secrets: ofType("aws:secretsmanager/secret:Secret").map((s) => s.inputs),
      db: ofType("aws:rds/instance:Instance")[0]!.inputs,
    };
    // A destroyed secret keeps its name through the recovery window: a fixed name would make the next up fail.
    for (const s of [...first.secrets, ...second.secrets]) {
      expect(s.name).toBeUndefined();
      expect(s.namePrefix).toMatch(/^ycsb-lab\/team-dash\/write-token-$/);
      expect(s.recoveryWindowInDays).toBe(7);
    }
    expect(first.db.finalSnapshotIdentifier).toBe("team-dash-final-20261123-183000");
    expect(second.db.finalSnapshotIdentifier).toBe("team-dash-final-20261202-090000");
  });

  it("verifies RDS's certificate: the service description asks for verify-full", async () => {
    await deploy();
    const d = parseServiceDescription(
      ofType("aws:s3/bucketObjectv2:BucketObjectv2").find((o) => String(o.inputs.key).endsWith("service.json"))!.inputs
        .content,
      "service.json",
    );
    expect(d.database.sslMode).toBe("verify-full");
  });
});
