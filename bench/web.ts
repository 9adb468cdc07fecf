/**
 * Dashboard benchmark: time from navigation to the first drawn chart of every view (the ten in the navigation and two
 * study pages), in headless Chromium against the real API (PGlite), first over the browser tests' runs (the baseline
 * of this very process), then at each size (10,000 and 100,000 runs unless told otherwise) in a store of its own:
 * the bench's runs stored in bulk before the service starts (the store's writer in batches, then every kept group
 * rebuilt once: the stored rows POSTing them makes, without a recount per batch), the browser tests' runs POSTed and
 * one more batch of 1,000 runs written beside the running service, its recount timed beside the same groups
 * recounted from all of their phases (the baseline: what every write cost before the kept state); then every view
 * cold (the first after the start and the write) and again. The runs are one study's (usa-2015-durability), so its
 * page, durability, scaling and regressions read all of them. Prints figures; asserts nothing about time.
 *
 *   npx tsx bench/web.ts [sizes=10000,100000]
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import type { Database } from "../api/db/open.js";
import type { ResultDocument } from "../model/result-document.js";
import type { RunningApi } from "../test/web/web-api.js";

// A fresh clone has no Prisma client yet (npm start makes it): made here first, before anything imports it.
const root = fileURLToPath(new URL("../", import.meta.url));
if (!existsSync(`${root}prisma/generated/client.ts`)) {
  console.log("prisma/generated missing: npm run db:generate");
  const r = spawnSync("npm", ["run", "db:generate"], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) throw new Error("npm run db:generate failed");
}
const { ingestDocuments } = await import("../api/store/ingest.js");
const { ENGINES } = await import("../model/engine.js");
const { PRESETS } = await import("../model/presets.js");
const { emptyStatusSeries } = await import("../model/status-series.js");
const { startApi } = await import("../test/web/web-api.js");
const { openBrowser, screenshot, waitForView } = await import("../test/web/web-browser.js");
const { seedDocuments } = await import("../test/web/web-seed.js");
const { loadReferenceData } = await import("../api/store/reference-data.js");
const { settleAggregates } = await import("../api/store/aggregates/settle.js");
const { refreshGroups } = await import("../api/store/aggregates/groups.js");
const { rebuildAggregates } = await import("../api/store/aggregates/rebuild.js");

const SIZES = (process.argv[2] ?? "10000,100000").split(",").map(Number);
const BATCH = 1000;
if (SIZES.some((n) => !Number.isInteger(n) || n < 2 * BATCH))
  throw new Error(`sizes must be whole numbers >= ${2 * BATCH}`);
const ANALYZE_EVERY = 10_000;
const SCENARIO = "usa-2015-durability";

/** Every view, opened as a newcomer opens it (its defaults), and the chart that is its first. */
const VIEWS: { view: string; search: string; chart: string }[] = [
  { view: "runs", search: "?view=runs", chart: "runs-throughput" },
  { view: "compare", search: "?view=compare&runs=bench-0,bench-1,bench-2", chart: "compare-throughput" },
  { view: "regressions", search: "?view=regressions", chart: "regressions-0" },
  { view: "scaling", search: "?view=scaling", chart: "scaling" },
  { view: "durability", search: "?view=durability", chart: "durability-throughput" },
  { view: "sweeps", search: "?view=sweeps", chart: "sweeps-throughput" },
  { view: "latency", search: "?view=latency&run=bench-5", chart: "latency-spectrum" },
  { view: "timeseries", search: "?view=timeseries&run=web-histogram-a", chart: "timeseries" },
  { view: "repeatability", search: "?view=repeatability", chart: "repeatability" },
  { view: "study", search: "?view=study&seed=004", chart: "study-004-p99-a-READ" },
  { view: "study", search: "?view=study&seed=002", chart: "study-002-throughput-a" },
];

/** A view's first chart and how long the API took to answer the requests made before it (the rest is the page's). */
interface Timed {
  ms: number;
  apiMs: number;
}

