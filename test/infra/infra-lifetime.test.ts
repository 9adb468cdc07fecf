import { readFileSync } from "node:fs";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BenchmarkScenario, type BenchmarkScenarioArgs, planScenario } from "../../infra/benchmark-scenario.js";
import { runLifetime } from "../../infra/lifetime.js";
import { SCENARIOS } from "../../model/scenarios.js";
import { STACKS_DIR, stackConfigFromFiles, stackNames } from "../../stacks/config-file.js";
import { stackProgram } from "../../stacks/program.js";
import { type ConfigSource, stackArgs } from "../../stacks/settings.js";
import { installMocks, ofType, recorded, reset, settle, value } from "./infra-mocks.js";

/** The brakes at preview (infra/lifetime.ts): from the plan's estimated hours, checked against the time of the up. */
const KIT = { path: "kit.tar.gz", sha256: "ef".repeat(32), version: "0.1.0" };
const NOW = new Date("2026-11-23T18:30:00Z");
const args = (over: Partial<BenchmarkScenarioArgs> = {}): BenchmarkScenarioArgs => ({
  spec: SCENARIOS["datastax-2013"] as unknown as BenchmarkScenarioArgs["spec"],
  runId: "brakes-1",
  owner: "tester",
  region: "us-east-1",
  kit: KIT,
  now: NOW,
  ...over,
});

beforeAll(installMocks);
beforeEach(reset);

describe("the fleet's brakes, decided at preview", () => {
  it("maxHours defaults to twice the plan's estimated hours, and every instance is told so in cluster.json", async () => {
    const plan = planScenario(args());
    expect(plan.runCost.hours).toBeGreaterThan(1);
    expect(plan.lifetime.maxHours).toBe(Math.ceil(plan.runCost.hours * 20) / 10);
    const run = new BenchmarkScenario("brakes", args());
    await value(run.resultsPrefix);
    await settle();
    const cluster = JSON.parse(
      ofType("aws:s3/bucketObjectv2:BucketObjectv2").find((o) => String(o.inputs.key).endsWith("cluster.json"))!.inputs
        .content,
    );
    expect(cluster.lifetime).toEqual({ expiry: "2026-11-24", maxHours: plan.lifetime.maxHours, keepAfterRun: false });
  });

  it("refuses an expiry in the past, naming it and the time of the up, before any resource exists", () => {
    expect(() => new BenchmarkScenario("past", args({ expiry: "2026-11-20" }))).toThrow(
      /expiry: 2026-11-20 has passed \(it is 2026-11-23T18:30Z\)/,
    );
    expect(recorded).toEqual([]);
  });

  it("refuses an expiry that ends before the run's estimated end, naming both", () => {
    const hours = planScenario(args()).runCost.hours;
    const end = new Date(NOW.getTime() + hours * 3_600_000).toISOString().slice(0, 16);
    // datastax-2013's default cell runs about 9.6 h from 18:30: past midnight, so the day of the up is too soon.
    expect(() => planScenario(args({ expiry: "2026-11-23" }))).toThrow(
      new RegExp(`expiry: 2026-11-23 ends \\(23:59:59 UTC\\) before the run's estimated end ${end}Z`),
    );
    expect(() => planScenario(args({ maxHours: 2 }))).toThrow(
      /maxHours: 2 h ends the fleet before the run's estimated/,
    );
  });

  it("warns about a far expiry without refusing it", () => {
    expect(planScenario(args({ expiry: "2027-06-30" })).warnings).toEqual([
      expect.stringMatching(/^expiry 2027-06-30 is more than 30 days after the run's estimated end/),
    ]);
    expect(planScenario(args({ expiry: "2026-11-26" })).warnings).toEqual([]);
    expect(runLifetime({}, 1, NOW).warnings).toEqual([]);
  });

  it("keepAfterRun comes from the stack config (default false) into cluster.json", async () => {
    const get = stackConfigFromFiles("quickstart", { "ycsb-lab:keepAfterRun": "true", "ycsb-lab:expiry": "3d" });
    expect(stackArgs(get, "quickstart", KIT, NOW)).toMatchObject({ keepAfterRun: true, expiry: "2026-11-26" });
    const out = stackProgram(get, "quickstart", KIT, NOW);
    await value(out.resultsPrefix);
    await settle();
    const cluster = JSON.parse(
      ofType("aws:s3/bucketObjectv2:BucketObjectv2").find((o) => String(o.inputs.key).endsWith("cluster.json"))!.inputs
        .content,
    );
    expect(cluster.lifetime).toMatchObject({ expiry: "2026-11-26", keepAfterRun: true });
    const bad: ConfigSource = (k) => (k === "ycsb-lab:expiry" ? "next week" : get(k));
    expect(() => stackArgs(bad, "quickstart", KIT, NOW)).toThrow(
      /ycsb-lab:expiry: a date YYYY-MM-DD or a number of days from the up like "3d", got "next week"/,
    );
  });

  it("no stack file and no document carries a calendar expiry that silently passes", () => {
    const files = [
      ...stackNames().map((s) => `${STACKS_DIR}/Pulumi.${s}.yaml`),
      new URL("../../docs/infrastructure.md", import.meta.url),
      new URL("../../README.md", import.meta.url),
    ];
    for (const f of files) expect(readFileSync(f, "utf8"), String(f)).not.toMatch(/expiry[^\n]{0,20}\d{4}-\d{2}-\d{2}/);
  });
});
