import { describe, expect, it } from "vitest";
import type { InstanceStatus } from "../../model/instance-status.js";
import {
  billingUsdPerHour,
  instanceSpans,
  LOCAL_RUN_NO_PRICE,
  NO_MARKERS,
  pricePerformance,
  realizedCost,
  runCost,
  shapeUsdPerHour,
  spansCost,
  type TypedSpan,
  volumeUsdPerHour,
} from "../../model/run-cost.js";

const status = (instance: string, bootedAt: string, at: string, heartbeatAt?: string): InstanceStatus => ({
  instance,
  role: instance.startsWith("node") ? "data" : "client",
  index: Number(instance.split("-")[1]),
  stage: "done",
  at,
  bootedAt,
  ...(heartbeatAt ? { heartbeatAt } : {}),
});

describe("realized cost from the instances' markers", () => {
  const data = {
    instanceType: "m6i.large",
    volumes: [
      { type: "gp3" as const, sizeGiB: 30 },
      { type: "gp3" as const, sizeGiB: 100 },
    ],
    publicIpv4: true,
  };
  const client = { instanceType: "c6i.large", volumes: [{ type: "gp3" as const, sizeGiB: 30 }], publicIpv4: true };

  it("bills each instance from its boot to its last word, at least 60 s, against a hand computation", () => {
    const spans = instanceSpans([
      status("node-0", "2026-01-01T10:00:00Z", "2026-01-01T11:00:00Z"),
      // The heartbeat is later than the stage: the instance was still there.
      status("node-1", "2026-01-01T10:00:00Z", "2026-01-01T10:30:00Z", "2026-01-01T11:30:00Z"),
      status("client-0", "2026-01-01T10:05:00Z", "2026-01-01T10:05:20Z"),
    ]);
    const cost = realizedCost(spans, { data, client, dataNodes: 2, clients: 1 }, { put: 2000, get: 10_000 });
    // By hand: m6i.large 0.096 + 130 GiB x 0.08 / 730 + 0.005 IPv4 = 0.115246575 $/h; c6i.large 0.085 + 30 x 0.08 / 730 + 0.005.
    const dataHour = 0.096 + (130 * 0.08) / 730 + 0.005;
    const clientHour = 0.085 + (30 * 0.08) / 730 + 0.005;
    expect(cost.instances.map((i) => i.billedHours)).toEqual([1, 1.5, 60 / 3600]);
    const requests = 2 * 0.005 + 10 * 0.0004;
    expect(cost.usd).toBeCloseTo(dataHour * 2.5 + clientHour / 60 + requests, 9);
    expect(cost.configurationUsdPerHour).toBeCloseTo(2 * dataHour, 9);
    expect(cost.fleetUsdPerHour).toBeCloseTo(2 * dataHour + clientHour, 9);
    expect(cost.pricesAsOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(cost.source).toMatch(/aws\.amazon\.com/);
  });

  it("names an instance without a boot time, and an unknown instance type", () => {
    const { bootedAt: _, ...noBoot } = status("node-0", "x", "2026-01-01T10:00:00Z");
    expect(() => instanceSpans([noBoot as InstanceStatus])).toThrow(/node-0: no bootedAt/);
    expect(() => shapeUsdPerHour({ ...data, instanceType: "z9.huge" })).toThrow(/no price for "z9.huge"/);
  });

  it("gives ops/s per dollar-hour and dollars per million operations at the sustainable throughput", () => {
    const pp = pricePerformance(10_000, 0.36)!;
    expect(pp.opsPerSecPerUsdHour).toBeCloseTo(27_777.78, 1);
    // 10,000 ops/s is 36 M operations an hour for $0.36: $0.01 per million.
    expect(pp.usdPerMillionOps).toBeCloseTo(0.01, 9);
    expect(pricePerformance(0, 0.36)).toBeUndefined();
    expect(pricePerformance(100, 0)).toBeUndefined();
  });
});

describe("a run's cost from its stored spans", () => {
  const spans = [
    {
      instance: "node-0",
      role: "data" as const,
      instanceType: "m6i.large",
      startedAt: "2026-01-01T10:00:00Z",
      endedAt: "2026-01-01T10:00:30Z",
    },
    {
      instance: "client-0",
      role: "client" as const,
      instanceType: "c6i.large",
      startedAt: "2026-01-01T10:00:00Z",
      endedAt: "2026-01-01T10:10:00Z",
    },
  ];

  it("bills each instance at its own type's price, 60 s at least, and says what it covers", () => {
    const cost = runCost("m6i.large", spans);
    if (!cost.priced) throw new Error(cost.statement);
    // By hand: 60 s (the minimum) of m6i.large and 600 s of c6i.large.
    expect(cost.usd).toBeCloseTo((60 / 3600) * 0.096 + (600 / 3600) * 0.085, 12);
    expect(cost.instances.map((i) => i.billedSeconds)).toEqual([60, 600]);
    expect(cost.configurationUsdPerHour).toBeCloseTo(0.096, 12);
    expect(cost.covers).toMatch(/volumes and public IPv4 addresses are not counted: no instance's markers recorded/);
    expect(cost.covers).toMatch(/S3 requests are not counted/);
    expect(cost.instances.map((i) => i.parts)).toEqual([
      { instance: cost.instances[0]!.usd, volumes: null, publicIpv4: null },
      { instance: cost.instances[1]!.usd, volumes: null, publicIpv4: null },
    ]);
  });

  it("a local run says it carries no price; a run without markers says so", () => {
    expect(runCost("local", spans)).toEqual({ priced: false, statement: LOCAL_RUN_NO_PRICE });
    expect(runCost("m6i.large", [])).toEqual({ priced: false, statement: NO_MARKERS });
    expect(runCost("m6i.large", [{ ...spans[0]!, endedAt: "2026-01-01T09:00:00Z" }])).toMatchObject({
      priced: false,
      statement: /node-0: ends/,
    });
  });
});

describe("volumes and public IPv4 addresses from the spans' markers", () => {
  // AWS EBS pricing (https://aws.amazon.com/ebs/pricing/), us-east-1: gp3 $0.08 per GB-month, IOPS over 3,000 at
  // $0.005 per IOPS-month, throughput over 125 MiB/s at $0.04 per MiB/s-month; io2 $0.125 per GB-month and its IOPS
  // at $0.065 (the first 32,000), $0.0455 (the next 32,000), $0.032 (beyond); a month is 730 hours. Public IPv4:
  // $0.005 an hour (https://aws.amazon.com/vpc/pricing/).
  const dataBilling = {
    volumes: [
      { type: "gp3" as const, sizeGiB: 30 },
      { type: "gp3" as const, sizeGiB: 500, iops: 6000, throughputMiBs: 250 },
      { type: "gp3" as const, sizeGiB: 100 },
    ],
    publicIpv4: true,
  };
  const spans: TypedSpan[] = [
    {
      instance: "node-0",
      role: "data",
      instanceType: "m6i.large",
      startedAt: "2026-01-01T10:00:00Z",
      endedAt: "2026-01-01T11:30:00Z",
      billing: dataBilling,
    },
    {
      instance: "client-0",
      role: "client",
      instanceType: "c6i.large",
      startedAt: "2026-01-01T10:00:00Z",
      endedAt: "2026-01-01T10:00:30Z",
      billing: { volumes: [{ type: "gp3", sizeGiB: 30 }], publicIpv4: false },
    },
  ];

  it("prices gp3 beyond its included IOPS and throughput, and io2's IOPS by tier", () => {
    expect(volumeUsdPerHour({ type: "gp3", sizeGiB: 500, iops: 6000, throughputMiBs: 250 })).toBeCloseTo(
      (500 * 0.08 + 3000 * 0.005 + 125 * 0.04) / 730,
      12,
    );
    // The included 3,000 IOPS and 125 MiB/s cost nothing beyond the storage.
    expect(volumeUsdPerHour({ type: "gp3", sizeGiB: 100, iops: 3000, throughputMiBs: 125 })).toBeCloseTo(
      (100 * 0.08) / 730,
      12,
    );
    expect(volumeUsdPerHour({ type: "io2", sizeGiB: 200, iops: 70_000 })).toBeCloseTo(
      (200 * 0.125 + 32_000 * 0.065 + 32_000 * 0.0455 + 6000 * 0.032) / 730,
      12,
    );
    expect(billingUsdPerHour(dataBilling)).toEqual({
      volumes: expect.closeTo((630 * 0.08 + 3000 * 0.005 + 125 * 0.04) / 730, 12),
      publicIpv4: 0.005,
    });
  });

  it("bills each instance's volumes and address over its billed seconds, against a hand computation", () => {
    const cost = spansCost(spans);
    if ("statement" in cost) throw new Error(cost.statement);
    // node-0: 1.5 h of m6i.large ($0.096), 630 GiB gp3 with 3,000 IOPS and 125 MiB/s beyond the included, an address.
    const nodeVolumes = 1.5 * ((630 * 0.08 + 3000 * 0.005 + 125 * 0.04) / 730);
    const node = { instance: 1.5 * 0.096, volumes: nodeVolumes, publicIpv4: 1.5 * 0.005 };
    // client-0: 30 s, billed the 60 s minimum: c6i.large ($0.085) and a 30 GiB root, no address (NAT egress).
    const client = { instance: (60 / 3600) * 0.085, volumes: (60 / 3600) * ((30 * 0.08) / 730), publicIpv4: 0 };
    expect(cost.instances[0]!.parts).toEqual({
      instance: expect.closeTo(node.instance, 12),
      volumes: expect.closeTo(node.volumes, 12),
      publicIpv4: expect.closeTo(node.publicIpv4, 12),
    });
    expect(cost.instances[1]!.parts).toEqual({
      instance: expect.closeTo(client.instance, 12),
      volumes: expect.closeTo(client.volumes, 12),
      publicIpv4: 0,
    });
    const total = node.instance + node.volumes + node.publicIpv4 + client.instance + client.volumes;
    expect(cost.usd).toBeCloseTo(total, 12);
    // The configuration under test is the data node with its volumes and address, per hour.
    expect(cost.configurationUsdPerHour).toBeCloseTo(
      0.096 + 0.005 + (630 * 0.08 + 3000 * 0.005 + 125 * 0.04) / 730,
      12,
    );
    expect(cost.covers).toMatch(/each instance's EBS volumes .* and its public IPv4 address, as its markers recorded/);
    expect(cost.covers).not.toMatch(/not counted for/);
    expect(cost.covers).toMatch(/S3 requests are not counted/);
  });

  it("an instance whose markers did not record them is priced for its hours and named in covers", () => {
    const { billing: _, ...old } = spans[1]!;
    const cost = spansCost([spans[0]!, old]);
    if ("statement" in cost) throw new Error(cost.statement);
    expect(cost.instances[1]!.parts).toEqual({
      instance: expect.closeTo((60 / 3600) * 0.085, 12),
      volumes: null,
      publicIpv4: null,
    });
    expect(cost.instances[1]!.usd).toBeCloseTo((60 / 3600) * 0.085, 12);
    expect(cost.covers).toMatch(/not counted for client-0, whose markers did not record them/);
  });
});
