import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BenchmarkScenario, type BenchmarkScenarioArgs, planScenario } from "../../infra/benchmark-scenario.js";
import { instanceUserData } from "../../infra/user-data.js";
import { clusterDescriptionProblems } from "../../model/cluster-description.js";
import { clientCount } from "../../model/scenario.js";
import { SCENARIOS } from "../../model/scenarios.js";
import { stackNames as listStacks, stackConfigFromFiles } from "../../stacks/config-file.js";
import { stackProgram } from "../../stacks/program.js";
import { type ConfigSource, stackArgs, stackKind } from "../../stacks/settings.js";
import {
  countByType,
  installMocks,
  MOCK_AMI,
  ofType,
  options,
  recorded,
  recordOptions,
  reset,
  settle,
  value,
} from "./infra-mocks.js";

const stackConfig = (stack: string): ConfigSource => stackConfigFromFiles(stack);
/** The scenario stacks; the dashboard stack (ycsb-lab:kind: dashboard) deploys the team's service, not a scenario. */
const stackNames = listStacks().filter((s) => stackKind(stackConfig(s)) === "scenario");

/** Under mocks the kit archive is never read: its path, hash and version reach the resources. */
const KIT = { path: "ycsb-lab-kit.tar.gz", sha256: "ef".repeat(32), version: "0.1.0" };
const NOW = new Date("2026-11-23T18:30:42Z");

beforeAll(installMocks);
beforeEach(reset);