/** Milliseconds the API requests of this page load spent in flight up to `until` (overlaps counted once). */
function apiTime(spans: readonly { start: number; end: number }[], until: number): number {
  let total = 0;
  let reached = 0;
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    const [from, to] = [Math.max(s.start, reached), Math.min(s.end, until)];
    if (to > from) total += to - from;
    reached = Math.max(reached, to);
  }
  return total;
}

async function timeToFirstChart(page: Page, url: string, view: string, chart: string): Promise<Timed> {
  const spans: { start: number; end: number }[] = [];
  const started = new Map<object, number>();
  const onRequest = (r: { url(): string }) => {
    if (r.url().includes("/api/")) started.set(r, performance.now());
  };
  const onFinished = (r: object) => {
    const start = started.get(r);
    if (start !== undefined) spans.push({ start, end: performance.now() });
  };
  page.on("request", onRequest);
  page.on("requestfinished", onFinished);
  page.on("requestfailed", onFinished);
  try {
    const t0 = performance.now();
    const ms = await untilFirstChart(page, url, view, chart);
    return { ms, apiMs: apiTime(spans, t0 + ms) };
  } finally {
    page.off("request", onRequest);
    page.off("requestfinished", onFinished);
    page.off("requestfailed", onFinished);
  }
}

async function untilFirstChart(page: Page, url: string, view: string, chart: string): Promise<number> {
  const t0 = performance.now();
  await page.goto(url);
  // The chart, or the view done without it (a default with nothing to draw): said, not waited on for minutes.
  await page.waitForFunction(
    ([id, v]) => !!window.__charts[id!] || document.body.dataset.ready === `${v}${location.search}`,
    [chart, view],
    { timeout: 300_000 },
  );
  const ms = performance.now() - t0;
  if (!(await page.evaluate((id) => !!window.__charts[id], chart))) {
    const said = await page.evaluate(() => document.querySelector(".message")?.textContent ?? "");
    throw new Error(`the view drew no ${chart}${said ? `: ${said.slice(0, 100)}` : ""}`);
  }
  await waitForView(page, view);
  return ms;
}

function manyRuns(template: ResultDocument, from: number, to: number): ResultDocument[] {
  const { statusSeries: _dropped, ...output } = template.result;
  return Array.from({ length: to - from }, (_, k) => {
    const i = from + k;
    const nodes = [1, 2, 4, 8, 16, 32][i % 6]!;
    return {
      ...template,
      run: {
        ...template.run,
        id: `bench-${i}`,
        scenario: SCENARIO,
        engine: ENGINES[i % ENGINES.length]!,
        preset: PRESETS[Math.floor(i / 4) % PRESETS.length]!,
        nodes,
        startedAt: new Date(Date.UTC(2025, 0, 1) + i * 3_600_000).toISOString(),
        finishedAt: undefined,
      },
      // Faster with more nodes: the same operations in less time (throughput x runtime stays the operations counted).
      result: {
        ...output,
        statusSeries: emptyStatusSeries(),
        overall: scaled(output.overall, nodes * (0.8 + ((i * 7919) % 400) / 1000)),
      },
    } as ResultDocument;
  });
}

function scaled(overall: { runtimeMs: number; throughputOpsSec: number }, factor: number) {
  return { runtimeMs: overall.runtimeMs / factor, throughputOpsSec: overall.throughputOpsSec * factor };
}

const fmt = (ms: number) => `${ms.toFixed(0)} ms`;
/** "412 ms (api 80)": the first chart, and the part of it the API requests were in flight. */
const show = (x: Timed | string | undefined) =>
  typeof x === "object" ? `${fmt(x.ms)} (api ${x.apiMs.toFixed(0)})` : String(x);
