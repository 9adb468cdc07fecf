/**
 * Results API benchmark (DESIGN.md targets): ingest documents/s through the HTTP API into Postgres (>= 2,000/s),
 * then p95 of GET /compare and GET /scaling with 100,000 client results stored (< 100 ms), queried one at a time with
 * the response cache off (the queries' own speed). Then the team table: 16 dashboard viewers for 20 s against 10,000
 * runs, p95 per dashboard route, on Postgres and on PGlite (< 250 ms and < 1 s), as served (cache on); and the same
 * with one writer posting a 2-client phase every second; then a client's retry of the largest accepted batch (all
 * duplicates) against its first POST on each store (target: no more than twice as long).
 * Needs a local Postgres: scripts/setup-postgres.sh (run here) or BENCH_DATABASE_URL. Prints figures only.
 *   npx tsx bench/api.ts [--results 100000] [--batch 500] [--concurrency 4] [--runs 10000] [--viewers 16] [--seconds 20]
 *                        [--stores postgres,pglite] [--only team|ingest]
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Worker } from "node:worker_threads";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import pg from "pg";
import { buildApp } from "../api/build.js";
import { type Database, openDatabase } from "../api/db/open.js";
import { MAX_BATCH } from "../api/routes/api/results/index.js";
import { settleAggregates } from "../api/store/aggregates/settle.js";
import { ingestDocuments } from "../api/store/ingest.js";
import { loadReferenceData } from "../api/store/reference-data.js";
import { typeScriptThreadEntry } from "../api/typescript-thread.js";
import { ENGINES } from "../model/engine.js";
import { PRESETS } from "../model/presets.js";
import { type ResultDocument, ResultDocumentSchema } from "../model/result-document.js";
import { fixtureDocument, ROOT, TOKEN, testConfig } from "../test/api/api-helpers.js";
import { cpuMeter, perItem, postmasterOf } from "./cpu-use.js";
import {
  type BodyTemplates,
  bodyMaker,
  CLIENTS,
  inBatches,
  NODES,
  PHASES,
  speedup,
  variedFields,
} from "./ingest-bodies.js";
import type { PosterJob, PosterResult } from "./ingest-poster.js";

const { values } = parseArgs({
  options: {
    existing: { type: "string" },
    results: { type: "string", default: "100000" },
    batch: { type: "string", default: "500" },
    concurrency: { type: "string", default: "4" },
    runs: { type: "string", default: "10000" },
    viewers: { type: "string", default: "16" },
    seconds: { type: "string", default: "20" },
    stores: { type: "string", default: "postgres,pglite" },
    only: { type: "string" },
  },
});
const TOTAL = Number(values.results);
const BATCH = Number(values.batch);
const CONCURRENCY = Number(values.concurrency);

/** The databases this run made (each holds up to 100,000 documents): dropped when it ends. */
const created: { base: string; name: string }[] = [];