describe("stacks/", () => {
  it("has one Pulumi.<name>.yaml per scenario in model/scenarios.ts, and the dashboard stack", () => {
    expect(stackNames.sort()).toEqual(Object.keys(SCENARIOS).sort());
    expect(listStacks().filter((s) => !stackNames.includes(s))).toEqual(["dashboard"]);
  });

  it.each(stackNames)("Pulumi.%s.yaml evaluates under mocks into the scenario's resource graph", async (stack) => {
    const get = stackConfig(stack);
    const out = stackProgram(get, stack, KIT, NOW);
    // Every up is a new run: the stack's name and the minute (UTC).
    const runId = `${stack}-20261123-1830`;
    expect(out.runId).toBe(runId);
    await value(out.resultsPrefix);
    await settle();
    const spec = SCENARIOS[get("ycsb-lab:scenario") as keyof typeof SCENARIOS];
    const nodes = Number(get("ycsb-lab:nodes"));
    const clients = clientCount(spec, nodes);
    const instances = ofType("aws:ec2/instance:Instance");
    const data = instances.filter((i) => i.inputs.tags["ycsb-lab:role"] !== "client");
    const fleet = instances.filter((i) => i.inputs.tags["ycsb-lab:role"] === "client");
    expect(data).toHaveLength(nodes);
    expect(fleet).toHaveLength(clients);
    expect(new Set(data.map((i) => i.inputs.instanceType))).toEqual(
      new Set([get("ycsb-lab:dataInstanceType") ?? spec.dataNode.instanceType]),
    );
    expect(new Set(fleet.map((i) => i.inputs.instanceType))).toEqual(
      new Set([get("ycsb-lab:clientInstanceType") ?? spec.clientNode.instanceType]),
    );
    expect(
      data.every((i) => i.inputs.tags["ycsb-lab:scenario"] === spec.name && i.inputs.tags["ycsb-lab:run-id"] === runId),
    ).toBe(true);
    expect(countByType()).toMatchObject({
      "aws:ec2/vpc:Vpc": 1,
      "aws:s3/bucket:Bucket": 1,
      "aws:s3/bucketObjectv2:BucketObjectv2": 3,
      "ycsb-lab:index:BenchmarkScenario": 1,
    });
    const uploads = ofType("aws:s3/bucketObjectv2:BucketObjectv2");
    const objects = Object.fromEntries(
      uploads.filter((o) => o.inputs.content).map((o) => [o.inputs.key, JSON.parse(o.inputs.content)]),
    );
    expect(uploads.find((o) => o.inputs.key === `kits/${KIT.sha256}.tar.gz`)?.inputs.source).toBeDefined();
    const plan = objects[`runs/${runId}/plan.json`];
    expect(plan.deployment).toMatchObject({ scenario: spec.name, nodes, clients });
    expect(plan.phases.map((ph: { kind: string }) => ph.kind)).toContain("load");
    const cluster = objects[`runs/${runId}/cluster.json`];
    expect(clusterDescriptionProblems(cluster)).toEqual([]);
    expect(cluster.nodes).toHaveLength(nodes);
    expect(cluster.clients).toHaveLength(clients);
    // The AMI resolved for the stack (pinned for later ups) is recorded with the run.
    expect(cluster).toMatchObject({ runId, stack, ami: MOCK_AMI, kit: { sha256: KIT.sha256, version: KIT.version } });
    // A study's own server values (seed 004's compaction and batch window, seed 001's HBase split) reach the nodes.
    const study = stackArgs(get, stack, KIT, NOW);
    const deployment = planScenario(study).deployment;
    expect(cluster.study ?? {}).toEqual(deployment.study);
    // What each instance reports it is billed for beside its hours (cluster.json) is what EC2 is asked to attach,
    // and an address where its subnet gives one (model/instance-billing.ts).
    const attached = (i: (typeof instances)[number]) =>
      [i.inputs.rootBlockDevice, ...(i.inputs.ebsBlockDevices ?? [])].map((v) => ({
        type: v.volumeType,
        sizeGiB: v.volumeSize,
        ...(v.iops ? { iops: v.iops } : {}),
        ...(v.throughput ? { throughputMiBs: v.throughput } : {}),
      }));
    for (const i of data) expect(attached(i)).toEqual(cluster.billing.data.volumes);
    for (const i of fleet) expect(attached(i)).toEqual(cluster.billing.client.volumes);
    const subnet = (suffix: string) =>
      ofType("aws:ec2/subnet:Subnet").find((x) => x.name.endsWith(`-net-${suffix}`))!.inputs.mapPublicIpOnLaunch;
    expect([subnet("data"), subnet("client")]).toEqual([
      cluster.billing.data.publicIpv4,
      cluster.billing.client.publicIpv4,
    ]);
    // What EC2 receives: at most 16 KiB of user-data (EC2 user guide, "Run commands when you launch an EC2 instance").
    for (const i of instances) expect(Buffer.byteLength(i.inputs.userData as string)).toBeLessThanOrEqual(16 * 1024);
    expect(out.estimatedCostPerHour).toBeGreaterThan(0);
    // Safe by default, on every instance and every tagged resource of the graph.
    for (const i of instances) {
      expect(i.inputs.metadataOptions.httpTokens).toBe("required");
      expect(
        [i.inputs.rootBlockDevice, ...(i.inputs.ebsBlockDevices ?? [])].every(
          (v: { encrypted: boolean }) => v.encrypted === true,
        ),
      ).toBe(true);
      expect(i.inputs.keyName).toBeUndefined();
    }
    const tagged = recorded.filter((r) => r.type.startsWith("aws:") && r.inputs.tags);
    expect(tagged.length).toBeGreaterThan(10);
    for (const r of tagged)
      expect(Object.keys(r.inputs.tags), r.name).toEqual(
        expect.arrayContaining(["ycsb-lab:scenario", "ycsb-lab:run-id", "ycsb-lab:owner", "ycsb-lab:expiry"]),
      );
  });

  it("datastax-2013 at 32 nodes: 11 clients of m5.xlarge (1 per 3 data nodes), 372 threads each (128 per data node over 11 clients)", async () => {
    const out = stackProgram(stackConfig("datastax-2013"), "datastax-2013", KIT);
    await value(out.resultsPrefix);
    await settle();
    expect(out.clients).toBe(11);
    const fleet = ofType("aws:ec2/instance:Instance").filter((i) => i.inputs.tags["ycsb-lab:role"] === "client");
    expect(fleet.map((i) => i.inputs.tags["ycsb-lab:threads-per-client"])).toEqual(
      Array(11).fill(String(Math.floor((128 * 32) / 11))),
    );
    // 32 x m5d.xlarge + 11 x m5.xlarge at the table's prices, their root volumes and 43 public IPv4 addresses; no commit
    // log volumes: seed 001 kept the log on the instances' local disks.
    // 43 instances egress through one NAT gateway ($0.045 an hour and its address) rather than 43 public addresses.
    expect(out.egress).toBe("nat");
    expect(out.estimatedCostPerHour).toBeCloseTo(
      32 * 0.226 + 11 * 0.192 + ((32 * 30 + 11 * 30) * 0.08) / 730 + 0.045 + 0.005,
      2,
    );
    expect(ofType("aws:ec2/instance:Instance").every((i) => (i.inputs.ebsBlockDevices ?? []).length === 0)).toBe(true);
  });

  it("lineate-2014 on MongoDB runs seed 002's per-shard replica sets (replication 2)", async () => {
    const base = stackConfig("lineate-2014");
    const out = stackProgram((k) => (k === "ycsb-lab:engine" ? "mongodb" : base(k)), "lineate-mongo", KIT);
    await value(out.resultsPrefix);
    await settle();
    const cluster = ofType("aws:s3/bucketObjectv2:BucketObjectv2")
      .filter((o) => o.inputs.content)
      .map((o) => JSON.parse(o.inputs.content))
      .find((c) => c.nodes);
    expect(cluster).toMatchObject({ engine: "mongodb", mongoTopology: "replica-set", replication: 2 });
    expect(cluster.nodes.map((n: { address: string }) => n.address)).toEqual([
      "10.42.1.10",
      "10.42.1.11",
      "10.42.1.12",
      "10.42.1.13",
    ]);
    expect(out.clients).toBe(32);
  });

  it("maps a retired original to its replacement when the stack names only the original", () => {
    const base = stackConfig("endpoint-2015");
    const get: ConfigSource = (k) => (k === "ycsb-lab:dataInstanceType" ? undefined : base(k));
    expect(stackArgs(get, "s", KIT).spec.dataNode.instanceType).toBe("i4i.xlarge");
    const wrong: ConfigSource = (k) => (k === "ycsb-lab:dataInstanceOriginal" ? "m1.xlarge" : base(k));
    expect(() => stackArgs(wrong, "s", KIT)).toThrow(/ycsb-lab:dataInstanceOriginal: the study used "i2.xlarge"/);
  });

  it("names the missing config key", () => {
    const base = stackConfig("quickstart");
    expect(() => stackArgs((k) => (k === "ycsb-lab:owner" ? undefined : base(k)), "s", KIT)).toThrow(
      /^ycsb-lab:owner: is required/,
    );
    expect(() => stackArgs((k) => (k === "ycsb-lab:scenario" ? "nope" : base(k)), "s", KIT)).toThrow(
      /ycsb-lab:scenario: unknown scenario "nope"/,
    );
    expect(() => stackArgs((k) => (k === "ycsb-lab:nodes" ? "three" : base(k)), "s", KIT)).toThrow(
      /ycsb-lab:nodes: must be a whole number/,
    );
  });
});

