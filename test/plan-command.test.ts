import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "../cli/command.js";
import { command as plan } from "../cli/commands/plan.js";

describe("ycsb-lab plan --cost", () => {
  it("without --scenario: a usage error naming it (exit 2), not an empty success", async () => {
    const err = await plan.run(["--cost"]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe("--scenario is required");
  });

  it("prints the cost before the phase table, so a long plan does not push it off the screen", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "ycsb-lab-plan-cost-")), "plan.txt");
    expect(await plan.run(["--scenario", "endpoint-2015", "--nodes", "4", "--scale", "0.01", "--cost", "--out", out])).toBe(0);
    const text = readFileSync(out, "utf8");
    const cost = text.search(/left running/);
    const firstPhase = text.search(/\bprepare\b/);
    expect(cost).toBeGreaterThan(-1);
    expect(firstPhase).toBeGreaterThan(cost);
  });
});