async function freshDatabase(): Promise<string> {
  const base =
    process.env.BENCH_DATABASE_URL ??
    execFileSync("bash", [`${ROOT}scripts/setup-postgres.sh`], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }).trim();
  const name = `bench_api_${Date.now()}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  created.push({ base, name });
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

const template = [fixtureDocument({ runId: "t", client: 0 }), fixtureDocument({ runId: "t", client: 1 })];
const templateOverall = template.map((t) => t.result.overall);

/** Document number i: run i / (PHASES x CLIENTS), a thread step per phase, one client each; real YCSB output inside. */
function documentAt(i: number): ResultDocument {
  const f = variedFields(i, templateOverall);
  const doc = structuredClone(template[f.client % 2]!);
  Object.assign(doc.run, { id: f.runId, engine: f.engine, nodes: f.nodes, preset: f.preset, repeat: f.repeat });
  doc.phase = {
    ...doc.phase,
    name: f.phaseName,
    index: f.phaseIndex,
    workload: f.workload,
    threadsPerClient: f.threads,
    clients: CLIENTS,
  };
  doc.client = { index: f.client, count: CLIENTS };
  doc.result.overall = { runtimeMs: f.runtimeMs, throughputOpsSec: f.throughput };
  return doc;
}

// The load generator shares the 2 cores with the server: bodies are spliced from each template's JSON split at the
// fields documentAt varies (the same bytes JSON.stringify(documentAt(i)) gives, checked below) instead of cloned.
const SLOT = "\u0000slot:";
const slotted = (i: number) => {
  const doc = documentAt(i);
  const mark = (k: string) => `${SLOT}${k}` as never;
  doc.run.id = mark("runId");
  doc.run.engine = mark("engine");
  doc.run.nodes = mark("nodes");
  doc.run.preset = mark("preset");
  doc.run.repeat = mark("repeat");
  Object.assign(doc.phase, {
    name: mark("phaseName"),
    index: mark("phaseIndex"),
    workload: mark("workload"),
    threadsPerClient: mark("threads"),
  });
  doc.client.index = mark("client");
  doc.result.overall = { runtimeMs: mark("runtimeMs"), throughputOpsSec: mark("throughput") };
  return JSON.stringify(doc).split(/"\\u0000slot:(\w+)"/);
};
/** The templates as plain data: the load generator's thread (bench/ingest-poster.ts) splices the same bodies. */
const templates: BodyTemplates = { parts: [slotted(0), slotted(1)], overall: templateOverall };
const { bodyOf, batchBody } = bodyMaker(templates);
for (const i of [0, 1, 117, 4321])
  if (bodyOf(i) !== JSON.stringify(documentAt(i))) throw new Error(`bench body ${i} differs from documentAt(${i})`);

/** Posts `total` documents in batches from the load generator's own thread; its wall time and its thread's CPU. */
function postFromThread(job: PosterJob): Promise<PosterResult> {
  const entry = typeScriptThreadEntry(new URL("./ingest-poster.ts", import.meta.url).href);
  if (!entry) throw new Error("the load generator's thread needs tsx (npm ci installs it)");
  const worker = new Worker(entry, { workerData: job });
  return new Promise((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
    worker.once("exit", (code) => {
      if (code !== 0) reject(new Error(`the load generator's thread exited with ${code}`));
    });
  });
}

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.95) - 1]!;

