import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadReferenceData, readSeedFile, type SeedFile } from "../../api/store/reference-data.js";
import { percentileSpectrum } from "../../model/aggregate/latency-distribution.js";
import { HdrMerger, mergeHdrLogs } from "../../model/hdr/index.js";
import { findThroughputDips } from "../../model/throughput-dips.js";
import { type RunningApi, startApi } from "./web-api.js";
import {
  type BrowserSession,
  chartAxis,
  chartIds,
  drawnSeries,
  openBrowser,
  screenshot,
  waitForView,
} from "./web-browser.js";
import {
  LINEATE_CASSANDRA_BALANCED,
  LINEATE_CASSANDRA_SCORE_PCT,
  LINEATE_CITATION,
  publishedDocuments,
  readFixture,
  SWEEP_THREADS,
  seedDocuments,
} from "./web-seed.js";

type Pt = { x: number; y: number };

// The dashboard against the real API and a seeded PGlite database, in headless Chromium.
describe("dashboard in Chromium against the API", () => {
  let api: RunningApi;
  let session: BrowserSession;
  const seed = seedDocuments();
  let seed004: SeedFile;

  beforeAll(async () => {
    api = await startApi();
    seed004 = await readSeedFile("004");
    await api.ingestPublished(publishedDocuments());
    await api.ingest(seed.documents);
    // Seed 004's tables: published p99 latencies per preset, no runs (the study published no throughput figures as text).
    await loadReferenceData(api.database.prisma, ["004"]);
    session = await openBrowser();
  });
  afterAll(async () => {
    await session?.close();
    await api?.close();
  });

  const open = async (search: string, view: string) => {
    await session.page.goto(`${api.base}/${search}`);
    await waitForView(session.page, view);
  };

  it("opens on the runs explorer: the landing chart spans the measured runs at their peak, published runs listed, verdicts visible", async () => {
    const { page } = session;
    await page.goto(`${api.base}/`);
    await waitForView(page, "runs");
    const series = await drawnSeries(page, "runs-throughput");
    // Published figures carry their studies' dates (2014): on one time axis with today's runs they pushed the measured
    // runs into one dot at the right edge. The landing chart is the measured runs, over their own span.
    expect(series.datasets.map((d) => d.label)).toEqual([
      "cassandra (measured)",
      "couchbase (measured)",
      "hbase (measured)",
      "mongodb (measured)",
    ]);
    const started = seed.documents.map((d) => Date.parse(d.run.startedAt));
    const x = await chartAxis(page, "runs-throughput", "x");
    const span = Math.max(...started) - Math.min(...started);
    expect(x.min).toBeLessThanOrEqual(Math.min(...started));
    expect(x.max).toBeGreaterThanOrEqual(Math.max(...started));
    // Chart.js rounds the ends to ticks: the axis stays within twice the runs' span, not the twelve years to 2014.
    expect(x.max - x.min).toBeLessThan(2 * span);
    // A run's point is its peak load level: the thread sweep at its highest throughput, not its first phase.
    const sweepPeak = Math.max(...seed.sweep.map((f) => f.output.overall.throughputOpsSec));
    const sweepPoint = (
      series.datasets.find((d) => d.label === "cassandra (measured)")!.data as (Pt & { id: string })[]
    ).find((p) => p.id === "web-sweep-a")!;
    expect(sweepPoint.y).toBeCloseTo(sweepPeak, 6);
    expect(await page.locator('tr[data-run-id="web-sweep-a"] td.num').nth(1).getAttribute("title")).toMatch(
      /peak phase a-t\d+/,
    );
    // Published runs are in the table, with their source.
    const rows = await page.locator("#runs-table tbody tr[data-run-id]").count();
    expect(rows).toBe(seed.runIds.length + LINEATE_CASSANDRA_BALANCED.length);
    // Seed 004 printed p99 tables only (no throughput): listed as rows of their own, engine by preset, linking its page.
    expect(await page.locator("#runs-table tbody tr[data-published-table]").count()).toBe(8);
    expect(await page.locator("#runs-table tbody tr.published[data-run-id]").count()).toBe(
      LINEATE_CASSANDRA_BALANCED.length,
    );
    expect(await page.locator('tr[data-run-id="web-failed-a"] td.verdict').textContent()).toBe("invalid");
    expect(await page.locator('tr[data-run-id="web-failed-a"] td.verdict').getAttribute("title")).toMatch(
      /operations failed/,
    );
    await screenshot(page, "runs");
  });

  it("filters by verdict and engine through the URL, and the permalink restores the view", async () => {
    const { page } = session;
    await open("?view=runs", "runs");
    await page.selectOption('select[name="verdict"]', "invalid");
    await page.waitForFunction(
      () => location.search.includes("verdict=invalid") && document.body.dataset.ready?.includes("verdict=invalid"),
    );
    expect(
      await page.locator("#runs-table tbody tr").evaluateAll((trs) => trs.map((t) => t.getAttribute("data-run-id"))),
    ).toEqual(["web-failed-a"]);
    await page.selectOption('select[name="verdict"]', "");
    await page.waitForFunction(() => !location.search.includes("verdict"));
    await page.selectOption('select[name="engine"]', "hbase");
    await page.waitForFunction(
      () => document.body.dataset.ready === `runs${location.search}` && location.search.includes("engine=hbase"),
    );
    const permalink = page.url();
    const ids = await page
      .locator("#runs-table tbody tr")
      .evaluateAll((trs) => trs.map((t) => t.getAttribute("data-run-id")).sort());
    expect(ids).toEqual(["web-scale-n2", "web-scale-n4", "web-scale-n8"]);
    // The chart updated in place: one dataset, the three hbase runs.
    const series = await drawnSeries(page, "runs-throughput");
    expect(series.datasets.map((d) => d.data.length)).toEqual([3]);
    // Back restores the previous state; the permalink in a fresh load restores the filter.
    await page.goBack();
    await page.waitForFunction(
      () => !location.search.includes("engine=hbase") && document.body.dataset.ready === `runs${location.search}`,
    );
    expect(await page.locator("#runs-table tbody tr").count()).toBeGreaterThan(3);
    await page.goto(permalink);
    await waitForView(page, "runs");
    expect(await page.locator('select[name="engine"]').inputValue()).toBe("hbase");
    expect(await page.locator("#runs-table tbody tr").count()).toBe(3);
  });

  it("compares chosen runs: throughput and p50 to p99.99 per operation", async () => {
    const { page } = session;
    await open("?view=runs&engine=mongodb", "runs");
    await page.check('input[data-run="web-repeat-r0"]');
    await page.waitForFunction(() => location.search.includes("selected="));
    await page.check('input[data-run="web-repeat-r1"]');
    await page.waitForFunction(() => decodeURIComponent(location.search).includes("web-repeat-r0,web-repeat-r1"));
    await page.click('button[data-action="compare"]');
    await waitForView(page, "compare");
    expect(new URL(page.url()).searchParams.get("runs")).toBe("web-repeat-r0,web-repeat-r1");
    // One configuration run twice (run repeats 0 and 1): pooled as its repeats, the mean of both with n = 2.
    const [r0, r1] = ["web-repeat-r0", "web-repeat-r1"].map((id) =>
      seed.documents.filter((d) => d.run.id === id).reduce((a, d) => a + d.result.overall.throughputOpsSec, 0),
    );
    const pooled = await drawnSeries(page, "compare-throughput");
    expect(pooled.datasets[0]!.data).toHaveLength(1);
    expect(pooled.datasets[0]!.data[0]).toBeCloseTo((r0! + r1!) / 2, 6);
    // Each its own when asked.
    await open("?view=compare&runs=web-repeat-r0,web-repeat-r1&pool=off", "compare");
    const throughput = await drawnSeries(page, "compare-throughput");
    expect(throughput.datasets[0]!.data[0]).toBeCloseTo(r0!, 6);
    const latency = await drawnSeries(page, "compare-latency");
    expect(latency.labels).toEqual([
      "READ p50",
      "READ p95",
      "READ p99",
      "READ p99.9",
      "READ p99.99",
      "UPDATE p50",
      "UPDATE p95",
      "UPDATE p99",
      "UPDATE p99.9",
      "UPDATE p99.99",
    ]);
    // Two clients whose documents carry their HDR histograms: p99.9 of the merge, drawn in ms, not a client's own.
    const logs = [0, 1].map((c) => ({
      client: `c${c}`,
      operation: "READ",
      text: readFileSync(new URL(`../fixtures/ycsb/hdr-v2/client-${c}/READ.hdr`, import.meta.url), "utf8"),
    }));
    const p999 = mergeHdrLogs(logs, { percentiles: [99.9] }).operations.READ!.percentilesUs["99.9"]! / 1000;
    expect(latency.datasets[1]!.data[3]).toBeCloseTo(p999, 9);
    await screenshot(page, "compare");
  });

  it("scaling: throughput against nodes, ideal-linear line, and seed 002's score for the published series", async () => {
    const { page } = session;
    await open("?view=scaling&workload=a", "scaling");
    const s = await drawnSeries(page, "scaling");
    const hbase = s.datasets.find((d) => d.label.startsWith("hbase (stand-in)"))!;
    const expected = ["web-scale-n2", "web-scale-n4", "web-scale-n8"].map(
      (id) => seed.documents.find((d) => d.run.id === id)!,
    );
    expect((hbase.data as Pt[]).map((p) => p.x)).toEqual([2, 4, 8]);
    for (const [i, p] of (hbase.data as Pt[]).entries())
      expect(p.y).toBeCloseTo(expected[i]!.result.overall.throughputOpsSec, 6);
    const ideal = s.datasets.find((d) => d.label === `ideal linear: ${hbase.label}`)!;
    expect((ideal.data as Pt[]).map((p) => p.y / (hbase.data as Pt[])[0]!.y)).toEqual([1, 2, 4]);
    const published = s.datasets.find((d) => d.label.includes(LINEATE_CITATION))!;
    expect((published.data as Pt[]).map((p) => p.y)).toEqual(LINEATE_CASSANDRA_BALANCED.map((p) => p.throughputOpsSec));
    const score = await page.locator(`tr[data-series="${published.label}"] td[data-score]`).getAttribute("data-score");
    expect(Number(score)).toBeCloseTo(LINEATE_CASSANDRA_SCORE_PCT, 1);
    await screenshot(page, "scaling");
  });

  it("durability: throughput and p99 per preset per engine", async () => {
    const { page } = session;
    // Seed 004's published p99 UPDATE latencies of workload A, from its tables, on its own scenario's page of the view.
    await open("?view=durability&scenario=usa-2015-durability&workload=a&op=UPDATE", "durability");
    const withPublished = await drawnSeries(page, "durability-p99");
    const table = (preset: string) => seed004.tables.find((t) => t.id === `004-p99-a-${preset}`)!;
    const cassandraPublished = withPublished.datasets.find((d) =>
      d.label.startsWith("cassandra: United Software Associates"),
    )!;
    expect(cassandraPublished.data).toEqual(
      ["throughput", "balanced", "durable"].map((preset) =>
        Number(String(table(preset).rows.find((r) => r[0] === "Cassandra")![2]).replace("ms", "")),
      ),
    );
    const couchbasePublished = withPublished.datasets.find((d) =>
      d.label.startsWith("couchbase: United Software Associates"),
    )!;
    // Couchbase has no balanced configuration in seed 004: no bar there.
    expect(couchbasePublished.data).toEqual([3, null, 203]);
    expect(withPublished.datasets.some((d) => d.label.includes("(stand-in)"))).toBe(false);
    // The measured runs' scenario is the default: the one with the most presets and runs.
    await open("?view=durability&workload=a&op=UPDATE", "durability");
    expect(await page.locator('select[data-filter="scenario"]').inputValue()).toBe("web-test");
    const t = await drawnSeries(page, "durability-throughput");
    expect(t.labels).toEqual(["throughput", "balanced", "durable"]);
    const couchbase = t.datasets.find((d) => d.label === "couchbase (stand-in)")!;
    const tp = (id: string) => seed.documents.find((d) => d.run.id === id)!.result.overall.throughputOpsSec;
    expect(couchbase.data.map(Number).map((v) => Math.round(v))).toEqual(
      ["web-dur-throughput", "web-dur-balanced", "web-dur-durable"].map((id) => Math.round(tp(id))),
    );
    const p99 = await drawnSeries(page, "durability-p99");
    const cb = p99.datasets.find((d) => d.label === "couchbase (stand-in)")!;
    const p99Of = (id: string) =>
      seed.documents.find((d) => d.run.id === id)!.result.operations.UPDATE!.percentilesUs["99"]! / 1000;
    expect(cb.data).toEqual(["web-dur-throughput", "web-dur-balanced", "web-dur-durable"].map(p99Of));
    // Cassandra balanced at 1 node is the thread sweep web-sweep-a: the bar is its peak phase, not the sweep's mean.
    const sweepPeak = Math.max(...seed.sweep.map((f) => f.output.overall.throughputOpsSec));
    const cassandra = t.datasets.find((d) => d.label === "cassandra (stand-in)")!;
    expect(Number(cassandra.data[1])).toBeCloseTo(sweepPeak, 6);
    const atPeak =
      seed.sweep.find((f) => f.output.overall.throughputOpsSec === sweepPeak)!.output.operations.UPDATE!.percentilesUs[
        "99"
      ]! / 1000;
    expect(p99.datasets.find((d) => d.label === "cassandra (stand-in)")!.data[1]).toBe(atPeak);
    expect(await page.locator('select[data-filter="nodes"]').inputValue()).toBe("1");
    // Without a workload in the URL the view shows workload A, never bars of several workloads mixed.
    await open("?view=durability", "durability");
    expect(await page.locator('select[data-filter="workload"]').inputValue()).toBe("a");
    expect(
      (await drawnSeries(page, "durability-throughput")).datasets
        .find((d) => d.label === "couchbase (stand-in)")!
        .data.map(Number)
        .map(Math.round),
    ).toEqual(couchbase.data.map(Number).map(Math.round));
    await open("?view=durability&workload=a&op=UPDATE", "durability");
    await screenshot(page, "durability");
  });

  it("sweeps: runtime and throughput against threads, p99 against throughput with the knee", async () => {
    const { page } = session;
    await open("?view=sweeps&engine=cassandra", "sweeps");
    const runtime = await drawnSeries(page, "sweeps-runtime");
    const sweep = runtime.datasets.find((d) => d.label.includes("web-sweep-a"))!;
    expect((sweep.data as Pt[]).map((p) => p.x)).toEqual([...SWEEP_THREADS]);
    expect((sweep.data as Pt[]).map((p) => p.y)).toEqual(seed.sweep.map((f) => f.output.overall.runtimeMs / 1000));
    const throughput = await drawnSeries(page, "sweeps-throughput");
    expect((throughput.datasets.find((d) => d.label.includes("web-sweep-a"))!.data as Pt[]).map((p) => p.y)).toEqual(
      seed.sweep.map((f) => f.output.overall.throughputOpsSec),
    );
    const knee = await drawnSeries(page, "sweeps-knee");
    const mark = knee.datasets.find((d) => d.label.startsWith("knee:") && d.label.includes("web-sweep-a"))!;
    expect(mark.data).toHaveLength(1);
    const curve = knee.datasets.find((d) => !d.label.startsWith("knee:") && d.label.includes("web-sweep-a"))!;
    // The knee is one of the drawn sweep points, and below the sweep's highest p99.
    const kp = mark.data[0] as Pt;
    expect((curve.data as Pt[]).some((p) => p.x === kp.x && p.y === kp.y)).toBe(true);
    expect(kp.y).toBeLessThan(Math.max(...(curve.data as Pt[]).map((p) => p.y)));
    await screenshot(page, "sweeps");
  });

  it("latency distribution: HDR percentile spectrum and the histogram of a measurementtype=histogram run", async () => {
    const { page } = session;
    await open("?view=latency&run=web-histogram-a", "latency");
    const spectrum = await drawnSeries(page, "latency-spectrum");
    const read = spectrum.datasets.find((d) => d.label === "READ")!;
    // measurementtype=histogram prints p95 and p99 only: 1/(1-p) = 20 and 100.
    const printed = readFixture("web/histogram-a").output.operations.READ!.percentilesUs;
    expect(Object.keys(printed).sort()).toEqual(["95", "99"]);
    expect((read.data as Pt[]).map((p) => Math.round(p.x))).toEqual([20, 100]);
    expect((read.data as Pt[]).map((p) => p.y)).toEqual([printed["95"]! / 1000, printed["99"]! / 1000]);
    const histogram = await drawnSeries(page, "latency-histogram");
    const update = histogram.datasets.find((d) => d.label === "UPDATE")!;
    const fixture = readFixture("web/histogram-a").output.operations.UPDATE!;
    expect((update.data as Pt[]).reduce((a, p) => a + p.y, 0)).toBe(
      fixture.histogramBuckets!.reduce((a, b) => a + b.count, 0),
    );
    await screenshot(page, "latency");
  });

  it("latency distribution of a run with HDR histograms: the merged spectrum and 1 ms buckets of both clients", async () => {
    const { page } = session;
    await open("?view=latency&run=web-repeat-r0&op=READ", "latency");
    const merger = new HdrMerger();
    for (const c of [0, 1])
      merger.addLog({
        client: `c${c}`,
        operation: "READ",
        text: readFileSync(new URL(`../fixtures/ycsb/hdr-v1/client-${c}/READ.hdr`, import.meta.url), "utf8"),
      });
    merger.result();
    const merged = merger.histogram("READ")!;
    const spectrum = await drawnSeries(page, "latency-spectrum");
    const read = spectrum.datasets.find((d) => d.label === "READ")!;
    const expected = percentileSpectrum(merged);
    expect((read.data as Pt[]).map((p) => p.y)).toEqual(expected.map((q) => q.valueUs / 1000));
    expect(read.data.length).toBeGreaterThan(20);
    const histogram = await drawnSeries(page, "latency-histogram");
    const bars = histogram.datasets.find((d) => d.label === "READ")!;
    expect((bars.data as Pt[]).reduce((a, p) => a + p.y, 0)).toBe(merged.totalCount);
    expect(merged.totalCount).toBe(
      seed.documents
        .filter((d) => d.run.id === "web-repeat-r0")
        .reduce((a, d) => a + d.result.operations.READ!.count, 0),
    );
    await screenshot(page, "latency-hdr");
  });

  it("phase time series: ops/s per client from the status lines, dips marked", async () => {
    const { page } = session;
    await open("?view=timeseries&run=web-repeat-r1", "timeseries");
    const ts = await drawnSeries(page, "timeseries");
    const clients = ts.datasets.filter((d) => d.label.startsWith("client "));
    expect(clients.map((d) => d.label)).toEqual(["client 0", "client 1"]);
    const expected = readFixture("ycsb/hdr-v2/client-1").output.statusSeries;
    const drawn = expected.opsPerSec.flatMap((y, i) => (y === null ? [] : [{ x: expected.elapsedSec[i], y }]));
    expect(drawn.length).toBeGreaterThan(0);
    expect(clients[1]!.data as Pt[]).toEqual(drawn);
    // Dips are the runner's rule (model/throughput-dips.ts) applied to each client's series.
    const dips = [0, 1].flatMap((c) => {
      const s = readFixture(`ycsb/hdr-v2/client-${c}`).output.statusSeries;
      return findThroughputDips(s.elapsedSec, s.opsPerSec);
    });
    expect(ts.datasets[0]!.label).toBe(`dips (${dips.length})`);
    expect(ts.datasets[0]!.data).toHaveLength(dips.reduce((n, d) => n + d.lines.length, 0));
    await screenshot(page, "timeseries");
  });

  it("repeatability: every repeat's throughput and the spread", async () => {
    const { page } = session;
    await open("?view=repeatability&engine=mongodb", "repeatability");
    const r = await drawnSeries(page, "repeatability");
    const group = r.datasets.find(
      (d) => d.label.startsWith("mongodb ") && d.label.includes(" balanced 2n a · 4×2 threads"),
    )!;
    const perRun = ["web-repeat-r0", "web-repeat-r1"].map((id) =>
      seed.documents.filter((d) => d.run.id === id).reduce((a, d) => a + d.result.overall.throughputOpsSec, 0),
    );
    for (const [i, p] of (group.data as Pt[]).entries()) expect(p.y).toBeCloseTo(perRun[i]!, 6);
    const maxDiff = (Math.max(...perRun) - Math.min(...perRun)) / Math.min(...perRun);
    const cell = await page.locator('tr[data-group*=" balanced 2n a · 4×2 threads"] td').nth(6).textContent();
    expect(cell).toBe(`${(maxDiff * 100).toFixed(2)} %`);
    await screenshot(page, "repeatability");
  });

  it("exports each chart as PNG and as CSV", async () => {
    const { page } = session;
    await open("?view=scaling&workload=a", "scaling");
    const [csv] = await Promise.all([
      page.waitForEvent("download"),
      page.click('figure[data-chart-id="scaling"] button[data-export="csv"]'),
    ]);
    expect(csv.suggestedFilename()).toBe("scaling.csv");
    const text = readFileSync((await csv.path())!, "utf8");
    expect(text.split("\r\n")[0]).toBe("series,nodes,throughput_ops_sec,n,ci95_low,ci95_high,verdict");
    expect(text).toContain(`"cassandra: ${LINEATE_CITATION} · balanced",4,53896,1,,,valid`);
    const [png] = await Promise.all([
      page.waitForEvent("download"),
      page.click('figure[data-chart-id="scaling"] button[data-export="png"]'),
    ]);
    expect(png.suggestedFilename()).toBe("scaling.png");
    expect(
      readFileSync((await png.path())!)
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");
  });

  it("destroys a view's charts when leaving it, and shows a run after it is ingested", async () => {
    const { page } = session;
    await open("?view=durability&workload=a", "durability");
    // Cassandra's balanced sweep and its durable run share 8 threads: an equal load, drawn too.
    expect(await chartIds(page)).toEqual([
      "durability-equal-p99",
      "durability-equal-throughput",
      "durability-p99",
      "durability-throughput",
    ]);
    await page.click('#nav a[data-view="runs"]');
    await waitForView(page, "runs");
    expect(await chartIds(page)).toEqual(["runs-throughput"]);
    expect(await page.locator('tr[data-run-id="web-late-run"]').count()).toBe(0);
    const late = seed.documents
      .filter((d) => d.run.id === "web-histogram-a")
      .map((d) => ({ ...d, run: { ...d.run, id: "web-late-run" } }));
    await api.ingest(late);
    await page.reload();
    await waitForView(page, "runs");
    expect(await page.locator('tr[data-run-id="web-late-run"]').count()).toBe(1);
    expect(session.errors).toEqual([]);
  });
});
