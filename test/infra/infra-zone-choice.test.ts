import * as pulumi from "@pulumi/pulumi";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { BenchmarkScenario, type BenchmarkScenarioArgs } from "../../infra/benchmark-scenario.js";
import { DEPLOYER_LOOKUPS, deployerPolicy } from "../../infra/deployer-policy.js";
import {
  chooseZone,
  describeZoneChoice,
  SPOT_PLACEMENT_SCORES_TOKEN,
  scoreRequests,
  zonesOffering,
} from "../../infra/zone-choice.js";
import { SCENARIOS } from "../../model/scenarios.js";
import { installMocks, ofType, options, recordOptions, reset, settle, spotScores, value } from "./infra-mocks.js";

/**
 * The zone of a run (infra/zone-choice.ts, infra/availability-zone.ts): of the zones offering both instance types,
 * the best Spot placement score for each group (GetSpotPlacementScores, SingleAvailabilityZone=true, answered by
 * the mocks by zone ID as EC2 answers), ties by name; a pinned zone wins; no scores, name order with a warning.
 */
const KIT = { path: "kit.tar.gz", sha256: "ef".repeat(32), version: "0.1.0" };
const args = (over: Partial<BenchmarkScenarioArgs> = {}): BenchmarkScenarioArgs => ({
  spec: SCENARIOS["datastax-2013"] as unknown as BenchmarkScenarioArgs["spec"],
  runId: "zone-1",
  owner: "tester",
  region: "us-east-1",
  kit: KIT,
  now: new Date("2026-11-23T18:30:00Z"),
  ...over,
});

const ZONES = [
  { name: "us-east-1a", id: "use1-az4" },
  { name: "us-east-1b", id: "use1-az6" },
  { name: "us-east-1c", id: "use1-az1" },
];
const offer = (zone: string, ...types: string[]) => types.map((instanceType) => ({ location: zone, instanceType }));
const OFFERINGS = [
  ...offer("us-east-1a", "m5d.xlarge"),
  ...offer("us-east-1b", "m5d.xlarge", "m5.xlarge"),
  ...offer("us-east-1c", "m5d.xlarge", "m5.xlarge"),
];
const TYPES = ["m5d.xlarge", "m5.xlarge"];
const scores = (byId: Record<string, number>) =>
  Object.entries(byId).map(([availabilityZoneId, score]) => ({ region: "us-east-1", availabilityZoneId, score }));

beforeAll(installMocks);
beforeEach(reset);

describe("the zone choice (pure)", () => {
  it("takes the best score over name order, among the zones offering every type", () => {
    const answers = [scores({ "use1-az4": 9, "use1-az6": 2, "use1-az1": 7 })];
    const choice = chooseZone({ types: TYPES, offerings: OFFERINGS, zones: ZONES, answers })!;
    // us-east-1a scores best but lacks m5.xlarge; us-east-1b comes first by name but scores 2.
    expect(choice.zone).toBe("us-east-1c");
    expect(choice.ranking).toEqual([
      { zone: "us-east-1c", id: "use1-az1", score: 7 },
      { zone: "us-east-1b", id: "use1-az6", score: 2 },
    ]);
    expect(describeZoneChoice(choice)).toBe(
      "availabilityZone: us-east-1c (use1-az1, score 7); then us-east-1b (use1-az6, score 2)",
    );
  });

  it("needs both groups to fit: a zone's score is its lowest over the requests", () => {
    const dataNodes = scores({ "use1-az6": 9, "use1-az1": 5 });
    const clients = scores({ "use1-az6": 1, "use1-az1": 6 });
    expect(
      chooseZone({ types: TYPES, offerings: OFFERINGS, zones: ZONES, answers: [dataNodes, clients] }),
    ).toMatchObject({ zone: "us-east-1c", score: 5 });
  });

  it("breaks ties by name, so a preview is deterministic; a zone an answer leaves out counts below 1", () => {
    expect(
      chooseZone({
        types: TYPES,
        offerings: OFFERINGS,
        zones: ZONES,
        answers: [scores({ "use1-az6": 3, "use1-az1": 3 })],
      })!.zone,
    ).toBe("us-east-1b");
    expect(
      chooseZone({
        types: TYPES,
        offerings: [...OFFERINGS].reverse(),
        zones: [...ZONES].reverse(),
        answers: [scores({ "use1-az6": 3, "use1-az1": 3 })],
      })!.zone,
    ).toBe("us-east-1b");
    expect(
      chooseZone({ types: TYPES, offerings: OFFERINGS, zones: ZONES, answers: [scores({ "use1-az1": 1 })] })!.ranking,
    ).toEqual([
      { zone: "us-east-1c", id: "use1-az1", score: 1 },
      { zone: "us-east-1b", id: "use1-az6", score: 0 },
    ]);
  });

  it("without scores, name order; without a zone offering every type, none", () => {
    expect(chooseZone({ types: TYPES, offerings: OFFERINGS, zones: ZONES })).toMatchObject({
      zone: "us-east-1b",
      score: undefined,
    });
    expect(
      chooseZone({ types: ["m5d.xlarge", "r5.large"], offerings: OFFERINGS, zones: ZONES, answers: [] }),
    ).toBeUndefined();
    expect(zonesOffering(OFFERINGS, ["m5d.xlarge"])).toEqual(["us-east-1a", "us-east-1b", "us-east-1c"]);
  });

  it("asks one request per instance type with its count, a type shared by both groups once", () => {
    expect(
      scoreRequests([
        { instanceType: "m5d.xlarge", count: 32 },
        { instanceType: "m5.xlarge", count: 11 },
      ]),
    ).toEqual([
      { instanceTypes: ["m5.xlarge"], targetCapacity: 11 },
      { instanceTypes: ["m5d.xlarge"], targetCapacity: 32 },
    ]);
    expect(
      scoreRequests([
        { instanceType: "m5.large", count: 3 },
        { instanceType: "m5.large", count: 1 },
      ]),
    ).toEqual([{ instanceTypes: ["m5.large"], targetCapacity: 4 }]);
  });
});

