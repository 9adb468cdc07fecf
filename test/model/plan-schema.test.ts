import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { command as runCommand } from "../../cli/commands/run.js";
import { buildPlan, SCENARIOS, scenario } from "../../model/index.js";
import { PlanError, parsePlan } from "../../model/plan-schema.js";

/**
 * A plan crosses processes (`ycsb-lab plan` writes it, `ycsb-lab run --plan` and the boot read it): it is checked
 * against its schema where it is read, so a bad file names the field instead of failing deep in the runner.
 */
const good = () => JSON.parse(JSON.stringify(buildPlan(scenario("quickstart")))) as Record<string, any>;

describe("the plan's schema (model/plan-schema.ts)", () => {
  it("accepts every built-in scenario's plan for every engine it covers, as written to a file", () => {
    let checked = 0;
    for (const name of Object.keys(SCENARIOS)) {
      const spec = scenario(name);
      for (const engine of spec.engines) {
        const plan = buildPlan(spec, { engine, scale: 0.001 });
        expect(parsePlan(JSON.stringify(plan, null, 2), `${name}.json`)).toEqual(plan);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(Object.keys(SCENARIOS).length);
  });

  it.each([
    [
      "a phase without its properties",
      (p: Record<string, any>) => delete p.phases[1].properties,
      "/phases/1/properties: Expected required property",
    ],
    [
      "threads as text",
      (p: Record<string, any>) => (p.phases[2].threadsPerClient = "8"),
      "/phases/2/threadsPerClient: Expected integer",
    ],
    ["an engine it does not know", (p: Record<string, any>) => (p.deployment.engine = "redis"), "/deployment/engine"],
    [
      "no phases",
      (p: Record<string, any>) => (p.phases = []),
      "/phases: Expected array length to be greater or equal to 1",
    ],
    [
      "a phase out of place",
      (p: Record<string, any>) => (p.phases[1].index = 5),
      "/phases/1/index: is 5, its position is 1",
    ],
  ])("%s: refused naming the field", (_what, spoil, message) => {
    const plan = good();
    spoil(plan);
    expect(() => parsePlan(JSON.stringify(plan), "bad.json")).toThrow(PlanError);
    expect(() => parsePlan(JSON.stringify(plan), "bad.json")).toThrow(`bad.json: `);
    expect(() => parsePlan(JSON.stringify(plan), "bad.json")).toThrow(message);
  });

  it("not JSON, or another version: says so", () => {
    expect(() => parsePlan("{", "x.json")).toThrow(/^x\.json: not JSON/);
    expect(() => parsePlan('{"planVersion":2}', "x.json")).toThrow(
      "x.json: not a ycsb-lab plan (planVersion 1, got 2)",
    );
  });
});

describe("ycsb-lab run --plan bad.json --dry-run", () => {
  it("names what is wrong with the plan before anything runs", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "ycsb-lab-plan-")), "bad.json");
    // What used to fail with "Cannot read properties of undefined (reading 'workload')": phases without fields.
    writeFileSync(file, JSON.stringify({ ...good(), phases: [{ index: 0 }] }));
    await expect(runCommand.run(["--plan", file, "--dry-run", "--db", "basic"])).rejects.toThrow(
      `--plan: ${file}: not a valid plan: /phases/0/name: Expected required property`,
    );
  });
});