/** The machine's load: every figure is read beside it (1, 5 and 15 minutes). */
const load = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(", ")}`;
const name = (v: (typeof VIEWS)[number]) =>
  v.view === "study" ? `study ${new URLSearchParams(v.search).get("seed")}` : v.view;

/** Every view's first chart, each timed once; a view that draws nothing says why. */
async function timeEveryView(page: Page, base: string): Promise<(Timed | string)[]> {
  const out: (Timed | string)[] = [];
  for (const v of VIEWS) {
    try {
      const t = await timeToFirstChart(page, `${base}/${v.search}`, v.view, v.chart);
      out.push(t);
      process.stderr.write(`  ${name(v)}: ${show(t)}\n`);
    } catch (e) {
      out.push(`no chart (${(e as Error).message.split("\n")[0]})`);
    }
  }
  return out;
}

/** Kept rows of these groups ("c:<id>", "p:<id>"), to compare one recount with another. */
async function keptRows(api: RunningApi, ids: readonly string[]): Promise<string> {
  const c = ids.filter((id) => id.startsWith("c:")).map((id) => id.slice(2));
  const p = ids.filter((id) => id.startsWith("p:")).map((id) => id.slice(2));
  const rows = [
    await api.app.db.$queryRaw`SELECT * FROM configuration_aggregates WHERE id = ANY(${c}::text[]) ORDER BY id`,
    await api.app.db.$queryRaw`SELECT * FROM peak_aggregates WHERE id = ANY(${p}::text[]) ORDER BY id`,
  ];
  return JSON.stringify(rows);
}

/** The baseline: these groups recounted from all of their phases (refreshGroups naming no written phases). */
async function recountWhole(api: RunningApi, ids: readonly string[]): Promise<{ ms: number; same: boolean }> {
  const before = await keptRows(api, ids);
  const t0 = performance.now();
  const groups = {
    configurations: ids.filter((id) => id.startsWith("c:")).map((id) => id.slice(2)),
    peaks: ids.filter((id) => id.startsWith("p:")).map((id) => id.slice(2)),
  };
  await api.app.db.$transaction((tx) => refreshGroups(tx, groups), { timeout: 30 * 60_000, maxWait: 60_000 });
  const ms = performance.now() - t0;
  return { ms, same: (await keptRows(api, ids)) === before };
}

/**
 * Stores bench runs [from, to) through the store's own writer (ingestDocuments, batches of BATCH) into a database no
 * service reads yet, then recounts every kept group once from scratch (rebuild.ts), as a store opened after an
 * upgrade does: the same stored rows as POSTing them, without a recount per batch. Prints what it took.
 */
async function storeInBulk(database: Database, template: ResultDocument, from: number, to: number): Promise<void> {
  const t0 = performance.now();
  for (let i = from; i < to; i += BATCH) {
    await ingestDocuments(database.prisma, manyRuns(template, i, Math.min(to, i + BATCH)));
    if (Math.floor(Math.min(to, i + BATCH) / ANALYZE_EVERY) > Math.floor(i / ANALYZE_EVERY)) {
      // The planner would plan ingest's joins for near-empty tables (api/db/pglite-statistics.ts analyzes later).
      await database.prisma.$executeRawUnsafe("ANALYZE");
      process.stderr.write(
        `  ${Math.min(to, i + BATCH).toLocaleString("en-US")} runs stored, ${fmt(performance.now() - t0)}, ${load()}\n`,
      );
    }
  }
  const t1 = performance.now();
  await database.prisma.$executeRaw`DELETE FROM aggregate_versions WHERE name = 'groups'`;
  await rebuildAggregates(database.prisma);
  await database.prisma.$executeRawUnsafe("ANALYZE");
  console.log(
    `bulk path: ${(to - from).toLocaleString("en-US")} runs stored through the store's writer (ingestDocuments, ` +
      `batches of ${BATCH}, no service running) in ${fmt(t1 - t0)}, then every kept group rebuilt from scratch ` +
      `(rebuildAggregates) in ${fmt(performance.now() - t1)} (${load()})`,
  );
}