const goodArgs = (over: Partial<BenchmarkScenarioArgs> = {}): BenchmarkScenarioArgs => ({
  spec: SCENARIOS.quickstart as unknown as BenchmarkScenarioArgs["spec"],
  runId: "bad-run",
  owner: "tester",
  expiry: "2030-01-01",
  region: "us-east-1",
  kit: KIT,
  ...over,
});

describe("reproducible runs", () => {
  it("every up is a new run id, unless the stack fixes one", () => {
    const get = stackConfig("quickstart");
    expect(stackArgs(get, "quickstart", KIT, new Date("2026-11-23T18:30:00Z")).runId).toBe("quickstart-20261123-1830");
    expect(stackArgs(get, "quickstart", KIT, new Date("2026-11-24T09:05:00Z")).runId).toBe("quickstart-20261124-0905");
    expect(stackArgs((k) => (k === "ycsb-lab:runId" ? "my-run" : get(k)), "quickstart", KIT).runId).toBe("my-run");
    // A long stack name still gives a run id within the tags' 41 characters.
    expect(stackArgs(get, "a-very-long-stack-name-for-a-team-study", KIT, NOW).runId).toMatch(
      /^[a-z0-9][a-z0-9-]{0,40}$/,
    );
  });

  it("pins the AMI resolved at the first up (later ups ignore a newer image) and never replaces a node for a new AMI", async () => {
    const run = new BenchmarkScenario("pin", goodArgs({ stack: "team-a" }), { transformations: [recordOptions] });
    await Promise.all([...run.cluster.instanceIds, ...run.clients.instanceIds].map(value));
    await settle();
    const pin = ofType("aws:ssm/parameter:Parameter").find((p) => p.inputs.name === "/ycsb-lab/pins/team-a/ami")!;
    // The provider keeps parameter values as secrets (a wrapper under mocks).
    expect(pin.inputs.value?.value ?? pin.inputs.value).toBe(MOCK_AMI);
    expect(options.get("pin-ami-pin")?.ignoreChanges).toEqual(["value"]);
    for (const i of ofType("aws:ec2/instance:Instance")) {
      expect(i.inputs.ami).toBe(MOCK_AMI);
      expect(options.get(i.name)?.ignoreChanges, i.name).toEqual(["ami"]);
    }
    reset();
    const chosen = new BenchmarkScenario("chosen", goodArgs({ amiId: "ami-0123456789abcdef0" }));
    await Promise.all(chosen.cluster.instanceIds.map(value));
    await settle();
    expect(ofType("aws:ssm/parameter:Parameter")).toEqual([]);
    expect(ofType("aws:ec2/instance:Instance").every((i) => i.inputs.ami === "ami-0123456789abcdef0")).toBe(true);
  });
});

