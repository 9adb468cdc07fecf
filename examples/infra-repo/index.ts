import { readFileSync } from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import { BenchmarkScenario, SCENARIOS, type ScenarioSpec } from "ycsb-lab";

// The kit every instance runs, as `npx ycsb-lab kit build --engine cassandra --json > kit.json` described it: the
// @ycsb-lab/cli package builds it from its own files and the pinned drivers, no checkout of ycsb-lab needed.
const config = new pulumi.Config();
const kit = JSON.parse(readFileSync(config.get("kit") ?? "kit.json", "utf8")) as {
  path: string;
  sha256: string;
  version: string;
};

const run = new BenchmarkScenario("bench", {
  spec: SCENARIOS.quickstart as unknown as ScenarioSpec,
  deployment: { engine: "cassandra", nodes: 1, preset: "balanced" },
  runId: config.get("runId") ?? `${pulumi.getStack()}-${new Date().toISOString().slice(0, 10)}`,
  owner: config.require("owner"),
  region: new pulumi.Config("aws").require("region"),
  kit: { path: kit.path, sha256: kit.sha256, version: kit.version },
  stack: pulumi.getStack(),
});

export const resultsPrefix = run.resultsPrefix;
export const endpoints = run.endpoints;
export const estimatedCostPerHour = run.estimatedCostPerHour;
export const kitSha256 = kit.sha256;