/** One more batch of BATCH runs written into a running service's store: its store, its recount and the baseline. */
async function oneBatch(api: RunningApi, template: ResultDocument, from: number): Promise<void> {
  const batch = manyRuns(template, from, from + BATCH);
  const ids = batch.map((d) => d.run.id);
  const t1 = performance.now();
  await ingestDocuments(api.app.db, batch);
  const t2 = performance.now();
  // The groups the batch touched, from its phases (the service's background round may have taken their marks).
  const touched = await api.app.db.$queryRaw<{ id: string }[]>`
    SELECT DISTINCT 'c:' || configuration_id AS id FROM phases WHERE configuration_id IS NOT NULL AND run_id = ANY(${ids})
    UNION SELECT DISTINCT 'p:' || peak_id FROM phases WHERE peak_id IS NOT NULL AND run_id = ANY(${ids}) ORDER BY id`;
  await settleAggregates(api.app.db);
  const t3 = performance.now();
  const whole = await recountWhole(
    api,
    touched.map((t) => t.id),
  );
  console.log(
    `  one more batch of ${BATCH} runs written beside the service: stored in ${fmt(t2 - t1)}, its ${touched.length} ` +
      `groups recounted in ${fmt(t3 - t2)} (from all their phases: ${fmt(whole.ms)}, ` +
      `${whole.same ? "the same rows" : "ROWS DIFFER"})`,
  );
}

/** Every view's first chart, cold (the first after a start and a write) and again, beside the baseline. */
async function timeAtSize(api: RunningApi, page: Page, size: number, base: (Timed | string)[]): Promise<void> {
  const cold = await timeEveryView(page, api.base);
  const warm = await timeEveryView(page, api.base);
  await screenshot(page, `bench-${size}-study-002`);
  const runs = await api.app.db.$queryRaw<
    { n: number }[]
  >`SELECT count(*)::int AS n FROM runs WHERE source_id = 'measured'`;
  console.log(
    `${Number(runs[0]!.n).toLocaleString("en-US")} measured runs, first chart of each view: cold (right after the ` +
      `service started and a write) / again (baseline); (api N): the ms its API requests were in flight before the ` +
      `chart (${load()}, ${new Date().toISOString()})`,
  );
  VIEWS.forEach((v, i) => {
    console.log(
      `  ${name(v).padEnd(14)} ${show(cold[i]).padStart(18)} / ${show(warm[i]).padStart(18)}   (${show(base[i])})`,
    );
  });
}

const seed = seedDocuments();
const template = seed.documents.find((d) => d.run.id === "web-histogram-a")!;
const session = await openBrowser();
try {
  // The baseline: the browser tests' runs, six of the bench's and every seed's published runs (from its tables).
  const small = await startApi();
  let base: (Timed | string)[];
  try {
    await loadReferenceData(small.database.prisma);
    await small.ingest(seed.documents);
    await ingestDocuments(small.app.db, manyRuns(template, 0, 6));
    await timeEveryView(session.page, small.base); // warm-up: JIT, caches
    base = await timeEveryView(session.page, small.base);
    console.log(`baseline, ${seed.runIds.length + 6} measured runs and the seeds' published ones (${load()}):`);
    VIEWS.forEach((v, i) => {
      console.log(`  ${name(v).padEnd(14)} ${show(base[i])}`);
    });
  } finally {
    await small.close();
  }
  for (const size of SIZES) {
    // Each size in a store of its own: the bench's runs in bulk before the service starts, then the browser tests'
    // runs through HTTP and one more batch through the writer beside the running service (so every view is cold).
    const api = await startApi({
      before: async (database) => {
        await loadReferenceData(database.prisma);
        await storeInBulk(database, template, 0, size - BATCH);
      },
    });
    try {
      await api.ingest(seed.documents);
      await oneBatch(api, template, size - BATCH);
      await timeAtSize(api, session.page, size, base);
    } finally {
      await api.close();
    }
  }
  if (session.errors.length) console.log(`browser errors: ${session.errors.join(" | ")}`);
} finally {
  await session.close();
}
