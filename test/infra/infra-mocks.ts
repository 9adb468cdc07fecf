import * as pulumi from "@pulumi/pulumi";
import { SPOT_PLACEMENT_SCORES_TOKEN } from "../../infra/zone-choice.js";
import { settleRegistrations } from "../../rehearse/evaluate.js";

/** A resource the program registered under mocks. */
export interface Recorded {
  type: string;
  name: string;
  inputs: Record<string, any>;
}

export const recorded: Recorded[] = [];
/** The resource options each resource was registered with (retainOnDelete, ignoreChanges, ...), by name. */
export const options = new Map<string, pulumi.CustomResourceOptions>();
export const calls: string[] = [];

export const MOCK_AMI = "ami-0a1b2c3d4e5f67890";
export const MOCK_ACCOUNT = "123456789012";
/** The account's On-Demand standard vCPU quota (Service Quotas L-1216C47A) the mocked AWS answers; tests lower it. */
export const quota = { vcpus: 5_000 };
/**
 * The mocked region's zones: names map to zone IDs per account, in no order of their own (EC2 user guide, "AZ IDs").
 * us-east-1a offers only the first instance type asked; us-east-1b and us-east-1c offer every type.
 */
export const ZONES = [
  { name: "us-east-1a", id: "use1-az4" },
  { name: "us-east-1b", id: "use1-az6" },
  { name: "us-east-1c", id: "use1-az1" },
];
/**
 * What GetSpotPlacementScores answers, per zone ID, for every request (3 when unset: EC2 scores a request of one
 * instance type low); `refusal` makes it fail as EC2 does, e.g. without ec2:GetSpotPlacementScores.
 */
export const spotScores: {
  byZoneId: Record<string, number>;
  refusal?: string;
  requests: Array<Record<string, unknown>>;
} = {
  byZoneId: {},
  requests: [],
};

/**
 * Pulumi reads `new Error().stack` for every promise it makes (runtime/debuggable.js, kept for its leak report) and
 * every resource it registers (resource.js callsites, a source position the mocks never read). Under vitest each
 * read maps every frame through the source maps (vite's module-runner prepareStackTrace): about 70 % of a stack's
 * evaluation here. Those two reads get V8's plain format; every other stack, a failing test's included, stays mapped.
 */
export function plainPulumiStacks(): void {
  const mapped = Error.prepareStackTrace;
  if (!mapped || (mapped as { plainPulumi?: true }).plainPulumi) return;
  const prepare = (error: Error, frames: NodeJS.CallSite[]): unknown => {
    const top = frames[0];
    const reader = top?.getFileName()?.includes("/@pulumi/pulumi/") ? top.getFunctionName() : null;
    if (reader !== "debuggablePromise" && reader !== "callsites") return mapped(error, frames);
    // A promise's stack is only printed in Pulumi's leak report: the frame that made the promise names it.
    const kept = reader === "debuggablePromise" ? frames.slice(1, 2) : frames;
    return `${error.name}: ${error.message}${kept.map((f) => `\n    at ${f}`).join("")}`;
  };
  Error.prepareStackTrace = Object.assign(prepare, { plainPulumi: true as const });
}

