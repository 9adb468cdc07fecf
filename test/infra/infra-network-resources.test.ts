import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { engineRuntime } from "../../engines/runtimes.js";
import { DashboardService, type DashboardServiceArgs } from "../../infra/dashboard-service.js";
import { BenchmarkNetwork } from "../../infra/network.js";
import { installMocks, options, recorded, recordOptions, reset, settle, value } from "./infra-mocks.js";

/**
 * The resources the dashboard service and the benchmark network register under Pulumi mocks, with their inputs and
 * options: both networks come from infra/network.ts, and a change of that code that would replace a deployed
 * resource (a new name, another input) shows here. The snapshot was recorded before the two shared the code.
 */
const KIT = { path: "ycsb-lab-kit-dashboard.tar.gz", sha256: "cd".repeat(32), version: "0.1.0" };
const args = (over: Partial<DashboardServiceArgs> = {}): DashboardServiceArgs => ({
  serviceId: "team-dash",
  owner: "perf-team",
  region: "us-east-1",
  kit: KIT,
  importBuckets: ["scenario-a-results"],
  now: new Date("2026-11-25T00:00:00Z"),
  ...over,
});

beforeAll(installMocks);
beforeEach(reset);

/** Every resource as "type name", its inputs and its options, in a stable order. */
function registered(): string[] {
  const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v ?? null));
  return recorded
    .map((r) => {
      const o = options.get(r.name);
      const opts = {
        ignoreChanges: o?.ignoreChanges,
        retainOnDelete: o?.retainOnDelete,
        dependsOn: Array.isArray(o?.dependsOn) ? o.dependsOn.length : undefined,
      };
      return `${r.type} ${r.name} ${JSON.stringify(plain(r.inputs))} ${JSON.stringify(plain(opts))}`;
    })
    .sort();
}

describe("the resources of the networks", () => {
  for (const [label, over] of [
    ["dashboard, public-ip egress", {}],
    [
      "dashboard, NAT egress and a load balancer",
      {
        egress: "nat",
        loadBalancer: {
          certificateArn: "arn:aws:acm:us-east-1:123456789012:certificate/abc",
          allowedCidrs: ["203.0.113.0/24"],
        },
      },
    ],
  ] as const) {
    it(label, async () => {
      const service = new DashboardService("dash", args(over as Partial<DashboardServiceArgs>), {
        transformations: [recordOptions],
      });
      await value(service.url);
      await settle();
      expect(registered()).toMatchSnapshot();
    });
  }

  for (const egress of ["public-ip", "nat"] as const) {
    it(`benchmark network, ${egress} egress`, async () => {
      const net = new BenchmarkNetwork(
        "net",
        { region: "us-east-1", ports: engineRuntime("cassandra").ports, egress },
        { transformations: [recordOptions] },
      );
      await value(net.vpcId);
      await settle();
      expect(registered()).toMatchSnapshot();
    });
  }
});