async function ingestAndQueries() {
  // --existing URL: measure the queries on a database a previous run filled (no ingest).
  const url = values.existing ?? (await freshDatabase());
  const db = await openDatabase({ databaseUrl: url, poolSize: CONCURRENCY * 2 });
  // The queries' own speed: the response cache off (the team table below measures the service as configured).
  const app = await buildApp(testConfig({ bodyLimit: 64 * 1024 * 1024, responseCache: false }), {
    database: db,
    logLevel: "warn",
  });
  const address = await app.listen({ host: "127.0.0.1", port: 0 });
  const bodyBytes = JSON.stringify(documentAt(0)).length;
  // The machine is shared: its load says how far the wall-clock figures below are from an idle one's.
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} on ${cpus().length} cores`,
  );
  console.log(
    `results API bench: ${TOTAL} client results (${bodyBytes} B each, real YCSB output), batches of ${BATCH}, ${CONCURRENCY} concurrent, Postgres`,
  );

  /** Runs `work(start, n)` over `total` documents in batches, CONCURRENCY at a time; returns documents per second. */
  const batched = async (total: number, work: (start: number, n: number) => Promise<void>) =>
    total / (await inBatches(total, BATCH, CONCURRENCY, work));

  if (!values.existing) {
    // Baselines in the same run (the machine is shared, so only ratios mean something):
    // 1. the API's CPU floor: JSON.parse + schema check of the same bodies, nothing stored;
    // 2. Postgres' floor: the same documents as one jsonb value each, bare multi-row INSERT with pg, no index.
    const sample = Math.min(TOTAL, 10_000);
    const check = TypeCompiler.Compile(ResultDocumentSchema);
    const parsePerSec = await batched(sample, async (start, n) => {
      for (const d of JSON.parse(batchBody(start, n)) as unknown[])
        if (!check.Check(d)) throw new Error("bench document fails the schema");
    });
    const bare = new pg.Pool({ connectionString: url, max: CONCURRENCY });
    // Same TOAST compression as ingest uses (api/store/ingest.ts): lz4 where the server has it.
    const { rows } = await bare.query(
      "SELECT 'lz4' = ANY(enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'",
    );
    const postmaster = await postmasterOf(bare);
    let bareCpu: ReturnType<ReturnType<typeof cpuMeter>> | undefined;
    const bareInsert = async () => {
      await bare.query("CREATE TABLE bench_bare (doc jsonb NOT NULL)");
      if (rows[0]?.lz4) await bare.query("ALTER TABLE bench_bare ALTER COLUMN doc SET COMPRESSION lz4");
      const cpu = cpuMeter(postmaster);
      const perSec = await batched(sample, async (start, n) => {
        await bare.query("INSERT INTO bench_bare (doc) SELECT jsonb_array_elements($1::jsonb)", [batchBody(start, n)]);
      });
      bareCpu ??= cpu(sample);
      await bare.query("DROP TABLE bench_bare");
      return perSec;
    };
    const bareBefore = await bareInsert();
    console.log(
      `baseline: JSON.parse + schema check ${parsePerSec.toFixed(0)} documents/s; bare INSERT of the documents as jsonb rows ${bareBefore.toFixed(0)} documents/s (${sample} documents); load ${loadavg()[0]!.toFixed(1)}`,
    );

    // The fleet's side on a thread of its own, as clients post from their own machines: the service's thread does
    // only the service's work (the two cores are still shared, and the poster's CPU is stated apart).
    const ingestCpu = cpuMeter(postmaster);
    const posted = await postFromThread({
      url: `${address}/api/v1/results`,
      token: TOKEN,
      total: TOTAL,
      batch: BATCH,
      concurrency: CONCURRENCY,
      templates,
    });
    const perSec = TOTAL / posted.seconds;
    const cpu = ingestCpu(TOTAL);
    const stored = await db.prisma.clientResult.count();
    if (stored !== TOTAL) throw new Error(`ingest stored ${stored} client results, sent ${TOTAL}`);
    // What the writes left for the settler (the groups they marked; api/store/aggregates/settle.ts), settled now: the
    // rate with that round counted is what a fleet's results cost before every view reads them settled.
    const settleStart = performance.now();
    await settleAggregates(db.prisma);
    const settleMs = performance.now() - settleStart;
    // The bare INSERT again after the ingest: when the machine's load moved during the ingest, the two differ.
    const bareAfter = await bareInsert();
    await bare.end();
    const bareMean = (bareBefore + bareAfter) / 2;
    console.log(
      `ingest: ${stored} client results = ${perSec.toFixed(0)} documents/s through HTTP (target >= 2,000); ${((perSec / bareMean) * 100).toFixed(0)}% of the bare INSERT (${bareBefore.toFixed(0)} before, ${bareAfter.toFixed(0)} after); load ${loadavg()[0]!.toFixed(1)}`,
    );
    console.log(
      `  then the kept aggregates settled in ${settleMs.toFixed(0)} ms (${(TOTAL / (TOTAL / perSec + settleMs / 1000)).toFixed(0)} documents/s with it)`,
    );
    // CPU, not wall time: what ingest costs whatever else the machine runs (the load generator's thread taken out).
    console.log(
      `ingest CPU per document: the API ${perItem(cpu.node - posted.cpuUs / TOTAL)} (this process but the load generator's thread, ${perItem(posted.cpuUs / TOTAL)}), Postgres ${perItem(cpu.postgres)}; bare INSERT: this process ${perItem(bareCpu!.node)}, Postgres ${perItem(bareCpu!.postgres)}`,
    );
  }
  await db.prisma.$executeRawUnsafe("ANALYZE");

  // Each call is followed by GET /health (the HTTP stack and one database round trip): a floor measured in the same
  // loop, under the same load, so the machine's noise shows beside each figure.
  async function timeEndpoint(name: string, path: () => string, n = 60, target = "target p95 < 100 ms") {
    const times: number[] = [];
    const floor: number[] = [];
    const timed = async (url: string, into: number[]) => {
      const t = performance.now();
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
      into.push(performance.now() - t);
    };
    for (let k = 0; k < n; k++) {
      await timed(`${address}${path()}`, times);
      await timed(`${address}/health`, floor);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    console.log(
      `${name}: p95 ${p95(times).toFixed(1)} ms, median ${median(times).toFixed(1)} ms over ${n} calls (${target}); floor GET /health in the same loop p95 ${p95(floor).toFixed(1)} ms, median ${median(floor).toFixed(1)} ms; load ${loadavg()[0]!.toFixed(1)}`,
    );
  }
  const runs = Math.ceil(TOTAL / (PHASES * CLIENTS));
  let r = 0;
  await timeEndpoint(
    "GET /compare (4 runs x 10 phases x 10 clients)",
    () => `/api/v1/compare?runs=${[0, 1, 2, 3].map((k) => `bench-${(r++ * 4 + k) % runs}`).join(",")}`,
  );
  await timeEndpoint("GET /scaling?workload=a", () => "/api/v1/scaling?workload=a");
  await timeEndpoint("GET /scaling (all workloads)", () => "/api/v1/scaling");
  // Context, no target: these read every client operation group of the phases they cover (peak phases, sweeps).
  await timeEndpoint(
    "GET /durability?engine=cassandra&workload=a",
    () => "/api/v1/durability?engine=cassandra&workload=a",
    10,
    "context",
  );
  await timeEndpoint(
    "GET /sweeps?engine=cassandra&workload=a",
    () => "/api/v1/sweeps?engine=cassandra&workload=a",
    10,
    "context",
  );
  await timeEndpoint("GET /durability (everything)", () => "/api/v1/durability", 5, "context");
  await app.close();
  await db.close();
}