describe("a stack's zone under mocks", () => {
  it("lands where EC2 scores the capacity best, not in the first zone by name", async () => {
    spotScores.byZoneId = { "use1-az6": 2, "use1-az1": 8 };
    const run = new BenchmarkScenario("scored", args());
    expect(await value(run.network.availabilityZone)).toBe("us-east-1c");
    await Promise.all(run.cluster.instanceIds.map(value));
    await settle();
    expect(new Set(ofType("aws:ec2/subnet:Subnet").map((s) => s.inputs.availabilityZone))).toEqual(
      new Set(["us-east-1c"]),
    );
    // datastax-2013: 32 m5d.xlarge data nodes, 11 m5.xlarge clients, each group scored for its own count.
    expect(
      spotScores.requests.map((r) => [r.instanceTypes, r.targetCapacity, r.singleAvailabilityZone, r.region]).sort(),
    ).toEqual([
      [["m5.xlarge"], 11, true, "us-east-1"],
      [["m5d.xlarge"], 32, true, "us-east-1"],
    ]);
  });

  it("a pinned zone wins and asks for no scores; only a chosen zone is kept by later ups", async () => {
    spotScores.byZoneId = { "use1-az6": 2, "use1-az1": 8 };
    const pinned = new BenchmarkScenario("pinned", args({ availabilityZone: "us-east-1b" }), {
      transformations: [recordOptions],
    });
    expect(await value(pinned.network.availabilityZone)).toBe("us-east-1b");
    await settle();
    expect(spotScores.requests).toEqual([]);
    expect(options.get("pinned-net-data")?.ignoreChanges).toBeUndefined();
    const chosen = new BenchmarkScenario("chosen", args(), { transformations: [recordOptions] });
    await value(chosen.network.availabilityZone);
    await settle();
    // The data subnet keeps the first up's zone; the client subnet and instances follow the data subnet's.
    expect(options.get("chosen-net-data")?.ignoreChanges).toEqual(["availabilityZone"]);
    expect(options.get("chosen-net-client")?.ignoreChanges).toBeUndefined();
  });

  it("without the permission, EC2's UnauthorizedOperation: the first zone by name, and a warning saying so", async () => {
    spotScores.byZoneId = { "use1-az6": 2, "use1-az1": 8 };
    spotScores.refusal = "UnauthorizedOperation: You are not authorized to perform this operation.";
    const warn = vi.spyOn(pulumi.log, "warn");
    try {
      const run = new BenchmarkScenario("refused", args());
      expect(await value(run.network.availabilityZone)).toBe("us-east-1b");
      const said = warn.mock.calls.map((c) => String(c[0])).filter((m) => m.startsWith("availabilityZone:"));
      expect(said).toEqual([
        expect.stringMatching(
          /no Spot placement scores \(.*UnauthorizedOperation: You are not authorized.*\): the first zone by name offering the types, us-east-1b; set ycsb-lab:availabilityZone/,
        ),
      ]);
    } finally {
      warn.mockRestore();
    }
  });

  it("the deploying principal may ask for the scores", () => {
    expect(DEPLOYER_LOOKUPS[SPOT_PLACEMENT_SCORES_TOKEN]).toEqual(["ec2:GetSpotPlacementScores"]);
    const policy = deployerPolicy({
      account: "123456789012",
      region: "us-east-1",
      name: "quickstart",
      stack: "quickstart",
    });
    expect(policy.Statement.find((s) => s.Sid === "Ec2InTheStacksRegion")!.Action).toContain(
      "ec2:GetSpotPlacementScores",
    );
  });
});
