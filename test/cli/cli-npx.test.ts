import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../runner/runner-helpers.js";

/**
 * Every document writes `ycsb-lab <command>`: in a checkout after `npm ci`, `npx ycsb-lab` runs the CLI from its
 * sources (bin/package.json, a development dependency, links it into node_modules/.bin).
 */
describe("npx ycsb-lab in a checkout", () => {
  it("runs the CLI: its help lists the commands", () => {
    const r = spawnSync("npx", ["--no-install", "ycsb-lab", "--help"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("Usage: ycsb-lab <command>");
    expect(r.stdout).toMatch(/\n\s+plan\s/);
  }, 300_000);
});