// ---- the team table: 16 viewers, 20 s, p95 per dashboard route, at 10,000 runs ----

const TEAM_PHASES = [4, 8, 16, 32];
const TEAM_CLIENTS = 2;

/** Run r of the team dataset: a thread sweep of workload A (4 phases, 2 clients each, real YCSB output). */
function teamRun(r: number): ResultDocument[] {
  const engine = ENGINES[r % ENGINES.length]!;
  const nodes = NODES[Math.floor(r / ENGINES.length) % NODES.length]!;
  const preset = PRESETS[Math.floor(r / 20) % PRESETS.length]!;
  return TEAM_PHASES.flatMap((threads, p) =>
    ([0, 1] as const).map((c) => {
      const doc = structuredClone(template[c]!);
      const f = speedup(nodes, r + p) * (1 + p / 10);
      Object.assign(doc.run, {
        id: `team-${r}`,
        scenario: "bench-team",
        engine,
        nodes,
        preset,
        repeat: Math.floor(r / 200) % 3,
      });
      doc.phase = {
        ...doc.phase,
        name: `a-t${threads}`,
        index: p,
        workload: "a",
        threadsPerClient: threads,
        clients: TEAM_CLIENTS,
      };
      doc.client = { index: c, count: TEAM_CLIENTS };
      doc.result.overall = {
        runtimeMs: doc.result.overall.runtimeMs / f,
        throughputOpsSec: doc.result.overall.throughputOpsSec * f,
      };
      return doc;
    }),
  );
}

