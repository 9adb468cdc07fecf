import * as pulumi from "@pulumi/pulumi";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BenchmarkScenario, type BenchmarkScenarioArgs, planScenario } from "../../infra/benchmark-scenario.js";
import { onDemandVcpuNeed, quotaIncreaseUrl, vcpuQuotaChecked, vcpuQuotaProblem } from "../../infra/capacity.js";
import { SCENARIOS } from "../../model/scenarios.js";
import { calls, installMocks, ofType, quota, reset, settle, value } from "./infra-mocks.js";

/**
 * Capacity before anything bills: the account's On-Demand vCPU quota (Service Quotas L-1216C47A, answered by the
 * mocks) against the stack's need, one instance type per cluster placement group, and the opt-in reservation of the
 * data nodes' capacity in their group.
 */
const KIT = { path: "kit.tar.gz", sha256: "ef".repeat(32), version: "0.1.0" };
const NOW = new Date("2026-11-23T18:30:00Z");
const args = (spec: keyof typeof SCENARIOS, over: Partial<BenchmarkScenarioArgs> = {}): BenchmarkScenarioArgs => ({
  spec: SCENARIOS[spec] as unknown as BenchmarkScenarioArgs["spec"],
  runId: "capacity-1",
  owner: "tester",
  region: "us-east-1",
  kit: KIT,
  now: NOW,
  ...over,
});

/** Resolves with the output's value, or rejects with the error its apply threw (preview failing). */
const settled = <T>(o: pulumi.Output<T>) => {
  // An Output keeps its knownness and secrecy as promises of their own, which reject with the value: observed here.
  const inner = o as unknown as { promise(): Promise<T>; isKnown: Promise<boolean>; isSecret: Promise<boolean> };
  inner.isKnown.catch(() => {});
  inner.isSecret.catch(() => {});
  return inner.promise();
};

beforeAll(installMocks);
beforeEach(() => {
  reset();
  quota.vcpus = 5_000;
});

describe("the On-Demand vCPU quota, checked at preview", () => {
  it("counts what runs at once: datastax-2013's default cell needs 172 vCPUs, lineate-2014's 192, Spot groups excluded", () => {
    expect(planScenario(args("datastax-2013")).vcpus).toEqual({
      vcpus: 172,
      parts: ["32 x m5d.xlarge (4 vCPUs)", "11 x m5.xlarge (4 vCPUs)"],
    });
    expect(planScenario(args("lineate-2014")).vcpus.vcpus).toBe(192);
    expect(planScenario(args("lineate-2014", { clientSpot: true })).vcpus.vcpus).toBe(64);
  });

  it("refuses a stack the quota cannot hold, with both numbers and the quota-increase link", async () => {
    quota.vcpus = 32;
    const parent = new pulumi.ComponentResource("test:index:Probe", "probe");
    const need = planScenario(args("datastax-2013")).vcpus;
    await expect(settled(vcpuQuotaChecked(need, "us-east-1", parent))).rejects.toThrow(
      /vcpuQuota: the account's On-Demand vCPU quota in us-east-1 \(Service Quotas L-1216C47A, .*\) is 32 vCPUs; this stack needs 172 \(32 x m5d\.xlarge \(4 vCPUs\) \+ 11 x m5\.xlarge \(4 vCPUs\)\).*https:\/\/us-east-1\.console\.aws\.amazon\.com\/servicequotas\/home\/services\/ec2\/quotas\/L-1216C47A/,
    );
  });

  it("a stack's zone, hence every subnet and instance, waits for the check", async () => {
    const run = new BenchmarkScenario("checked", args("quickstart"));
    expect(await settled(run.network.availabilityZone)).toBe("us-east-1b");
    expect(calls).toContain("aws:servicequotas/getServiceQuota:getServiceQuota");
    reset();
    const unchecked = new BenchmarkScenario("unchecked", args("quickstart", { checkVcpuQuota: false }));
    await settled(unchecked.network.availabilityZone);
    expect(calls).not.toContain("aws:servicequotas/getServiceQuota:getServiceQuota");
  });

  it("lets a stack through that fits", async () => {
    quota.vcpus = 172;
    const run = new BenchmarkScenario("enough", args("datastax-2013"));
    expect(await settled(run.network.availabilityZone)).toBe("us-east-1b");
    expect(
      vcpuQuotaProblem(onDemandVcpuNeed(planScenario(args("quickstart")).deployment), 4, "eu-west-1"),
    ).toBeUndefined();
    expect(quotaIncreaseUrl("eu-west-1")).toBe(
      "https://eu-west-1.console.aws.amazon.com/servicequotas/home/services/ec2/quotas/L-1216C47A",
    );
  });
});

describe("placement and reserved capacity", () => {
  it("data nodes alone in their cluster placement group; with reserveCapacity, one reservation of every node in it, ending after maxHours", async () => {
    const a = args("datastax-2013", { reserveCapacity: true });
    const run = new BenchmarkScenario("reserved", a);
    await Promise.all([...run.cluster.instanceIds, ...run.clients.instanceIds].map(value));
    await settle();
    const [reservation] = ofType("aws:ec2/capacityReservation:CapacityReservation");
    const group = ofType("aws:ec2/placementGroup:PlacementGroup").find((g) => g.name.startsWith("reserved"));
    const maxHours = planScenario(a).lifetime.maxHours;
    expect(reservation!.inputs).toMatchObject({
      instanceCount: 32,
      instanceType: "m5d.xlarge",
      availabilityZone: "us-east-1b",
      instanceMatchCriteria: "targeted",
      endDateType: "limited",
      placementGroupArn: `arn:aws:mock:::${group!.name}`,
    });
    expect(Date.parse(reservation!.inputs.endDate)).toBe(NOW.getTime() + (maxHours + 1) * 3_600_000);
    const instances = ofType("aws:ec2/instance:Instance").filter((i) => i.name.startsWith("reserved"));
    const nodes = instances.filter((i) => i.inputs.tags["ycsb-lab:role"] !== "client");
    expect(nodes).toHaveLength(32);
    expect(
      nodes.every(
        (i) =>
          i.inputs.capacityReservationSpecification?.capacityReservationTarget?.capacityReservationId ===
          `${reservation!.name}-id`,
      ),
    ).toBe(true);
    expect(
      instances
        .filter((i) => i.inputs.tags["ycsb-lab:role"] === "client")
        .every((i) => !i.inputs.placementGroup && !i.inputs.capacityReservationSpecification),
    ).toBe(true);
  });

  it("no reservation unless asked, and none for Spot data nodes", () => {
    expect(planScenario(args("datastax-2013")).cluster.capacityReservation).toBeUndefined();
    expect(() => planScenario(args("datastax-2013", { reserveCapacity: true, dataNodeSpot: true }))).toThrow(
      /capacityReservation: an On-Demand Capacity Reservation cannot hold Spot instances/,
    );
  });
});
