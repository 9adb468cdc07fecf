import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../cli/command.js";
import { command as plan } from "../../cli/commands/plan.js";

describe("ycsb-lab plan --cost", () => {
  it("without --scenario: a usage error naming it (exit 2), not an empty success", async () => {
    const err = await plan.run(["--cost"]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe("--scenario is required");
  });

  it("prints the cost before the phase table, so a long plan does not push it off the screen", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "ycsb-lab-plan-cost-")), "plan.txt");
    expect(
      await plan.run(["--scenario", "endpoint-2015", "--nodes", "4", "--scale", "0.01", "--cost", "--out", out]),
    ).toBe(0);
    const text = readFileSync(out, "utf8");
    const cost = text.search(/left running/);
    const firstPhase = text.search(/\bprepare\b/);
    expect(cost).toBeGreaterThan(-1);
    expect(firstPhase).toBeGreaterThan(cost);
  });
});

describe("ycsb-lab plan --capacity", () => {
  it("plans a study's capacity variant: the SLO's search on every candidate step, open loop, no sweep left", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "ycsb-lab-plan-capacity-")), "plan.json");
    const args = [
      "--scenario",
      "usa-2015-durability",
      "--scale",
      "0.01",
      "--capacity",
      "READ,UPDATE p99 10ms",
      "--resolution",
      "100",
      "-o",
      out,
    ];
    expect(await plan.run(args)).toBe(0);
    const p = JSON.parse(readFileSync(out, "utf8")) as {
      phases: { name: string; kind: string; target?: number; capacity?: { step: number; search: unknown } }[];
    };
    const measured = p.phases.filter((ph) => ph.kind === "workload");
    expect(measured.length).toBeGreaterThan(0);
    for (const ph of measured) {
      expect(ph.capacity, ph.name).toBeDefined();
      expect(ph.target, ph.name).toBeUndefined();
    }
    expect(measured[0]!.capacity!.search).toEqual({
      slo: { operations: ["READ", "UPDATE"], percentile: 99, limitMs: 10, errorBudgetPct: 0.1 },
      fractions: [0.5, 0.75, 0.9, 1.05],
      resolutionOpsSec: 100,
      maxSteps: 9,
    });
  });

  it("refuses an SLO it cannot read and search options without --capacity, naming the option", async () => {
    const bad = await plan.run(["--scenario", "quickstart", "--capacity", "p99 under 10"]).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(UsageError);
    expect((bad as Error).message).toMatch(/^--capacity: "p99 under 10" is not an SLO/);
    const stray = await plan.run(["--scenario", "quickstart", "--resolution", "100"]).catch((e: unknown) => e);
    expect((stray as Error).message).toBe("--resolution: only with --capacity");
    const zero = await plan.run(["--scenario", "quickstart", "--capacity", "READ p99 0ms"]).catch((e: unknown) => e);
    expect((zero as Error).message).toMatch(/capacity\.slo\.limitMs: must be > 0 ms/);
  });
});