async function teamDatabase(store: string, runs: number): Promise<{ db: Database; cleanup: () => void }> {
  let db: Database;
  let cleanup = () => {};
  if (store === "postgres") db = await openDatabase({ databaseUrl: await freshDatabase(), poolSize: 10 });
  else {
    const dir = mkdtempSync(join(tmpdir(), "ycsb-lab-bench-"));
    db = await openDatabase({ pgliteDir: join(dir, "pglite"), command: "bench" });
    cleanup = () => rmSync(dir, { recursive: true, force: true });
  }
  const t0 = performance.now();
  for (let r = 0; r < runs; r += 50)
    await ingestDocuments(db.prisma, Array.from({ length: Math.min(50, runs - r) }, (_, k) => teamRun(r + k)).flat());
  await loadReferenceData(db.prisma);
  // As autovacuum leaves a store whose runs arrived over days (it vacuums a table after each 20 % of inserts, PostgreSQL
  // "Automatic Vacuuming", autovacuum_vacuum_insert_scale_factor): the visibility map set, so an index-only scan reads
  // no heap. Seeded in a minute and read at once, the runs page read every run's heap page to check visibility.
  if (store === "postgres") await db.prisma.$executeRawUnsafe("VACUUM ANALYZE");
  const docs = runs * TEAM_PHASES.length * TEAM_CLIENTS;
  console.log(
    `  ${store}: ${runs} runs (${docs} client results) stored in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
  return { db, cleanup };
}

interface ViewerReport {
  first: Record<string, number>;
  byRoute: Record<string, { ms: number[]; errors: number; unavailable: number }>;
}

function viewers(base: string, extra: string[] = []): Promise<ViewerReport> {
  const child = spawn(
    process.execPath,
    [
      "--import",
      import.meta.resolve("tsx"),
      `${ROOT}bench/api-viewers.ts`,
      "--base",
      base,
      "--runs",
      values.runs!,
      "--viewers",
      values.viewers!,
      "--seconds",
      values.seconds!,
      ...extra,
    ],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  return new Promise((resolve, reject) =>
    child.once("exit", (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split("\n").pop()!) as ViewerReport)
        : reject(new Error(`viewers exited ${code}`)),
    ),
  );
}

const ROUTES = [
  "GET /health (floor)",
  "/facets",
  "/timeline",
  "/runs",
  "/runs/:id",
  "/runs/:id/phases/:phase/series",
  "/compare",
  "/scaling",
  "/durability",
  "/sweeps",
  "/repeatability",
  "/reference",
  "POST /results",
];

/** Issue 28's targets for the team table, with or without the writer. */
const ROUTE_TARGET_MS: Record<string, number> = { postgres: 250, pglite: 1000 };
const HEALTH_TARGET_MS = 100;

function table(title: string, reports: Record<string, ViewerReport>) {
  const stores = Object.keys(reports);
  console.log(`\n${title}`);
  console.log(`| route | ${stores.map((s) => `${s} p95 (ms) | ${s} calls | ${s} 503 | ${s} cold (ms)`).join(" | ")} |`);
  console.log(`|---|${stores.map(() => "---:|---:|---:|---:").join("|")}|`);
  for (const route of ROUTES) {
    const cells = stores.map((s) => {
      const r = reports[s]!.byRoute[route];
      if (!r) return "- | - | - | -";
      const p = p95(r.ms);
      const target = route.startsWith("POST")
        ? Infinity
        : route.includes("(floor)")
          ? HEALTH_TARGET_MS
          : ROUTE_TARGET_MS[s]!;
      const mark = p < target ? "" : " (over)";
      const errors = r.errors > r.unavailable ? ` (${r.errors - r.unavailable} errors)` : "";
      return `${p.toFixed(0)}${mark} | ${r.ms.length}${errors} | ${r.unavailable} | ${reports[s]!.first[route]?.toFixed(0) ?? "-"}`;
    });
    if (cells.every((c) => c === "- | - | - | -")) continue;
    console.log(`| ${route} | ${cells.join(" | ")} |`);
  }
  for (const s of stores) console.log(verdict(s, reports[s]!));
}

/** One line per store: the figures the targets name, each beside its target. */
function verdict(store: string, report: ViewerReport): string {
  const viewed = ROUTES.filter((r) => !r.startsWith("POST") && !r.includes("(floor)") && report.byRoute[r]);
  const worst = viewed.map((r) => ({ r, p: p95(report.byRoute[r]!.ms) })).sort((a, b) => b.p - a.p)[0];
  const health = report.byRoute["GET /health (floor)"];
  const unavailable = Object.values(report.byRoute).reduce((n, r) => n + r.unavailable, 0);
  const post = report.byRoute["POST /results"];
  const writer = post
    ? `; writer POST p95 ${p95(post.ms).toFixed(0)} ms, max ${Math.max(...post.ms).toFixed(0)} ms over ${post.ms.length} posts`
    : "";
  return (
    `  ${store}: slowest route ${worst?.r} p95 ${worst?.p.toFixed(0)} ms (target < ${ROUTE_TARGET_MS[store]} ms); ` +
    `/health p95 ${health ? p95(health.ms).toFixed(0) : "-"} ms (target < ${HEALTH_TARGET_MS} ms); ${unavailable} answers 503 (target 0)${writer}`
  );
}

/**
 * A client's retry of the largest batch the API accepts (its acknowledgement lost): the first POST, then the same body
 * again, every document a duplicate. Target: the retry costs no more than twice the first.
 */
async function retryTimes(base: string): Promise<{ firstMs: number; againMs: number }> {
  const docs = Array.from({ length: MAX_BATCH }, (_, i) => teamRun(1_000_000 + Math.floor(i / 8))[i % 8]!);
  const body = JSON.stringify(docs);
  const post = async (expected: number) => {
    const t0 = performance.now();
    const res = await fetch(`${base}/api/v1/results`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
    });
    if (res.status !== expected)
      throw new Error(`POST /results (retry bench): ${res.status} ${(await res.text()).slice(0, 300)}`);
    await res.arrayBuffer();
    return performance.now() - t0;
  };
  return { firstMs: await post(201), againMs: await post(200) };
}

async function teamTable() {
  const runs = Number(values.runs);
  console.log(
    `\nload average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(
        " ",
      )}; team table: ${values.viewers} viewers for ${values.seconds} s against ${runs} runs (${TEAM_PHASES.length} phases x ${TEAM_CLIENTS} clients each) plus the seeds' published runs`,
  );
  const quiet: Record<string, ViewerReport> = {};
  const writing: Record<string, ViewerReport> = {};
  const retries: string[] = [];
  const writerBody = JSON.stringify(
    TEAM_PHASES.slice(0, 1).flatMap(() =>
      ([0, 1] as const).map((c) => ({ ...fixtureDocument({ runId: "WRITER-RUN", client: c }) })),
    ),
  );
  for (const store of values.stores!.split(",")) {
    const { db, cleanup } = await teamDatabase(store, runs);
    // As served: the default configuration but a rate limit that lets 16 viewers from one address through.
    const app = await buildApp(testConfig({ bodyLimit: 16 * 1024 * 1024 }), { database: db, logLevel: "warn" });
    const base = await app.listen({ host: "127.0.0.1", port: 0 });
    const load = () =>
      loadavg()
        .map((l) => l.toFixed(1))
        .join(" ");
    console.log(`  ${store}: viewers start, load average ${load()}`);
    quiet[store] = await viewers(base);
    console.log(`  ${store}: viewers done, load average ${load()}; with a writer next`);
    writing[store] = await viewers(base, [
      "--writer-token",
      TOKEN,
      "--writer-body",
      writerBody,
      "--writer-every",
      "1000",
    ]);
    const { firstMs, againMs } = await retryTimes(base);
    retries.push(
      `  ${store}: first POST ${firstMs.toFixed(0)} ms, the same batch again ${againMs.toFixed(0)} ms = ${(againMs / firstMs).toFixed(2)}x (target <= 2x); load ${load()}`,
    );
    console.log(`  ${store}: done, load average ${load()}`);
    await app.close();
    await db.close();
    cleanup();
  }
  table(
    `p95 per dashboard route, ${values.viewers} viewers, ${values.seconds} s (targets: Postgres < 250 ms, PGlite < 1 s, /health < 100 ms, no 503; "cold" = the route's slowest warm-up request, its answer computed, before the window)`,
    quiet,
  );
  console.log(
    `\nre-sent batch of ${MAX_BATCH} documents (the largest accepted) over ${runs} runs:\n${retries.join("\n")}`,
  );
  table(`the same with one writer posting a 2-client phase every second (the same targets)`, writing);
}

try {
  if (values.only !== "team") await ingestAndQueries();
  if (values.only !== "ingest") await teamTable();
} finally {
  for (const { base, name } of created) {
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.end();
  }
}
