/**
 * Dashboard benchmark: time from navigation to the first drawn chart of the runs explorer (and to a filter
 * applied), in headless Chromium against the real API, first over the browser tests' 25 runs (the baseline of
 * this very process), then with 10,000 more runs stored. Prints figures; asserts nothing about time.
 *
 *   npx tsx bench/web.ts [runs=10000]
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

const EXTRA_RUNS = Number(process.argv[2] ?? 10_000);
const BATCH = 500;

async function timeToFirstChart(page: Page, url: string): Promise<{ chartMs: number; rows: number }> {
  const t0 = performance.now();
  await page.goto(url);
  await waitForView(page, "runs");
  await page.waitForFunction(() => !!window.__charts["runs-throughput"]);
  const chartMs = performance.now() - t0;
  return { chartMs, rows: await page.locator("#runs-table tbody tr").count() };
}

async function timeToFilter(page: Page): Promise<number> {
  const t0 = performance.now();
  await page.selectOption('select[name="engine"]', "hbase");
  await page.waitForFunction(() => document.body.dataset.ready === `runs${location.search}` && location.search.includes("engine=hbase"));
  return performance.now() - t0;
}

function manyRuns(template: ResultDocument, n: number): ResultDocument[] {
  const { statusSeries: _dropped, ...output } = template.result;
  return Array.from({ length: n }, (_, i) => {
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
try {
  const seed = seedDocuments();
  await api.ingestPublished(publishedDocuments());
  await api.ingest(seed.documents);
  const url = `${api.base}/?view=runs`;
  await timeToFirstChart(session.page, url); // warm-up: JIT, caches
  const base = await timeToFirstChart(session.page, url);
  const baseFilter = await timeToFilter(session.page);

  const template = seed.documents.find((d) => d.run.id === "web-histogram-a")!;
  const docs = manyRuns(template, EXTRA_RUNS);
  const t0 = performance.now();
  for (let i = 0; i < docs.length; i += BATCH) await ingestDocuments(api.app.db, docs.slice(i, i + BATCH));
  const ingestMs = performance.now() - t0;

  const big = await timeToFirstChart(session.page, url);
  const bigFilter = await timeToFilter(session.page);
  await screenshot(session.page, "bench-10k-runs");
  const fmt = (ms: number) => `${ms.toFixed(0)} ms`;
  console.log(`stored ${EXTRA_RUNS} extra runs in ${fmt(ingestMs)} (direct store, batches of ${BATCH})`);
  console.log(`runs explorer, ${base.rows} table rows of ${seed.runIds.length + 3} runs: first chart ${fmt(base.chartMs)}, engine filter ${fmt(baseFilter)}`);
  console.log(`runs explorer, ${big.rows} table rows of ${EXTRA_RUNS + seed.runIds.length + 3} runs: first chart ${fmt(big.chartMs)}, engine filter ${fmt(bigFilter)}`);
  console.log(`ratio 10k / baseline: first chart ${(big.chartMs / base.chartMs).toFixed(1)}x, filter ${(bigFilter / baseFilter).toFixed(1)}x`);
  if (session.errors.length) console.log(`browser errors: ${session.errors.join(" | ")}`);
} finally {
  await session.close();
  await api.close();
}
