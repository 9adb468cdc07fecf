/**
 * Captures test/fixtures/instance-status from a real run: YCSB 0.17.0 against site.ycsb.BasicDB (the stand-in a
 * rehearsal records), one data node and one client, each speaking through the boot's own Reporter
 * (runner/boot/reporter.ts: its stages, `bootedAt` and heartbeats) into the run's status objects of a folder store,
 * while the client runs the plan (runner/execute.ts). The fixture holds the result documents and the status markers
 * as the store kept them, so the API's realized-cost test imports what a run wrote. The documents carry the plan's
 * instance types (m6i.large data, c6i.large client), as a rehearsed run records them, and the markers what each
 * instance is billed for beside its hours as infra puts it in cluster.json (infra/volumes.ts instanceBilling: a
 * 500 GiB gp3 data volume with 6,000 IOPS and 250 MiB/s, the log volume, the root, public addresses) and the boot
 * hands it to the Reporter (runner/boot/data-node.ts, client-node.ts). Two runs: one whose instances live past the
 * 60 s billing minimum (model/run-cost.ts), one shorter, which the minimum covers.
 *
 *   npx tsx scripts/capture-status-fixtures.ts        (about 2 minutes; needs Java 17 and Maven Central)
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { instanceBilling, volumeLayout } from "../infra/volumes.js";
import { buildPlan, type ResultDocument, scenario } from "../model/index.js";
import { resultKey } from "../model/results-layout.js";
import { Reporter } from "../runner/boot/reporter.js";
import { RunObjects } from "../runner/boot/run-objects.js";
import { passiveActions } from "../runner/engine-actions.js";
import { executePlan } from "../runner/execute.js";
import { basicDbSetup } from "../runner/ycsb-setup.js";

const root = fileURLToPath(new URL("../", import.meta.url));
const out = join(root, "test/fixtures/instance-status");
const work = mkdtempSync(join(tmpdir(), "ycsb-lab-status-"));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** cluster.json's `billing` of a data node with its data and log on EBS, every instance with a public address. */
const BILLING = instanceBilling(
  volumeLayout({ kind: "ebs", ebsType: "gp3", sizeGiB: 500, iops: 6000, throughputMiBs: 250 }, true),
  "public-ip",
);

const fetched = spawnSync("bash", [join(root, "scripts/fetch-ycsb.sh")], { stdio: "inherit" });
if (fetched.status !== 0) throw new Error("scripts/fetch-ycsb.sh failed");

/** One run of `workloadSec` seconds of workload A; its documents and markers. */
async function capture(runId: string, workloadSec: number) {
  const RUN_ID = runId;
  const plan = buildPlan({
    ...scenario("quickstart"),
    name: "status-basicdb",
    records: { total: 500, fieldCount: 10, fieldLengthBytes: 100 },
    threads: { perClient: 2 },
    warmupSec: 1,
    workloads: [{ workload: "a", maxExecutionTimeSec: workloadSec }],
  });
  const objects = await RunObjects.open(`file://${join(work, runId)}/runs/${RUN_ID}/`);
  const node = new Reporter(objects, "data", 0, join(work, `${runId}-logs/node-0.log`));
  await node.stage("booting", "BasicDB stand-in: no engine to install");
  const nodeBeat = node.heartbeat();
  node.bills(BILLING.data);
  for (const stage of ["installed", "started", "formed", "ready"] as const)
    await node.stage(stage, "site.ycsb.BasicDB");
  const client = new Reporter(objects, "client", 0, join(work, `${runId}-logs/client-0.log`));
  await client.stage("booting", "kit ready");
  const clientBeat = client.heartbeat();
  client.bills(BILLING.client);
  await client.stage("installed", "YCSB 0.17.0 and site.ycsb.BasicDB");
  await client.stage("ready", "the stand-in serves");
  const outcome = await executePlan({
    plan,
    runId: RUN_ID,
    clientIndex: 0,
    store: objects.store,
    spoolDir: join(work, `${runId}-spool`),
    ycsb: await basicDbSetup(),
    actions: passiveActions("none"),
    barrierTimeoutMs: 60_000,
    ycsbLabVersion: "fixture",
    standIn: "site.ycsb.BasicDB: no database",
    log: (l) => client.log(l),
    onPhase: (phase, position, of) => client.stage("running", phase.kind, { position, of, name: phase.name }),
  });
  if (!outcome.complete) throw new Error(`the run did not complete: ${outcome.reason}`);
  clientBeat.stop();
  await client.stage("done", `${outcome.phasesRun} phase(s) run`);
  // The data node hears of the run's end on its next poll (runner/boot/data-node.ts), then stops serving.
  await sleep(3000);
  nodeBeat.stop();
  await node.stage("done", "the run ended complete: engine stopped");

  const results: ResultDocument[] = [];
  for (const p of plan.phases) {
    const body = await objects.store.get(resultKey(RUN_ID, p.index, p.name, 0));
    if (body) results.push(JSON.parse(body.toString("utf8")) as ResultDocument);
  }
  const statuses = [...(await objects.statuses()).values()].sort((a, b) => a.instance.localeCompare(b.instance));
  return { runId: RUN_ID, results, statuses };
}

try {
  mkdirSync(out, { recursive: true });
  for (const [runId, workloadSec] of [
    ["status-basicdb", 70],
    ["status-basicdb-short", 5],
  ] as const) {
    const captured = await capture(runId, workloadSec);
    // The HDR output folder is this capture's temporary path: kept relative to the phase (hdr/), as other fixtures.
    const text = JSON.stringify(captured).replace(
      /"hdrhistogram\.output\.path":"[^"]*\/(hdr\/)"/g,
      '"hdrhistogram.output.path":"$1"',
    );
    writeFileSync(join(out, `${runId}.json`), `${text}\n`);
    console.log(`${runId}.json: ${captured.results.length} documents, ${captured.statuses.length} status markers`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
