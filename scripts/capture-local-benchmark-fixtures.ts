/**
 * Captures test/fixtures/local-benchmark from a real run of `npm start`'s first benchmark (model/local-cell.ts
 * FIRST_BENCHMARK: usa-2015-durability on a local Cassandra under each preset, at its scale, threads and target):
 * the result document of every measured phase, as the runner wrote it, with the run ids fixed
 * (local-first-<preset>) and the client's spool path, host name and start times made neutral. The dashboard's
 * browser tests ingest them: verdicts, reasons and numbers are this machine's as measured.
 *
 *   npx tsx scripts/capture-local-benchmark-fixtures.ts        (about 10 minutes; needs Java 17 and Maven Central)
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { FIRST_BENCHMARK } from "../model/local-cell.js";
import { scenarioPresets } from "../model/scenario.js";
import { scenario } from "../model/scenarios.js";

const root = fileURLToPath(new URL("../", import.meta.url));
const out = join(root, "test/fixtures/local-benchmark");
const work = mkdtempSync(join(tmpdir(), "ycsb-lab-local-benchmark-"));
const cli = (args: string[]) => {
  const r = spawnSync(process.execPath, ["--import", "tsx", join(root, "cli/main.ts"), ...args], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (r.status !== 0 && args[1] !== "down") throw new Error(`ycsb-lab ${args.join(" ")} exited with ${r.status}`);
};

const b = FIRST_BENCHMARK;
const presets = scenarioPresets(scenario(b.scenario), b.engine);
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
try {
  for (const preset of presets) {
    cli(["local", "down", "--engine", b.engine]);
    cli([
      "local",
      "run",
      "--engine",
      b.engine,
      "--scenario",
      b.scenario,
      "--preset",
      preset,
      "--scale",
      String(b.scale),
      "--threads",
      String(b.threadsPerClient),
      "--target",
      String(b.targetOpsSec),
      "--results",
      `file://${work}`,
      "--run-id",
      `local-first-${preset}`,
    ]);
  }
} finally {
  cli(["local", "down", "--engine", b.engine]);
}
for (const preset of presets) {
  const phases = join(work, "runs", `local-first-${preset}`, "phases");
  for (const phase of readdirSync(phases)) {
    const doc = JSON.parse(readFileSync(join(phases, phase, "client-0", "result.json"), "utf8"));
    // Nothing of this machine: its spool path, host name; the documents keep their own dates.
    if (doc.phase.properties["hdrhistogram.output.path"]) doc.phase.properties["hdrhistogram.output.path"] = "hdr/";
    doc.client.host = "local";
    writeFileSync(join(out, `${preset}-${phase}.json`), `${JSON.stringify(doc)}\n`);
    console.error(`wrote ${preset}-${phase}.json: ${doc.validity.verdict}`);
  }
}
rmSync(work, { recursive: true, force: true });
