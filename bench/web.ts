/**
 * Dashboard benchmark: time from navigation to the first drawn chart of the runs explorer (and to a filter
 * applied), in headless Chromium against the real API (PGlite), first over the browser tests' runs (the baseline of
 * this very process), then with more runs stored: 10,000 and 100,000 unless told otherwise. Other views' first
 * charts are printed for context. Prints figures; asserts nothing about time.
 *
 *   npx tsx bench/web.ts [sizes=10000,100000]
 */
import type { Page } from "playwright-core";
import { ingestDocuments } from "../api/store/ingest.js";
import { ENGINES } from "../model/engine.js";
import { PRESETS } from "../model/presets.js";
import type { ResultDocument } from "../model/result-document.js";
import { emptyStatusSeries } from "../model/status-series.js";
import { startApi } from "../test/web-api.js";
import { openBrowser, screenshot, waitForView } from "../test/web-browser.js";
import { publishedDocuments, seedDocuments } from "../test/web-seed.js";

const SIZES = (process.argv[2] ?? "10000,100000").split(",").map(Number);
const BATCH = 1000;
const ANALYZE_EVERY = 10_000;
/** Other views, first chart each (context: their speed is the aggregate queries'). */
const OTHER_VIEWS = [
  { view: "scaling", search: "?view=scaling&workload=a", chart: "scaling" },
  { view: "durability", search: "?view=durability&scenario=web-test", chart: "durability-throughput" },
];

async function timeToFirstChart(page: Page, url: string, view = "runs", chart = "runs-throughput"): Promise<{ chartMs: number; rows: number }> {
  const t0 = performance.now();
  await page.goto(url);
  await page.waitForFunction((id) => !!window.__charts[id], chart, { timeout: 120_000 });
  const chartMs = performance.now() - t0;
  await waitForView(page, view);
  return { chartMs, rows: await page.locator("#runs-table tbody tr").count() };
}

async function timeToFilter(page: Page): Promise<number> {
  const t0 = performance.now();
  await page.selectOption('select[name="engine"]', "hbase");
  await page.waitForFunction(() => document.body.dataset.ready === `runs${location.search}` && location.search.includes("engine=hbase"));
  return performance.now() - t0;
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
        engine: ENGINES[i % ENGINES.length]!,
        preset: PRESETS[Math.floor(i / 4) % PRESETS.length]!,
        nodes,
        startedAt: new Date(Date.UTC(2025, 0, 1) + i * 3_600_000).toISOString(),
        finishedAt: undefined,
      },
      // Faster with more nodes: the same operations in less time (throughput x runtime stays the operations counted).
      result: { ...output, statusSeries: emptyStatusSeries(), overall: scaled(output.overall, nodes * (0.8 + ((i * 7919) % 400) / 1000)) },
    } as ResultDocument;
  });
}

function scaled(overall: { runtimeMs: number; throughputOpsSec: number }, factor: number) {
  return { runtimeMs: overall.runtimeMs / factor, throughputOpsSec: overall.throughputOpsSec * factor };
}

const api = await startApi();
const session = await openBrowser();
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;
try {
  const seed = seedDocuments();
  await api.ingestPublished(publishedDocuments());
  await api.ingest(seed.documents);
  const baseRuns = seed.runIds.length + 3;
  const url = `${api.base}/?view=runs`;
  await timeToFirstChart(session.page, url); // warm-up: JIT, caches
  const base = await timeToFirstChart(session.page, url);
  const baseFilter = await timeToFilter(session.page);
  const baseOthers: number[] = [];
  for (const o of OTHER_VIEWS) baseOthers.push((await timeToFirstChart(session.page, `${api.base}/${o.search}`, o.view, o.chart)).chartMs);
  console.log(`baseline, ${baseRuns} runs: runs explorer first chart ${fmt(base.chartMs)} (${base.rows} table rows), engine filter ${fmt(baseFilter)}; ` + OTHER_VIEWS.map((o, i) => `${o.view} ${fmt(baseOthers[i]!)}`).join(", "));

  const template = seed.documents.find((d) => d.run.id === "web-histogram-a")!;
  let stored = 0;
  for (const size of SIZES) {
    const t0 = performance.now();
    for (let i = stored; i < size; i += BATCH) {
      await ingestDocuments(api.app.db, manyRuns(template, i, Math.min(size, i + BATCH)));
      // The owner of a PGlite store analyzes at most every 10 minutes after writes (api/db/pglite-statistics.ts); stored
      // in bulk faster than that, the planner kept planning ingest's joins for near-empty tables and each batch scanned
      // every phase stored (30,000 runs in 40 min, slowing). So the bench analyzes as it stores, every 10,000 runs.
      if ((i + BATCH) % ANALYZE_EVERY === 0) {
        await api.app.db.$executeRawUnsafe("ANALYZE");
        process.stderr.write(`  ${(i + BATCH).toLocaleString("en-US")} runs stored, ${fmt(performance.now() - t0)}\n`);
      }
    }
    const ingestMs = performance.now() - t0;
    console.log(`stored ${(size - stored).toLocaleString("en-US")} more runs in ${fmt(ingestMs)} (direct store, batches of ${BATCH})`);
    stored = size;
    // The first view after a write computes every answer; the second may be served from caches: both are printed.
    const cold = await timeToFirstChart(session.page, url);
    const warm = await timeToFirstChart(session.page, url);
    const filter = await timeToFilter(session.page);
    await screenshot(session.page, `bench-${size}-runs`);
    const total = size + baseRuns;
    console.log(
      `${total.toLocaleString("en-US")} runs: runs explorer first chart ${fmt(cold.chartMs)} after the write, ${fmt(warm.chartMs)} again (${cold.rows} table rows, ${(warm.chartMs / base.chartMs).toFixed(1)}x the baseline), ` +
        `engine filter ${fmt(filter)} (${(filter / baseFilter).toFixed(1)}x)`,
    );
    // Context: the aggregate views over every run of one scenario (their speed is the aggregate queries').
    for (const [i, o] of OTHER_VIEWS.entries()) {
      try {
        const ms = (await timeToFirstChart(session.page, `${api.base}/${o.search}`, o.view, o.chart)).chartMs;
        console.log(`  ${o.view}: first chart ${fmt(ms)} (${(ms / baseOthers[i]!).toFixed(1)}x its baseline)`);
      } catch (e) {
        console.log(`  ${o.view}: no chart (${(e as Error).message.split("\n")[0]})`);
      }
    }
  }
  if (session.errors.length) console.log(`browser errors: ${session.errors.join(" | ")}`);
} finally {
  await session.close();
  await api.close();
}
