import { writeFileSync } from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import { SPOT_PLACEMENT_SCORES_TOKEN } from "ycsb-lab";

/**
 * Evaluates this program under Pulumi's mocks, with no cloud account and no Pulumi CLI: every resource it would
 * create, with its inputs, written as JSON to mock-resources.json or the file named first on the command line (what a
 * unit test of this repository asserts on). Run: npm run check.
 * The mocks answer the data sources BenchmarkScenario reads at preview the way AWS would for an empty account.
 */
const resources: Array<{ type: string; name: string; inputs: Record<string, unknown> }> = [];
const region = process.env.AWS_REGION ?? "us-east-1";

await pulumi.runtime.setMocks(
  {
    newResource(args) {
      resources.push({ type: args.type, name: args.name, inputs: args.inputs });
      const state: Record<string, unknown> = { ...args.inputs, arn: `arn:aws:mock:::${args.name}` };
      if (args.type === "aws:s3/bucket:Bucket") state.bucket = `${String(args.inputs.bucketPrefix ?? "bench-")}mock`;
      if (state.name === undefined) state.name = args.name;
      return { id: `${args.name}-id`, state };
    },
    call(args) {
      switch (args.token) {
        case "aws:ec2/getAmi:getAmi":
          return { id: "ami-0123456789abcdef0", name: "debian-12-amd64-mock" };
        case "aws:index/getAvailabilityZones:getAvailabilityZones":
          return { names: [`${region}a`, `${region}b`], zoneIds: ["use1-az1", "use1-az2"] };
        case "aws:ec2/getInstanceTypeOfferings:getInstanceTypeOfferings": {
          const types: string[] = args.inputs.filters?.[0]?.values ?? [];
          return { locationType: "availability-zone", locations: types.map(() => `${region}a`), instanceTypes: types };
        }
        case SPOT_PLACEMENT_SCORES_TOKEN:
          // EC2's GetSpotPlacementScores (the zone's capacity advice), which the program asks with the AWS SDK.
          return { spotPlacementScores: [{ region, availabilityZoneId: "use1-az1", score: 3 }] };
        case "aws:index/getCallerIdentity:getCallerIdentity":
          return { accountId: "123456789012", arn: "arn:aws:iam::123456789012:user/ci", userId: "AIDMOCK" };
        case "aws:servicequotas/getServiceQuota:getServiceQuota":
          return {
            serviceCode: args.inputs.serviceCode,
            quotaCode: args.inputs.quotaCode,
            value: 64,
            adjustable: true,
            globalQuota: false,
          };
        default:
          throw new Error(`check-under-mocks: the program calls ${args.token}, which these mocks do not answer`);
      }
    },
  },
  "benchmarks-infra",
  "dev",
  true,
);
pulumi.runtime.setAllConfig({
  "aws:region": region,
  "benchmarks-infra:owner": "infra-team",
  "benchmarks-infra:runId": "consumer-check-1",
  ...(process.env.KIT_JSON ? { "benchmarks-infra:kit": process.env.KIT_JSON } : {}),
});

const program = (await import("./index.js")) as Record<string, unknown>;
const value = (o: unknown) => new Promise((resolve) => (pulumi.output(o) as pulumi.Output<unknown>).apply(resolve));
const outputs = Object.fromEntries(
  await Promise.all(Object.entries(program).map(async ([k, v]) => [k, await value(v)])),
);
// Outputs resolve late under mocks and register more resources as they do: wait until none comes for a while.
for (let seen = -1, quiet = 0; quiet < 5; ) {
  await new Promise((r) => setTimeout(r, 10));
  quiet = resources.length === seen ? quiet + 1 : 0;
  seen = resources.length;
}
// A file asset's path is a promise: show the file each upload would send.
for (const r of resources) {
  const source = r.inputs.source as { path?: Promise<string> } | undefined;
  if (source?.path instanceof Promise) r.inputs.source = { file: await source.path };
}
// A file, not stdout: Pulumi's own log lines (info: ...) go to stdout under mocks.
const out = process.argv[2] ?? "mock-resources.json";
writeFileSync(out, `${JSON.stringify({ outputs, resources }, null, 1)}\n`);
console.log(`${resources.length} resources evaluated under mocks: ${out}`);