describe("affordable by default", () => {
  it("every instance terminates itself at the run's lifetime; spot only where asked; the data nodes alone in their placement group, in a zone offering both types", async () => {
    const get = stackConfig("endpoint-2015");
    const over: ConfigSource = (k) =>
      ({ "ycsb-lab:maxHours": "120", "ycsb-lab:clientSpot": "true", "ycsb-lab:nodes": "2" })[k] ?? get(k);
    const out = stackProgram(over, "endpoint-2015", KIT, NOW);
    await value(out.resultsPrefix);
    await settle();
    const instances = ofType("aws:ec2/instance:Instance");
    expect(instances.every((i) => i.inputs.instanceInitiatedShutdownBehavior === "terminate")).toBe(true);
    const clients = instances.filter((i) => i.inputs.tags["ycsb-lab:role"] === "client");
    const nodes = instances.filter((i) => i.inputs.tags["ycsb-lab:role"] !== "client");
    expect(clients.every((i) => i.inputs.instanceMarketOptions?.marketType === "spot")).toBe(true);
    expect(nodes.every((i) => i.inputs.instanceMarketOptions === undefined)).toBe(true);
    const pg = ofType("aws:ec2/placementGroup:PlacementGroup")[0]!;
    // One instance type per cluster placement group (EC2 user guide, "Placement strategies"): clients stay out of it.
    expect(ofType("aws:ec2/placementGroup:PlacementGroup")).toHaveLength(1);
    expect(nodes.every((i) => i.inputs.placementGroup === pg.name)).toBe(true);
    expect(clients.every((i) => i.inputs.placementGroup === undefined)).toBe(true);
    // The mocked region offers i4i.xlarge alone in us-east-1a: the run goes to us-east-1b, which offers both types.
    expect(new Set(ofType("aws:ec2/subnet:Subnet").map((s) => s.inputs.availabilityZone))).toEqual(
      new Set(["us-east-1b"]),
    );
    const cluster = JSON.parse(
      ofType("aws:s3/bucketObjectv2:BucketObjectv2").find((o) => String(o.inputs.key).endsWith("cluster.json"))!.inputs
        .content,
    );
    // No expiry in the stack file: the day the maxHours deadline falls on (NOW + 120 h).
    expect(cluster.lifetime).toEqual({ expiry: "2026-11-28", maxHours: 120, keepAfterRun: false });
    expect(() => stackArgs((k) => (k === "ycsb-lab:maxHours" ? "-3" : get(k)), "s", KIT)).toThrow(
      /ycsb-lab:maxHours: hours > 0/,
    );
    expect(() => stackArgs((k) => (k === "ycsb-lab:clientSpot" ? "yes" : get(k)), "s", KIT)).toThrow(
      /ycsb-lab:clientSpot: "true" or "false"/,
    );
  });
});

