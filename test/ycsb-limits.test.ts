import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { resolveDeployment, scenario, YCSB_MAX_COUNT } from "../model/index.js";
import { ycsbCoreDir } from "../runner/java-artifacts.js";
import { buildYcsbCommand, spawnYcsb } from "../runner/ycsb-process.js";
import { REPO_ROOT } from "./runner-helpers.js";

/**
 * model/ycsb-limits.ts refuses data sets past YCSB_MAX_COUNT before anything is deployed. This holds the constant to
 * the real YCSB 0.17.0 jar: a run phase (site.ycsb.BasicDB, no server) over exactly that many records runs, one more
 * record and CoreWorkload stops before its first operation. The largest cell the model still allows runs too.
 */
const run = promisify(execFile);
let coreDir: string;

beforeAll(async () => {
  await run("bash", [join(REPO_ROOT, "scripts", "fetch-ycsb.sh")]);
  coreDir = ycsbCoreDir();
}, 600_000);

function readPhase(recordcount: number) {
  return spawnYcsb(
    buildYcsbCommand({
      phase: "run",
      dbClass: "site.ycsb.BasicDB",
      classpath: [join(coreDir, "*")],
      properties: { workload: "site.ycsb.workloads.CoreWorkload", recordcount: String(recordcount), operationcount: "5", readproportion: "1", updateproportion: "0", requestdistribution: "uniform" },
    }),
  );
}

describe("YCSB 0.17.0 counts records in 32-bit ints", () => {
  it("a run phase over YCSB_MAX_COUNT records reads; over one more it fails at once, as the model says", async () => {
    const fits = await readPhase(YCSB_MAX_COUNT);
    expect(fits.exitCode, fits.stderr).toBe(0);
    expect(fits.stdout).toMatch(/\[READ\], Operations, 5/);
    const over = await readPhase(YCSB_MAX_COUNT + 1);
    expect(over.exitCode).not.toBe(0);
    expect(over.stderr).toMatch(/NumberFormatException: For input string: "2147483648"/);
    expect(over.stdout).not.toMatch(/\[READ\], Operations/);
  }, 120_000);

  it("seed 000 at 8 nodes: refused at full scale, and the largest scale the model names runs", async () => {
    expect(() => resolveDeployment(scenario("endpoint-2015"), { nodes: 8 })).toThrow(/use scale 0\.53 or less/);
    const d = resolveDeployment(scenario("endpoint-2015"), { nodes: 8, scale: 0.53 });
    const r = await readPhase(d.recordCount);
    expect(r.exitCode, r.stderr).toBe(0);
  }, 120_000);
});
