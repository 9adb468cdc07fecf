/**
 * Dashboard benchmark: time from navigation to the first drawn chart of every view (the ten in the navigation and a
 * study page), in headless Chromium against the real API (PGlite), first over the browser tests' runs (the baseline of
 * this very process), then with more runs stored: 10,000 and 100,000 unless told otherwise, each right after the
 * write (every cached answer recomputed) and again. The runs stored are one study's (usa-2015-durability), so its
 * page, durability, scaling and regressions read all of them. Per batch of 1,000 runs it prints the store time, the
 * recount of the groups the batch touched (from the phases it wrote and their kept state) and, as the baseline, the
 * same groups recounted from all of their phases (what every write cost before), and whether both kept the same rows.
 * Prints figures; asserts nothing about time.
 *
 *   npx tsx bench/web.ts [sizes=10000,100000]
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import type { ResultDocument } from "../model/result-document.js";

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
const { startApi } = await import("../test/web-api.js");
const { openBrowser, screenshot, waitForView } = await import("../test/web-browser.js");
const { seedDocuments } = await import("../test/web-seed.js");
const { loadReferenceData } = await import("../api/store/reference-data.js");
const { settleAggregates } = await import("../api/store/aggregates/settle.js");
const { refreshGroups } = await import("../api/store/aggregates/groups.js");

const SIZES = (process.argv[2] ?? "10000,100000").split(",").map(Number);
const BATCH = 1000;
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
async function keptRows(ids: readonly string[]): Promise<string> {
  const c = ids.filter((id) => id.startsWith("c:")).map((id) => id.slice(2));
  const p = ids.filter((id) => id.startsWith("p:")).map((id) => id.slice(2));
  const rows = [
    await api.app.db.$queryRaw`SELECT * FROM configuration_aggregates WHERE id = ANY(${c}::text[]) ORDER BY id`,
    await api.app.db.$queryRaw`SELECT * FROM peak_aggregates WHERE id = ANY(${p}::text[]) ORDER BY id`,
  ];
  return JSON.stringify(rows);
}

/** The baseline: these groups recounted from all of their phases (refreshGroups naming no written phases). */
async function recountWhole(ids: readonly string[]): Promise<{ ms: number; same: boolean }> {
  const before = await keptRows(ids);
  const t0 = performance.now();
  const groups = {
    configurations: ids.filter((id) => id.startsWith("c:")).map((id) => id.slice(2)),
    peaks: ids.filter((id) => id.startsWith("p:")).map((id) => id.slice(2)),
  };
  await api.app.db.$transaction((tx) => refreshGroups(tx, groups), { timeout: 30 * 60_000, maxWait: 60_000 });
  const ms = performance.now() - t0;
  return { ms, same: (await keptRows(ids)) === before };
}

const api = await startApi();
const session = await openBrowser();
try {
  const seed = seedDocuments();
  // Every seed's published runs from its tables (web-seed's Lineate runs would cite seed 002 unlike its source).
  await loadReferenceData(api.database.prisma);
  await api.ingest(seed.documents);
  const template = seed.documents.find((d) => d.run.id === "web-histogram-a")!;
  // Three runs of the study first, so compare and latency have their runs at every size.
  await ingestDocuments(api.app.db, manyRuns(template, 0, 6));
  let stored = 6;
  await timeEveryView(session.page, api.base); // warm-up: JIT, caches
  const base = await timeEveryView(session.page, api.base);
  console.log(`baseline, ${seed.runIds.length + 6} measured runs and the seeds' published ones (${load()}):`);
  VIEWS.forEach((v, i) => {
    console.log(`  ${name(v).padEnd(14)} ${show(base[i])}`);
  });
  for (const size of SIZES) {
    const t0 = performance.now();
    for (let i = stored; i < size; i += BATCH) {
      const t1 = performance.now();
      const batch = manyRuns(template, i, Math.min(size, i + BATCH));
      const ids = batch.map((d) => d.run.id);
      await ingestDocuments(api.app.db, batch);
      const t2 = performance.now();
      // The groups the batch touched, from its phases (the service's background round may have taken their marks).
      const touched = await api.app.db.$queryRaw<{ id: string }[]>`
        SELECT DISTINCT 'c:' || configuration_id AS id FROM phases WHERE configuration_id IS NOT NULL AND run_id = ANY(${ids})
        UNION SELECT DISTINCT 'p:' || peak_id FROM phases WHERE peak_id IS NOT NULL AND run_id = ANY(${ids}) ORDER BY id`;
      // The kept groups this batch marked dirty, recounted here so the figure says what storing costs at this size
      // (the service's background round would otherwise do it while the next batch waits for the connection).
      await settleAggregates(api.app.db);
      const t3 = performance.now();
      const whole = await recountWhole(touched.map((t) => t.id));
      process.stderr.write(
        `  ${Math.min(size, i + BATCH).toLocaleString("en-US")} runs: this batch stored in ${fmt(t2 - t1)}, ` +
          `its ${touched.length} groups recounted in ${fmt(t3 - t2)} (from all their phases: ${fmt(whole.ms)}, ` +
          `${whole.same ? "the same rows" : "ROWS DIFFER"})\n`,
      );
      // The owner of a PGlite store analyzes at most every 10 minutes after writes (api/db/pglite-statistics.ts); stored
      // in bulk faster than that, the planner kept planning ingest's joins for near-empty tables. So the bench analyzes
      // as it stores, every 10,000 runs (counted from the batch's end: the first batch starts past the runs above).
      if (Math.floor(Math.min(size, i + BATCH) / ANALYZE_EVERY) > Math.floor(i / ANALYZE_EVERY)) {
        await api.app.db.$executeRawUnsafe("ANALYZE");
        process.stderr.write(
          `  ${Math.min(size, i + BATCH).toLocaleString("en-US")} runs stored, ${fmt(performance.now() - t0)}, ${load()}\n`,
        );
      }
    }
    console.log(
      `stored ${(size - stored).toLocaleString("en-US")} more runs in ${fmt(performance.now() - t0)} (direct store, batches of ${BATCH})`,
    );
    stored = size;
    // The first view after a write computes every answer; the second may be served from caches: both are printed.
    const cold = await timeEveryView(session.page, api.base);
    const warm = await timeEveryView(session.page, api.base);
    await screenshot(session.page, `bench-${size}-study-002`);
    console.log(
      `${(size + seed.runIds.length).toLocaleString("en-US")} measured runs, first chart of each view: right after the write / ` +
        `again (baseline); (api N): the ms its API requests were in flight before the chart (${load()}, ${new Date().toISOString()})`,
    );
    VIEWS.forEach((v, i) => {
      console.log(
        `  ${name(v).padEnd(14)} ${show(cold[i]).padStart(18)} / ${show(warm[i]).padStart(18)}   (${show(base[i])})`,
      );
    });
  }
  if (session.errors.length) console.log(`browser errors: ${session.errors.join(" | ")}`);
} finally {
  await session.close();
  await api.close();
}
