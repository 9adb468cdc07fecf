/**
 * How long the largest scenario takes to evaluate under Pulumi mocks: datastax-2013 at 32 data nodes and 11 clients
 * (DESIGN.md target: under 5 s), beside the one-node quickstart measured in the same run as a baseline.
 * Run: npm run bench:infra
 */

import { performance } from "node:perf_hooks";
import type * as pulumi from "@pulumi/pulumi";
import { BenchmarkScenario } from "../infra/benchmark-scenario.js";
import type { ScenarioSpec } from "../model/scenario.js";
import { SCENARIOS } from "../model/scenarios.js";
import { installMocks, recorded } from "../test/infra/infra-mocks.js";

// The suite's mocks: the invokes infra makes (AMI, zones, instance type offerings, caller) answered as in the tests.
await installMocks();
const registered = () => recorded.length;

const value = <T>(o: pulumi.Output<T>) => new Promise<T>((resolve) => o.apply((v) => resolve(v)));

async function evaluate(name: keyof typeof SCENARIOS, nodes: number, label: string): Promise<number> {
  const before = registered();
  const start = performance.now();
  const run = new BenchmarkScenario(`${label}`, {
    spec: SCENARIOS[name] as unknown as ScenarioSpec,
    deployment: { nodes },
    runId: label,
    owner: "bench",
    expiry: "2030-01-01",
    region: "us-east-1",
    // Under mocks the archive is never read: only its name and hash reach the resources.
    kit: { path: "ycsb-lab-kit.tar.gz", sha256: "0".repeat(64), version: "bench" },
  });
  // Every instance id resolves only after its user-data is rendered and the instance is registered.
  await Promise.all([...run.cluster.instanceIds, ...run.clients.instanceIds, run.resultsPrefix].map(value));
  const ms = performance.now() - start;
  console.log(
    `${label.padEnd(28)} ${String(registered() - before).padStart(4)} resources  ${(ms / 1000).toFixed(2)} s  (${run.deployment.nodes} data nodes, ${run.deployment.clients} clients)`,
  );
  return ms;
}

// A first evaluation warms module loading and the JIT; it is not counted.
await evaluate("quickstart", 1, "warm-up");
const baseline = await evaluate("quickstart", 1, "quickstart-1-node");
const largest = await evaluate("datastax-2013", 32, "datastax-2013-32-nodes");
console.log(
  `largest / one-node baseline: ${(largest / baseline).toFixed(1)}x; target under 5 s: ${largest < 5000 ? "met" : "MISSED"}`,
);
