import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../runner-helpers.js";

/** The Java bindings' own unit tests (JUnit 5 through Maven's surefire), run as part of `npm test`. */
const run = promisify(execFile);
const BINDINGS = join(REPO_ROOT, "runner", "bindings");
const MODULES = ["common", "cassandra", "mongodb", "hbase", "couchbase"];

function reports(module: string): { name: string; tests: number; failures: number; errors: number }[] {
  const dir = join(BINDINGS, module, "target", "surefire-reports");
  return readdirSync(dir)
    .filter((f) => f.startsWith("TEST-") && f.endsWith(".xml"))
    .map((f) => {
      const head = /<testsuite [^>]*>/.exec(readFileSync(join(dir, f), "utf8"))?.[0] ?? "";
      const attr = (a: string) => Number(new RegExp(`\\b${a}="(\\d+)"`).exec(head)?.[1] ?? NaN);
      return { name: f, tests: attr("tests"), failures: attr("failures"), errors: attr("errors") };
    });
}

describe("Java bindings' unit tests", () => {
  it("pass in every module that has them", async () => {
    // Offline first (setup built the modules, ~/.m2 holds JUnit), then online, as scripts/build-bindings.sh does.
    const mvn = (offline: boolean) =>
      run("mvn", ["-B", "-q", ...(offline ? ["-o"] : []), "test", "-pl", MODULES.join(","), "-am"], {
        cwd: BINDINGS,
        maxBuffer: 16 << 20,
      });
    await mvn(true).catch(() => mvn(false));
    for (const m of MODULES) {
      const suites = reports(m);
      expect(suites.length, `${m}: surefire reports`).toBeGreaterThan(0);
      for (const s of suites)
        expect({ ...s, tests: s.tests > 0 }).toEqual({ name: s.name, tests: true, failures: 0, errors: 0 });
    }
  }, 600_000);
});
