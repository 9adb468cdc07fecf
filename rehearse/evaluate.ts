import * as pulumi from "@pulumi/pulumi";
import type { PolicyDocument } from "../infra/policies.js";
import { SPOT_PLACEMENT_SCORES_TOKEN } from "../infra/zone-choice.js";
import { dashboardProgram, stackProgram } from "../stacks/program.js";
import { type ConfigSource, type StackKit, stackKind } from "../stacks/settings.js";

/**
 * A stack evaluated the way `pulumi up` would, with the AWS API mocked (pulumi.runtime.setMocks): what it would
 * create, as plain values. The rehearsal takes everything from here (user-data, uploads, IAM policies) instead of
 * assembling it again, so what it runs is what AWS would receive.
 */
export interface RecordedResource {
  type: string;
  name: string;
  inputs: Record<string, any>;
}

export interface StackInstance {
  role: "data" | "client" | "dashboard";
  index: number;
  name: string;
  privateIp: string;
  instanceType: string;
  userData: string;
  /** The IAM role's name, whose inline policy the instance gets. */
  roleName: string;
  /** The EBS volumes EC2 attaches (device name as given, size in GiB). */
  ebs: Array<{ deviceName: string; sizeGiB: number }>;
}

export interface StackUpload {
  key: string;
  /** Inline content (plan.json, cluster.json) or a file on this machine (the kit). */
  content?: string;
  file?: string;
}

export interface EvaluatedStack {
  stack: string;
  runId: string;
  engine: string;
  bucket: string;
  region: string;
  account: string;
  instances: StackInstance[];
  uploads: StackUpload[];
  /** Inline policy of each role, by role name. */
  policies: Map<string, PolicyDocument>;
  resources: RecordedResource[];
}

/** What the mocked AWS answers; the account is moto's default, so policies name the account the emulator runs as. */
export const REHEARSAL_ACCOUNT = "123456789012";
const REHEARSAL_AMI = "ami-00000000000000000";

/**
 * Wait until no resource has been registered for a few event-loop turns: under mocks, outputs such as user-data
 * resolve late and register more resources as they do. `registered` counts what has been registered so far.
 */
export async function settleRegistrations(registered: () => number): Promise<void> {
  let last = -1;
  let stable = 0;
  while (stable < 5) {
    await new Promise((r) => setTimeout(r, 10));
    if (registered() === last) stable++;
    else {
      stable = 0;
      last = registered();
    }
  }
}

const outputValue = <T>(o: pulumi.Input<T>) =>
  new Promise<T>((resolve) => pulumi.output(o).apply((v) => resolve(v as T)));

/** The evaluation running in this process: Pulumi's mocks are one global state, so evaluations take turns. */
let turn: Promise<unknown> = Promise.resolve();

export function evaluateStack(stack: string, get: ConfigSource, kit: StackKit): Promise<EvaluatedStack> {
  const mine = turn.then(() => evaluateAlone(stack, get, kit));
  turn = mine.catch(() => undefined);
  return mine;
}