/** Mocks that record every resource and answer only the invokes infra makes; anything else throws. */
export async function installMocks(): Promise<void> {
  plainPulumiStacks();
  await pulumi.runtime.setMocks(
    {
      newResource(args) {
        recorded.push({ type: args.type, name: args.name, inputs: args.inputs });
        const state: Record<string, unknown> = { ...args.inputs, arn: `arn:aws:mock:::${args.name}` };
        if (args.type === "aws:s3/bucket:Bucket") state.bucket = `${args.name}-bucket`;
        if (state.name === undefined) state.name = args.name;
        // A secret named by prefix gets AWS's random suffix; one named in full, the six characters Secrets Manager adds.
        if (args.type === "aws:secretsmanager/secret:Secret")
          state.arn = `arn:aws:secretsmanager:us-east-1:${MOCK_ACCOUNT}:secret:${String(args.inputs.name ?? `${args.inputs.namePrefix}20261123183000000001`)}-AbCdEf`;
        // RDS keeps the master password in a secret of its own (manageMasterUserPassword) and reports its ARN.
        if (args.type === "aws:rds/instance:Instance") {
          Object.assign(state, {
            address: `${args.name}.mock.us-east-1.rds.amazonaws.com`,
            port: 5432,
            endpoint: `${args.name}.mock.us-east-1.rds.amazonaws.com:5432`,
          });
          if (args.inputs.manageMasterUserPassword)
            state.masterUserSecrets = [
              {
                secretArn: `arn:aws:secretsmanager:us-east-1:${MOCK_ACCOUNT}:secret:rds!db-${args.name}-XyZ123`,
                secretStatus: "active",
              },
            ];
        }
        if (args.type === "aws:lb/loadBalancer:LoadBalancer") state.dnsName = `${args.name}.elb.mock`;
        return { id: `${args.name}-id`, state };
      },
      call(args) {
        calls.push(args.token);
        switch (args.token) {
          case "aws:ec2/getAmi:getAmi":
            return { id: MOCK_AMI, name: "debian-12-amd64-20260601-2150", ownerId: args.inputs.owners?.[0] };
          case "aws:index/getAvailabilityZones:getAvailabilityZones":
            return { names: ZONES.map((z) => z.name), zoneIds: ZONES.map((z) => z.id) };
          case "aws:ec2/getInstanceTypeOfferings:getInstanceTypeOfferings": {
            // us-east-1a lacks every type but the first asked: the run must land in us-east-1b, which has them all.
            const types: string[] = args.inputs.filters?.[0]?.values ?? [];
            const offers = [
              ...types.slice(0, 1).map((t) => ["us-east-1a", t]),
              ...types.map((t) => ["us-east-1b", t]),
              ...types.map((t) => ["us-east-1c", t]),
            ];
            return {
              locationType: "availability-zone",
              locations: offers.map((o) => o[0]),
              instanceTypes: offers.map((o) => o[1]),
            };
          }
          case SPOT_PLACEMENT_SCORES_TOKEN:
            // The answer's shape (EC2 API reference, "GetSpotPlacementScores"): scores by zone ID, the top 10 only.
            spotScores.requests.push(args.inputs);
            // A failed invoke reaches the program as the gRPC error's details (as the engine reports a provider's).
            if (spotScores.refusal) throw Object.assign(new Error(spotScores.refusal), { details: spotScores.refusal });
            return {
              spotPlacementScores: ZONES.map((z) => ({
                region: "us-east-1",
                availabilityZoneId: z.id,
                score: spotScores.byZoneId[z.id] ?? 3,
              })),
            };
          case "aws:index/getCallerIdentity:getCallerIdentity":
            return { accountId: MOCK_ACCOUNT, arn: `arn:aws:iam::${MOCK_ACCOUNT}:user/test`, userId: "AIDTEST" };
          case "aws:secretsmanager/getRandomPassword:getRandomPassword":
            return { randomPassword: "mock-random-password-0123456789abcdefghij" };
          case "aws:servicequotas/getServiceQuota:getServiceQuota":
            return {
              serviceCode: args.inputs.serviceCode,
              quotaCode: args.inputs.quotaCode,
              value: quota.vcpus,
              adjustable: true,
              globalQuota: false,
            };
          default:
            throw new Error(`Mock not implemented: ${args.token}`);
        }
      },
    },
    "ycsb-lab",
    "test",
    false,
  );
}

/**
 * Mocks see inputs only: give a component `{ transformations: [recordOptions] }` to see the options it gave each
 * of its resources (retainOnDelete, ignoreChanges, ...) in `options`.
 */
export const recordOptions: pulumi.ResourceTransformation = (args) => {
  options.set(args.name, args.opts as pulumi.CustomResourceOptions);
  return undefined;
};

export function reset(): void {
  spotScores.byZoneId = {};
  spotScores.refusal = undefined;
  spotScores.requests.length = 0;
  recorded.length = 0;
  options.clear();
  calls.length = 0;
}

/** Resolve an Output's value (mock mode resolves everything, previews included). */
export function value<T>(o: pulumi.Input<T>): Promise<T> {
  return new Promise((resolve) => pulumi.output(o).apply((v) => resolve(v as T)));
}

/** Wait until no resource has been registered for a few event-loop turns (outputs like user-data resolve late). */
export const settle = (): Promise<void> => settleRegistrations(() => recorded.length);

export const ofType = (type: string) => recorded.filter((r) => r.type === type);
export const countByType = () =>
  recorded.reduce<Record<string, number>>((acc, r) => ((acc[r.type] = (acc[r.type] ?? 0) + 1), acc), {});