describe("a bad scenario fails before any resource is created, naming the field", () => {
  const cases: Array<[string, Partial<BenchmarkScenarioArgs>, RegExp]> = [
    ["unknown engine", { deployment: { engine: "redis" as never } }, /engine: unknown engine "redis"/],
    [
      "engine outside the scenario",
      { spec: SCENARIOS["andor-parv-2019"] as never, deployment: { engine: "hbase" } },
      /engine: scenario "andor-parv-2019" covers cassandra, mongodb, not hbase/,
    ],
    ["0 nodes", { deployment: { nodes: 0 } }, /nodes: must be a whole number >= 1, got 0/],
    ["a preset the engine lacks", { deployment: { preset: "paranoid" as never } }, /preset: unknown preset "paranoid"/],
    [
      "an instance too small for the records",
      {
        spec: {
          ...(SCENARIOS.quickstart as never as BenchmarkScenarioArgs["spec"]),
          records: { total: 200_000_000, fieldCount: 10, fieldLengthBytes: 100 },
        },
      },
      /records: .*need 409\.2 GB per node.*m6i\.large ebs holds 32\.2 GB.*instance too small/,
    ],
    [
      "an unknown instance type",
      {
        spec: {
          ...(SCENARIOS.quickstart as never as BenchmarkScenarioArgs["spec"]),
          dataNode: { instanceType: "x9.huge", storage: { kind: "ebs", sizeGiB: 30 } },
        },
      },
      /dataNode\.instanceType: instance type "x9\.huge" is not in model\/instance-types\.ts/,
    ],
    [
      "replication above the node count",
      { spec: SCENARIOS["lineate-2014"] as never, deployment: { nodes: 1 } },
      /replication: replication 2 needs at least as many nodes/,
    ],
    [
      "an unknown workload",
      {
        spec: { ...(SCENARIOS.quickstart as never as BenchmarkScenarioArgs["spec"]), workloads: [{ workload: "zz" }] },
      },
      /spec\.workloads\[0\]\.workload: unknown workload "zz"/,
    ],
    ["a bad expiry", { expiry: "next week" }, /expiry: an ISO date/],
    ["a bad run id", { runId: "Run 1" }, /runId: lower-case letters/],
  ];
  it.each(cases)("%s", (_, over, message) => {
    expect(() => new BenchmarkScenario("bad", goodArgs(over))).toThrow(message);
    expect(recorded).toEqual([]);
  });

  it("every cell of every built-in scenario (engine x preset x node count) plans cleanly", () => {
    let cells = 0;
    for (const spec of Object.values(SCENARIOS)) {
      for (const engine of spec.engines) {
        // The presets the study ran this engine with (seed 002: one per engine; seed 004: no Couchbase balanced).
        const own = (
          spec as { enginePresets?: Partial<Record<string, { presets: readonly (typeof spec.presets)[number][] }>> }
        ).enginePresets?.[engine];
        for (const preset of own?.presets ?? spec.presets) {
          for (const nodes of spec.nodeCounts) {
            // At full size (scale 1) in every cell: seed 000's 16 billion records at 32 nodes too.
            const plan = planScenario(goodArgs({ spec: spec as never, deployment: { engine, preset, nodes } }));
            expect(plan.cluster.nodeIps).toHaveLength(nodes);
            // The user-data of every instance of the cell, with the longest bucket name S3 allows.
            const bucket = "b".repeat(63);
            const roles = [
              ...plan.cluster.nodeIps.map((_, index) => ({ role: "data" as const, index })),
              ...Array.from({ length: plan.deployment.clients }, (_, index) => ({ role: "client" as const, index })),
            ];
            for (const r of roles) {
              const ud = instanceUserData({
                ...r,
                runId: plan.tags["ycsb-lab:run-id"]!,
                region: "ap-southeast-2",
                bucket,
                kitSha256: KIT.sha256,
              });
              expect(Buffer.byteLength(ud)).toBeLessThanOrEqual(16 * 1024);
            }
            cells++;
          }
        }
      }
    }
    // DESIGN.md's five studies plus quickstart, each engine with the presets its study ran: 85 cells when written.
    expect(cells).toBeGreaterThanOrEqual(85);
    expect(recorded).toEqual([]);
  });

  it("while a good one plans without creating anything", () => {
    const plan = planScenario(goodArgs());
    expect(plan.deployment).toMatchObject({ engine: "cassandra", nodes: 1, clients: 1 });
    expect(recorded).toEqual([]);
  });
});