async function evaluateAlone(stack: string, get: ConfigSource, kit: StackKit): Promise<EvaluatedStack> {
  const recorded: RecordedResource[] = [];
  const region = get("aws:region") ?? "us-east-1";
  await pulumi.runtime.setMocks(
    {
      newResource(args) {
        recorded.push({ type: args.type, name: args.name, inputs: args.inputs });
        const state: Record<string, unknown> = { ...args.inputs, arn: `arn:aws:mock:::${args.name}` };
        // A bucket name S3 (and the emulator) accepts: lower case, at most 63 characters.
        if (args.type === "aws:s3/bucket:Bucket")
          state.bucket = `${String(args.inputs.bucketPrefix ?? "ycsb-lab-")}rehearsal`.slice(0, 63);
        if (state.name === undefined) state.name = args.name;
        // What AWS reports and the dashboard stack passes on: secret ARNs (partial ARNs, which Secrets Manager and
        // moto accept), the database's address and its managed master secret.
        if (args.type === "aws:secretsmanager/secret:Secret")
          state.arn = `arn:aws:secretsmanager:${region}:${REHEARSAL_ACCOUNT}:secret:${String(args.inputs.name ?? `${args.inputs.namePrefix}rehearsal`)}`;
        if (args.type === "aws:rds/instance:Instance") {
          Object.assign(state, {
            address: `${args.name}.rehearsal.rds.amazonaws.com`,
            port: 5432,
            endpoint: `${args.name}.rehearsal.rds.amazonaws.com:5432`,
          });
          state.masterUserSecrets = [
            {
              secretArn: `arn:aws:secretsmanager:${region}:${REHEARSAL_ACCOUNT}:secret:rds!db-${args.name}`,
              secretStatus: "active",
            },
          ];
        }
        return { id: `${args.name}-id`, state };
      },
      call(args) {
        switch (args.token) {
          case "aws:ec2/getAmi:getAmi":
            return {
              id: REHEARSAL_AMI,
              name: `${String(args.inputs.filters?.[0]?.values?.[0] ?? "rehearsal").replace("*", "")}rehearsal`,
            };
          case "aws:index/getAvailabilityZones:getAvailabilityZones":
            return { names: [`${region}a`, `${region}b`], zoneIds: ["az1", "az2"] };
          case "aws:ec2/getInstanceTypeOfferings:getInstanceTypeOfferings": {
            const types: string[] = args.inputs.filters?.[0]?.values ?? [];
            return {
              locationType: "availability-zone",
              locations: types.map(() => `${region}a`),
              instanceTypes: types,
            };
          }
          case "aws:secretsmanager/getRandomPassword:getRandomPassword":
            // A token for the stack's secret version; the rehearsal puts tokens of its own into the emulated secrets.
            return { randomPassword: "rehearsal-token-not-used-0123456789" };
          case "aws:servicequotas/getServiceQuota:getServiceQuota":
            // Capacity is what only AWS can show: the rehearsal's account holds any stack.
            return {
              serviceCode: args.inputs.serviceCode,
              quotaCode: args.inputs.quotaCode,
              value: 1_000_000,
              adjustable: true,
              globalQuota: false,
            };
          case SPOT_PLACEMENT_SCORES_TOKEN:
            // Capacity again: every zone of the rehearsal's region scores alike.
            return {
              spotPlacementScores: ["az1", "az2"].map((availabilityZoneId) => ({
                region,
                availabilityZoneId,
                score: 5,
              })),
            };
          case "aws:index/getCallerIdentity:getCallerIdentity":
            return {
              accountId: REHEARSAL_ACCOUNT,
              arn: `arn:aws:iam::${REHEARSAL_ACCOUNT}:user/rehearsal`,
              userId: "REHEARSAL",
            };
          default:
            throw new Error(`rehearsal: the stack calls ${args.token}, which the rehearsal does not answer`);
        }
      },
    },
    "ycsb-lab",
    stack,
    false,
  );
  let bucket: string | undefined;
  let runId: string;
  let engine: string;
  if (stackKind(get) === "dashboard") {
    const out = dashboardProgram(get, stack, kit);
    bucket = await outputValue(out.serviceBucket);
    await outputValue(out.instanceId);
    runId = out.serviceId;
    engine = "dashboard";
  } else {
    const out = stackProgram(get, stack, kit);
    const resultsPrefix = await outputValue(out.resultsPrefix);
    bucket = /^s3:\/\/([^/]+)\//.exec(resultsPrefix)?.[1];
    if (!bucket) throw new Error(`rehearsal: the stack's resultsPrefix "${resultsPrefix}" names no bucket`);
    runId = out.runId;
    engine = String(out.engine);
  }
  await settleRegistrations(() => recorded.length);

  const of = (type: string) => recorded.filter((r) => r.type === type);
  const roleOfProfile = new Map(
    of("aws:iam/instanceProfile:InstanceProfile").map((p) => [p.name, String(p.inputs.role)]),
  );
  const policies = new Map<string, PolicyDocument>();
  for (const rp of of("aws:iam/rolePolicy:RolePolicy"))
    policies.set(String(rp.inputs.role).replace(/-id$/, ""), JSON.parse(rp.inputs.policy) as PolicyDocument);
  const instances: StackInstance[] = of("aws:ec2/instance:Instance").map((i) => {
    const tags = i.inputs.tags as Record<string, string>;
    const role =
      tags["ycsb-lab:role"] === "client" ? "client" : tags["ycsb-lab:role"] === "dashboard" ? "dashboard" : "data";
    const index =
      role === "client"
        ? Number(tags["ycsb-lab:client-index"])
        : role === "dashboard"
          ? 0
          : Number(/-node-(\d+)$/.exec(i.name)?.[1]);
    const roleName = roleOfProfile.get(String(i.inputs.iamInstanceProfile));
    if (!roleName) throw new Error(`rehearsal: instance ${i.name} has no instance profile the stack created`);
    const ebs = ((i.inputs.ebsBlockDevices ?? []) as Array<{ deviceName: string; volumeSize: number }>).map((v) => ({
      deviceName: v.deviceName,
      sizeGiB: Number(v.volumeSize),
    }));
    return {
      role,
      index,
      name: i.name,
      privateIp: String(i.inputs.privateIp),
      instanceType: String(i.inputs.instanceType),
      userData: String(i.inputs.userData),
      roleName,
      ebs,
    };
  });
  instances.sort((a, b) => (a.role === b.role ? a.index - b.index : a.role === "data" ? -1 : 1));
  const uploads: StackUpload[] = await Promise.all(
    of("aws:s3/bucketObjectv2:BucketObjectv2").map(async (o) => {
      // A FileAsset keeps its path as a promise under mocks.
      const path = await (o.inputs.source as { path?: string | Promise<string> } | undefined)?.path;
      return {
        key: String(o.inputs.key),
        ...(o.inputs.content !== undefined ? { content: String(o.inputs.content) } : {}),
        ...(path ? { file: path } : {}),
      };
    }),
  );
  return {
    stack,
    runId,
    engine,
    bucket,
    region,
    account: REHEARSAL_ACCOUNT,
    instances,
    uploads,
    policies,
    resources: recorded,
  };
}
