import { execFile, execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { expect, it } from "vitest";

// The unit project's guard (test/support/unit-guard.ts) is what keeps the split between the two projects honest.
it("a unit file cannot listen or start a background process, but may run a short tool", () => {
  expect(() => createServer().listen(0, "127.0.0.1")).toThrow(/integration file/);
  expect(() => execFile("true")).toThrow(/integration file/);
  expect(execFileSync("echo", ["ok"], { encoding: "utf8" })).toBe("ok\n");
});
