/**
 * Captures test/fixtures/capacity from real capacity searches: YCSB 0.17.0 against site.ycsb.BasicDB with a fixed
 * simulated delay (2 clients x 2 threads, so 1000 ms / delay x 4 operations/s at most: the known breaking rate), each
 * search run twice (the plan's repeats) by two clients in lock-step (runner/execute.ts, runner/capacity-decision.ts).
 * One file per delay holds every result document the clients stored, in phase and client order. The API's capacity
 * tests ingest them: steps, verdicts and histograms are this machine's as measured.
 *
 *   npx tsx scripts/capture-capacity-fixtures.ts        (about 4 minutes; needs Java 17 and Maven Central)
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildPlan, type CapacitySearch, type ResultDocument, scenario } from "../model/index.js";
import { resultKey } from "../model/results-layout.js";
import { passiveActions } from "../runner/engine-actions.js";
import { executePlan } from "../runner/execute.js";
import { FolderStore } from "../runner/results-store.js";
import { basicDbSetup } from "../runner/ycsb-setup.js";

const root = fileURLToPath(new URL("../", import.meta.url));
const out = join(root, "test/fixtures/capacity");
const work = mkdtempSync(join(tmpdir(), "ycsb-lab-capacity-"));
const CLIENTS = 2;
const THREADS = 2;
const SEARCH: CapacitySearch = {
  slo: { operations: ["READ"], percentile: 95, limitMs: 50, errorBudgetPct: 0 },
  // The probe measures the maximum unthrottled, then 50/75/90/105 % of it (scylla-cluster-tests), then bisection.
  fractions: [0.5, 0.75, 0.9, 1.05],
  resolutionOpsSec: 50,
  maxSteps: 8,
};

async function capture(delayMs: number): Promise<ResultDocument[]> {
  const runId = `capacity-basicdb-${delayMs}ms`;
  const plan = buildPlan({
    ...scenario("quickstart"),
    name: "capacity-basicdb",
    clients: { count: CLIENTS },
    records: { total: 200, fieldCount: 10, fieldLengthBytes: 100 },
    threads: { perClient: THREADS },
    properties: { "basicdb.simulatedelay": String(delayMs), "basicdb.randomizedelay": "false" },
    warmupSec: 1,
    repeats: 2,
    workloads: [{ workload: "c", maxExecutionTimeSec: 4 }],
    capacity: SEARCH,
  });
  const store = new FolderStore(join(work, runId));
  const ycsb = await basicDbSetup();
  const outcomes = await Promise.all(
    Array.from({ length: CLIENTS }, (_, c) =>
      executePlan({
        plan,
        runId,
        clientIndex: c,
        store,
        spoolDir: join(work, `${runId}-spool-${c}`),
        ycsb,
        actions: passiveActions("none"),
        barrierTimeoutMs: 120_000,
        ycsbLabVersion: "fixture",
        standIn: "site.ycsb.BasicDB: no database",
        machine: "local",
        log: (l) => console.log(`[${delayMs} ms, client ${c}] ${l}`),
      }),
    ),
  );
  if (!outcomes.every((o) => o.complete)) throw new Error(`${runId}: a client did not complete`);
  const docs: ResultDocument[] = [];
  for (const p of plan.phases.filter((ph) => ph.capacity)) {
    for (let c = 0; c < CLIENTS; c++) {
      const body = await store.get(resultKey(runId, p.index, p.name, c));
      if (body) docs.push(JSON.parse(body.toString("utf8")) as ResultDocument);
    }
  }
  return docs;
}

const fetched = spawnSync("bash", [join(root, "scripts/fetch-ycsb.sh")], { stdio: "inherit" });
if (fetched.status !== 0) throw new Error("scripts/fetch-ycsb.sh failed");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
try {
  for (const delayMs of [10, 5]) {
    const docs = await capture(delayMs);
    // The HDR output folder is this capture's temporary path: kept relative to the phase (hdr/), as the local
    // benchmark's fixtures keep it, so a fixture names no folder of the machine that captured it.
    const text = JSON.stringify(docs).replace(
      /"hdrhistogram\.output\.path":"[^"]*\/(hdr\/)"/g,
      '"hdrhistogram.output.path":"$1"',
    );
    writeFileSync(join(out, `basicdb-${delayMs}ms.json`), `${text}\n`);
    console.log(`basicdb-${delayMs}ms.json: ${docs.length} documents`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
