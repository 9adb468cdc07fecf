import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadReferenceData, readSeedFile } from "../../api/store/reference-data.js";
import { changeFrom } from "../../model/history.js";
import { axisType } from "../../web/src/scales.js";
import { minDeuteranopiaDistance } from "./colour-vision.js";
import { type RunningApi, startApi, TOKEN } from "./web-api.js";
import { type BrowserSession, chartAxis, drawnSeries, openBrowser, screenshot, waitForView } from "./web-browser.js";
import {
  BASELINE_SECOND_RUNS,
  baselineSecondRuns,
  DURABILITY_SCENARIO,
  decideDocuments,
  HISTORY,
  HISTORY_SCENARIO,
} from "./web-decide-seed.js";
import { publishedDocuments, readFixture, seedDocuments } from "./web-seed.js";

type Pt = { x: number; y: number };

// The views a team decides from (issue: right comparisons, regressions, baselines, study pages, for everyone), in
// headless Chromium against the real API over PGlite, with every seed's published data loaded. One server, one browser.
describe("dashboard views a team decides from, in Chromium", () => {
  let api: RunningApi;
  let session: BrowserSession;
  const seed = seedDocuments();
  const decide = decideDocuments();

  beforeAll(async () => {
    api = await startApi();
    await loadReferenceData(api.database.prisma);
    await api.ingestPublished(publishedDocuments());
    await api.ingest([...seed.documents, ...decide.documents]);
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
  const ready = (view: string, includes: string) =>
    session.page.waitForFunction(
      ([v, s]) => document.body.dataset.ready === `${v}${location.search}` && location.search.includes(s!),
      [view, includes],
    );
  const throughputOf = (fixture: string) => readFixture(fixture).output.overall.throughputOpsSec;

  it("durability: a scenario control, every preset at equal load, and the threads of each preset's peak", async () => {
    const { page } = session;
    await open("?view=durability&workload=a", "durability");
    const options = await page
      .locator('select[data-filter="scenario"] option')
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(options).toContain(DURABILITY_SCENARIO);
    await page.selectOption('select[data-filter="scenario"]', DURABILITY_SCENARIO);
    await ready("durability", `scenario=${DURABILITY_SCENARIO}`);
    // Only this scenario's runs: the couchbase runs of web-test are another comparison.
    const peak = await drawnSeries(page, "durability-throughput");
    expect(peak.datasets.map((d) => d.label)).toEqual(["cassandra (stand-in)"]);
    const best = (threads: number[]) => Math.max(...threads.map((t) => throughputOf(`web/sweep-a/t${t}`)));
    expect(peak.datasets[0]!.data.map(Number)).toEqual(
      [best([4, 8, 16, 32]), best([4, 8, 16, 32]), best([4, 8, 16])].map(
        (v) => expect.closeTo(v, 6) as unknown as number,
      ),
    );
    // The threads of each preset's peak are shown: durable never ran 32 threads.
    const peakThreads = async (preset: string) =>
      page.locator(`tr[data-cell="cassandra|${preset}"] td[data-peak-threads]`).getAttribute("data-peak-threads");
    const threadsOfBest = (threads: number[]) =>
      String(threads.find((t) => throughputOf(`web/sweep-a/t${t}`) === best(threads)));
    expect(await peakThreads("throughput")).toBe(threadsOfBest([4, 8, 16, 32]));
    expect(await peakThreads("durable")).toBe(threadsOfBest([4, 8, 16]));
    // Equal load: the highest thread count every preset ran (16), the same for all three, named on the chart.
    expect(await page.locator('select[data-filter="load"]').inputValue()).toBe("16");
    const equal = await drawnSeries(page, "durability-equal-throughput");
    expect(equal.datasets.map((d) => d.label)).toEqual(["cassandra (stand-in) at 16 threads"]);
    expect(equal.datasets[0]!.data).toEqual([16, 16, 16].map((t) => throughputOf(`web/sweep-a/t${t}`)));
    expect(
      await page.locator('figure[data-chart-id="durability-equal-throughput"] .chart-title').textContent(),
    ).toContain("equal load (16 threads)");
    await page.selectOption('select[data-filter="load"]', "4");
    await ready("durability", "load=4");
    expect((await drawnSeries(page, "durability-equal-throughput")).datasets[0]!.data).toEqual(
      [4, 4, 4].map((t) => throughputOf(`web/sweep-a/t${t}`)),
    );
    await screenshot(page, "decide-durability");
  });

  it("scaling: seed 002's score only where 4, 6 and 8 nodes exist, else the named 1→k efficiency; a log axis toggle", async () => {
    const { page } = session;
    await open("?view=scaling&workload=a&scenario=web-test", "scaling");
    const s = await drawnSeries(page, "scaling");
    const hbase = s.datasets.find((d) => d.label.startsWith("hbase (stand-in)"))!;
    const ys = (hbase.data as Pt[]).map((p) => p.y);
    const row = page.locator(`tr[data-series="${hbase.label}"]`);
    // 2, 4 and 8 nodes: no seed 002 score (it needs 4→6 and 4→8), the efficiency of each step from 2 nodes instead.
    expect(await row.locator("td[data-score]").getAttribute("data-score")).toBe("");
    expect(await row.locator("td[data-score]").textContent()).toBe("–");
    const expected = [4, 8].map((k, i) => `2-${k}:${(ys[i + 1]! / ys[0]! - 1) / (k / 2 - 1)}`);
    const efficiency = (await row.locator("td[data-efficiency]").getAttribute("data-efficiency"))!.split(" ");
    expect(efficiency.map((e) => e.split(":")[0])).toEqual(expected.map((e) => e.split(":")[0]));
    for (const [i, e] of efficiency.entries())
      expect(Number(e.split(":")[1])).toBeCloseTo(Number(expected[i]!.split(":")[1]), 9);
    expect(await page.locator("table.scores th").allTextContents()).toContain("scaling efficiency (1→k)");
    // The published 4/6/8-node series has its score.
    const published = s.datasets.find(
      (d) => !d.label.startsWith("ideal") && (d.data as Pt[]).map((p) => p.x).join() === "4,6,8",
    )!;
    const score = await page.evaluate(
      (label) =>
        Array.from(document.querySelectorAll<HTMLElement>("tr[data-series]"))
          .find((t) => t.dataset.series === label)
          ?.querySelector("td[data-score]")
          ?.getAttribute("data-score"),
      published.label,
    );
    expect(Number(score)).toBeGreaterThan(0);
    // The axis: auto picks log only beyond two decades; the control forces either, through the URL.
    const all = s.datasets.filter((d) => !d.label.startsWith("ideal")).flatMap((d) => (d.data as Pt[]).map((p) => p.y));
    expect((await chartAxis(page, "scaling", "y")).type).toBe(
      axisType("auto", all) === "logarithmic" ? "logarithmic" : "linear",
    );
    await page.selectOption('select[data-filter="scale"]', "log");
    await ready("scaling", "scale=log");
    expect((await chartAxis(page, "scaling", "y")).type).toBe("logarithmic");
    await page.selectOption('select[data-filter="scale"]', "linear");
    await ready("scaling", "scale=linear");
    expect((await chartAxis(page, "scaling", "y")).type).toBe("linear");
  });

  it("compare: a colour per run of one engine, p50 to p99.99, the peak phase unless one is chosen", async () => {
    const { page } = session;
    await open("?view=compare&runs=web-sweep-a,web-histogram-a", "compare");
    const latency = await drawnSeries(page, "compare-latency");
    expect(latency.datasets).toHaveLength(2);
    // Two cassandra runs: two colours.
    expect(latency.datasets[0]!.borderColor).not.toEqual(latency.datasets[1]!.borderColor);
    const throughput = await drawnSeries(page, "compare-throughput");
    const colours = throughput.datasets[0]!.backgroundColor as string[];
    expect(new Set(colours).size).toBe(2);
    // Every run is named on the axis, in full (none skipped, none cut to fit; long names in lines broken at spaces).
    const names = await page.evaluate(() =>
      window.__charts["compare-throughput"]!.scales.y!.ticks.map((t) =>
        Array.isArray(t.label) ? t.label.join(" ") : String(t.label),
      ),
    );
    expect(names).toEqual(throughput.labels.map(String));
    expect(names.map((n) => n.replace(/ \(.*\)$/, ""))).toEqual([
      expect.stringContaining("cassandra"),
      expect.stringContaining("cassandra"),
    ]);
    expect(latency.labels.filter((l) => String(l).startsWith("READ"))).toEqual([
      "READ p50",
      "READ p95",
      "READ p99",
      "READ p99.9",
      "READ p99.99",
    ]);
    // The sweep's bar is its peak (the highest of its thread counts), not its first phase (1 thread).
    const sweepPeak = Math.max(...seed.sweep.map((f) => f.output.overall.throughputOpsSec));
    expect(throughput.datasets[0]!.data[0]).toBeCloseTo(sweepPeak, 6);
    expect(sweepPeak).toBeGreaterThan(seed.sweep[0]!.output.overall.throughputOpsSec);
    expect(await page.locator('select[data-filter="phase"]').inputValue()).toBe("");
    await page.selectOption('select[data-filter="phase"]', "a-t8");
    await ready("compare", "phase=a-t8");
    expect((await drawnSeries(page, "compare-throughput")).datasets[0]!.data[0]).toBeCloseTo(
      throughputOf("web/sweep-a/t8"),
      6,
    );
    await screenshot(page, "decide-compare");
  });

  it("compare: the difference table says whether each change exceeds the run-to-run noise of the repeats", async () => {
    const { page } = session;
    await open("?view=compare&runs=web-noise-ref,web-noise-same,web-noise-faster", "compare");
    const cell = (run: string, attr: string) =>
      page.locator(`td[data-run="${run}"][data-metric="throughput (ops/s)"][${attr}]`).first();
    expect(await cell("web-noise-same", "data-verdict").getAttribute("data-verdict")).toBe("within noise");
    expect(await cell("web-noise-faster", "data-verdict").getAttribute("data-verdict")).toBe("exceeds noise");
    expect(await cell("web-noise-faster", "data-verdict").textContent()).toBe("better");
    const t = throughputOf("web/sweep-a/t16");
    const mean = (fs: number[]) => fs.reduce((a, f) => a + f * t, 0) / fs.length;
    expect(Number(await cell("web-noise-faster", "data-change").getAttribute("data-change"))).toBeCloseTo(
      changeFrom(mean([1, 1.02, 0.98]), mean([1.3, 1.32, 1.28]))!,
      9,
    );
    // Each run's throughput is a mean over its 3 repeats, with its CI drawn.
    const bars = await drawnSeries(page, "compare-throughput");
    expect(bars.datasets[0]!.errorBars!.every((b) => b !== null && b.low < b.high)).toBe(true);
  });

  it("regressions: the planted drop is flagged at its version change, annotated 5.0.4 → 5.0.5", async () => {
    const { page } = session;
    await open(`?view=regressions&scenario=${HISTORY_SCENARIO}`, "regressions");
    const rows = page.locator("table.changes tbody tr");
    expect(await rows.count()).toBe(1);
    expect(await rows.first().locator("td").nth(2).textContent()).toBe("regression");
    expect(await rows.first().locator("td").nth(3).textContent()).toBe(`${HISTORY.before} → ${HISTORY.after}`);
    expect(await rows.first().locator("td").nth(4).textContent()).toBe(decide.historyIds[HISTORY.changeAt]);
    const change = Number(await rows.first().locator("td[data-value]").getAttribute("data-value"));
    expect(change).toBeLessThan(-0.08);
    expect(change).toBeGreaterThan(-0.16);
    const chart = await drawnSeries(page, "regressions-0");
    const runs = chart.datasets[0]!.data as (Pt & { id: string })[];
    expect(runs.map((p) => p.id)).toEqual(decide.historyIds);
    for (const [i, p] of runs.entries()) expect(p.y).toBeCloseTo(decide.historyThroughput[i]!, 6);
    const mark = chart.datasets.find((d) => d.label.startsWith("regression at run"))!;
    expect(mark.label).toContain(`${HISTORY.before} → ${HISTORY.after}`);
    expect((mark.data as Pt[])[0]!.x).toBe(HISTORY.changeAt - 0.5);
    // The x axis names each run's version.
    const ticks = await page.evaluate(() =>
      window.__charts["regressions-0"]!.scales.x!.ticks.map((t) => String(t.label)),
    );
    expect(ticks.filter((l) => l.startsWith(HISTORY.before)).length).toBeGreaterThan(0);
    expect(ticks.filter((l) => l.startsWith(HISTORY.after)).length).toBeGreaterThan(0);
    await screenshot(page, "decide-regressions");
  });

  it("baseline: a pinned run is marked, and the runs table, regressions and compare show the difference to it", async () => {
    const { page } = session;
    const baseline = decide.historyIds[1]!;
    const pin = await api.app.inject({
      method: "PUT",
      url: `/api/v1/baselines/${baseline}`,
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(pin.statusCode, pin.body).toBe(200);
    await open(`?view=runs&scenario=${HISTORY_SCENARIO}`, "runs");
    const base = decide.historyThroughput[1]!;
    expect(await page.locator(`tr[data-run-id="${baseline}"] td[data-baseline]`).getAttribute("data-baseline")).toBe(
      "self",
    );
    for (const i of [0, 7, 11]) {
      const cell = page.locator(`tr[data-run-id="${decide.historyIds[i]}"] td[data-baseline]`);
      expect(Number(await cell.getAttribute("data-baseline"))).toBeCloseTo(
        changeFrom(base, decide.historyThroughput[i])!,
        9,
      );
      expect(await cell.textContent()).toMatch(/^[+-]\d+\.\d %$/);
    }
    // Runs of a configuration without a baseline say so.
    await open("?view=runs&engine=hbase", "runs");
    const none = page.locator('tr[data-run-id="web-scale-n2"] td[data-baseline]');
    expect([await none.getAttribute("data-baseline"), await none.textContent()]).toEqual(["none", "–"]);
    await open(`?view=regressions&scenario=${HISTORY_SCENARIO}`, "regressions");
    const line = (await drawnSeries(page, "regressions-0")).datasets.find((d) => d.label === `baseline ${baseline}`)!;
    expect((line.data as Pt[]).map((p) => p.y)).toEqual(
      [base, base].map((v) => expect.closeTo(v, 6) as unknown as number),
    );
    // Compare takes the baseline as the reference when it is among the runs, whatever their order.
    await open(`?view=compare&runs=${decide.historyIds[10]},${baseline}`, "compare");
    expect(await page.locator('select[data-filter="ref"]').inputValue()).toBe(baseline);
    const d = page.locator(`td[data-run="${decide.historyIds[10]}"][data-metric="throughput (ops/s)"][data-change]`);
    expect(Number(await d.getAttribute("data-change"))).toBeCloseTo(changeFrom(base, decide.historyThroughput[10])!, 9);
    const unpin = await api.app.inject({
      method: "DELETE",
      url: `/api/v1/baselines/${baseline}`,
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(unpin.statusCode).toBe(200);
  });

  it("baseline: scaling, durability and sweeps show each configuration's difference to its pinned run", async () => {
    const { page } = session;
    const pin = async (runId: string) => {
      const r = await api.app.inject({
        method: "PUT",
        url: `/api/v1/baselines/${runId}`,
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(r.statusCode, r.body).toBe(200);
    };
    const { scaling, sweeps } = BASELINE_SECOND_RUNS;
    await api.ingest(baselineSecondRuns());
    for (const id of [scaling.pinned, sweeps.pinned, decide.historyIds[1]!]) await pin(id);
    // Scaling: hbase at 4 nodes is now the mean of the pinned run and one at 1.2x: +10 % against the baseline.
    await open("?view=scaling&workload=a&scenario=web-test", "scaling");
    const s = await drawnSeries(page, "scaling");
    const hbase = s.datasets.find((d) => d.label.startsWith("hbase (stand-in)"))!;
    const base4 = throughputOf("web/sweep-a/t8");
    const cross = s.datasets.find((d) => d.label === `baseline ${scaling.pinned}`)!;
    expect(cross.data).toEqual([{ x: 4, y: expect.closeTo(base4, 6) }]);
    const at4 = (hbase.data as Pt[]).find((p) => p.x === 4)!.y;
    expect(at4).toBeCloseTo((base4 * (1 + scaling.factor)) / 2, 6);
    const cell = page.locator(`tr[data-series="${hbase.label}"] td[data-baseline]`);
    const [nodes, change] = (await cell.getAttribute("data-baseline"))!.split(":");
    expect([nodes, Number(change)]).toEqual(["4", expect.closeTo((scaling.factor - 1) / 2, 9)]);
    expect(await cell.textContent()).toBe("4n: +10.0 %");
    // Durability: the history configuration's preset at its peak (mean of 12 runs) against its pinned run 1.
    await open(`?view=durability&scenario=${HISTORY_SCENARIO}&workload=a`, "durability");
    const mean = decide.historyThroughput.reduce((a, b) => a + b, 0) / decide.historyThroughput.length;
    const durability = page.locator('tr[data-cell="cassandra|balanced"] td[data-baseline]');
    expect(Number(await durability.getAttribute("data-baseline"))).toBeCloseTo(
      changeFrom(decide.historyThroughput[1], mean)!,
      9,
    );
    // Sweeps: the balanced sweep is the mean of its pinned run and one at 0.9x (-5 % at every level, so at the peak),
    // drawn against a dashed level at the baseline's peak; another preset's series has no baseline.
    await open(`?view=sweeps&scenario=${DURABILITY_SCENARIO}&workload=a`, "sweeps");
    const peak = Math.max(...[4, 8, 16, 32].map((t) => throughputOf(`web/sweep-a/t${t}`)));
    const level = (await drawnSeries(page, "sweeps-throughput")).datasets.find(
      (d) => d.label === `baseline ${sweeps.pinned}`,
    )!;
    expect((level.data as Pt[]).map((p) => [p.x, p.y])).toEqual([
      [4, expect.closeTo(peak, 6)],
      [32, expect.closeTo(peak, 6)],
    ]);
    const rows = page.locator("table.sweep-peaks tbody tr");
    const changes = await rows.evaluateAll((trs) =>
      trs.map((tr) => [
        tr.getAttribute("data-series"),
        tr.querySelector("td[data-baseline]")!.getAttribute("data-baseline"),
      ]),
    );
    const balanced = changes.filter(([label]) => label!.includes("balanced"));
    expect(balanced).toHaveLength(1);
    expect(Number(balanced[0]![1])).toBeCloseTo((1 + sweeps.factor) / 2 - 1, 9);
    expect(changes.filter(([label]) => label!.includes("durable")).map(([, c]) => c)).toEqual(["none"]);
    await screenshot(page, "decide-baseline-sweeps");
    for (const id of [scaling.pinned, sweeps.pinned, decide.historyIds[1]!])
      await api.app.inject({
        method: "DELETE",
        url: `/api/v1/baselines/${id}`,
        headers: { authorization: `Bearer ${TOKEN}` },
      });
  });

  it("study pages: one per seed, with seed 002's score, seed 003's ANOVA and seed 004's p99 table", async () => {
    const { page } = session;
    for (const s of ["000", "001", "002", "003", "004"]) {
      await open(`?view=study&seed=${s}`, "study");
      const file = await readSeedFile(s);
      expect(await page.locator(`.study-citation[data-seed="${s}"]`).textContent()).toBe(file.citation.text);
      const charts = await page.evaluate(() => Object.keys(window.__charts));
      expect(charts.filter((id) => id.startsWith(`study-${s}-`)).length, `seed ${s}`).toBeGreaterThan(0);
      expect(await page.locator("details.reference-table").count()).toBe(file.tables.length);
    }
    // Seed 002: the score recomputed from the paper's throughput table, for its published series at 4, 6 and 8 nodes.
    await open("?view=study&seed=002", "study");
    const scores = await page
      .locator('tr[data-score-series$="|published"] td[data-score]')
      .evaluateAll((tds) => tds.map((t) => t.getAttribute("data-score")));
    expect(scores.length).toBeGreaterThan(0);
    expect(scores.every((v) => Number(v) > 0)).toBe(true);
    // Seed 003: Table 9's two-way ANOVA of the published runtimes, with the printed F beside the recomputed one.
    await open("?view=study&seed=003", "study");
    const anova = page.locator('table.anova[data-anova^="published|"]');
    expect(await anova.count()).toBeGreaterThan(0);
    expect(await anova.first().locator("th").allTextContents()).toContain("printed F");
    expect(await anova.first().locator("tbody tr").count()).toBeGreaterThanOrEqual(3);
    // Seed 004: the p99 table, each published cell as printed.
    await open("?view=study&seed=004", "study");
    const file = await readSeedFile("004");
    const table = file.tables.find((t) => t.id === "004-p99-a-throughput")!;
    const printed = String(table.rows.find((r) => r[0] === "Cassandra")![2]);
    const operation = (table.derive as { operations: Record<string, string> }).operations[table.columns[2]!];
    const row = page.locator(`tr[data-p99="a|throughput|cassandra|${operation}"]`);
    expect(await row.locator("td").nth(4).textContent()).toBe(printed);
    expect(await page.locator("table.p99 tbody tr").count()).toBeGreaterThan(4);
    await screenshot(page, "decide-study-004");
  });

  it("repeatability: x-axis labels name the version and operation count, so 5.0.4 and 5.0.5 are two configurations", async () => {
    const { page } = session;
    await open(`?view=repeatability&scenario=${HISTORY_SCENARIO}`, "repeatability");
    const ticks = await page.evaluate(() => window.__charts.repeatability!.scales.x!.ticks.map((t) => String(t.label)));
    const ops = HISTORY.operationCount.toLocaleString("en-US");
    expect(ticks).toHaveLength(2);
    expect(ticks.some((l) => l.includes(HISTORY.before) && l.includes(`${ops} ops`))).toBe(true);
    expect(ticks.some((l) => l.includes(HISTORY.after) && l.includes(`${ops} ops`))).toBe(true);
    expect(new Set(ticks).size).toBe(2);
  });

  it("compare: no run's label is cut at the chart's edge (7 runs, published ones with their citation; desktop and 390 px)", async () => {
    const { page } = session;
    const published = await api.app.inject({ method: "GET", url: "/api/v1/runs?source=published&limit=2" });
    const publishedIds = (published.json() as { runs: { id: string }[] }).runs.map((r) => r.id);
    expect(publishedIds).toHaveLength(2);
    const ids = [...decide.historyIds.slice(0, 5), ...publishedIds];
    // Every tick label and legend item of a chart, as drawn: its horizontal extent on the canvas (CSS pixels).
    const extents = (id: string) =>
      page.evaluate((chartId) => {
        const c = window.__charts[chartId]!;
        const out: { where: string; label: string; left: number; right: number; width: number }[] = [];
        for (const [axis, scale] of Object.entries(c.scales)) {
          for (const item of scale.getLabelItems()) {
            const o = item.options as { translation: [number, number]; rotation: number; textAlign: string };
            c.ctx.save();
            c.ctx.font = (item as unknown as { font: { string: string } }).font.string;
            const lines = Array.isArray(item.label) ? item.label.map(String) : [String(item.label)];
            const w = Math.max(...lines.map((l) => c.ctx.measureText(l).width)) * Math.abs(Math.cos(o.rotation));
            c.ctx.restore();
            const x = o.translation[0];
            const left = o.textAlign === "right" ? x - w : o.textAlign === "center" ? x - w / 2 : x;
            out.push({ where: `axis ${axis}`, label: lines.join(" "), left, right: left + w, width: c.width });
          }
        }
        // Chart.js keeps the legend items' boxes as they are drawn (not in its typings).
        for (const box of (c.legend as unknown as { legendHitBoxes?: { left: number; width: number }[] } | undefined)
          ?.legendHitBoxes ?? [])
          out.push({ where: "legend", label: "", left: box.left, right: box.left + box.width, width: c.width });
        return out;
      }, id);
    for (const width of [1400, 390]) {
      await page.setViewportSize({ width, height: 900 });
      try {
        await open(`?view=compare&runs=${ids.join(",")}`, "compare");
        const t = await extents("compare-throughput");
        // Every run is on the axis, and none of the labels runs past either edge of the canvas.
        expect(t.filter((e) => e.where === "axis y")).toHaveLength(7);
        for (const e of [...t, ...(await extents("compare-latency"))]) {
          expect(e.left, `${width} px: ${e.where} "${e.label}" starts at ${e.left}`).toBeGreaterThanOrEqual(-0.5);
          expect(e.right, `${width} px: ${e.where} "${e.label}" ends at ${e.right} of ${e.width}`).toBeLessThanOrEqual(
            e.width + 0.5,
          );
        }
        await screenshot(page, `decide-compare-labels-${width}px`);
      } finally {
        await page.setViewportSize({ width: 1400, height: 900 });
      }
    }
  });

  it("palette: every engine and every compared run stays distinct under simulated deuteranopia", async () => {
    const { page } = session;
    await open("?view=runs", "runs");
    const engines = (await drawnSeries(page, "runs-throughput")).datasets.map((d) => String(d.borderColor));
    expect(engines).toHaveLength(4);
    await open(`?view=compare&runs=${decide.historyIds.slice(0, 7).join(",")}`, "compare");
    const runs = (await drawnSeries(page, "compare-latency")).datasets.map((d) => String(d.borderColor));
    expect(new Set(runs).size).toBe(7);
    // CIEDE2000 between the simulated colours: 10 is a clearly visible difference; the old palette's pairs were under 5.
    for (const colours of [engines, runs]) {
      const { distance, pair } = minDeuteranopiaDistance(colours);
      expect(distance, `${pair.join(" / ")}`).toBeGreaterThan(10);
    }
  });

  it("keeps focus on a filter across the re-render it causes", async () => {
    const { page } = session;
    await open("?view=runs", "runs");
    await page.focus('select[data-filter="engine"]');
    await page.selectOption('select[data-filter="engine"]', "mongodb");
    await ready("runs", "engine=mongodb");
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.filter)).toBe("engine");
  });

  it("shows a loading indicator while the API answers, and an error with a retry that recovers", async () => {
    const { page } = session;
    await open("?view=runs", "runs");
    expect(await page.locator("#loading").isHidden()).toBe(true);
    // Held answers: the indicator is up and the view busy until they come.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route("**/api/v1/timeline*", async (route) => {
      await held;
      await route.continue();
    });
    await page.click('#nav a[data-view="scaling"]');
    await page.click('#nav a[data-view="runs"]');
    await page.locator("#loading").waitFor({ state: "visible" });
    expect(await page.locator("#app").getAttribute("aria-busy")).toBe("true");
    // The same address as before the detour: the last render's ready mark must be gone until this one ends.
    expect(await page.evaluate(() => document.body.dataset.ready)).toBeUndefined();
    release();
    await waitForView(page, "runs");
    expect(await page.locator("#loading").isHidden()).toBe(true);
    expect(await page.locator("#app").getAttribute("aria-busy")).toBeNull();
    await page.unroute("**/api/v1/timeline*");
    // A failing API: the error is said, with a button that tries again without reloading.
    await page.route("**/api/v1/repeatability*", (route) =>
      route.fulfill({
        status: 503,
        contentType: "application/json",
        body: JSON.stringify({ statusCode: 503, error: "Service Unavailable", message: "database unavailable" }),
      }),
    );
    await page.goto(`${api.base}/?view=repeatability`);
    await waitForView(page, "repeatability");
    const alert = page.locator(".error-state[role=alert]");
    expect(await alert.count()).toBe(1);
    expect(await alert.textContent()).toMatch(/503|unavailable/i);
    await page.unroute("**/api/v1/repeatability*");
    const before = await page.evaluate(() => window.__viewReady!.at);
    await page.click('button[data-action="retry"]');
    await page.waitForFunction((t) => (window.__viewReady?.at ?? 0) > t, before);
    expect(await page.locator(".error-state").count()).toBe(0);
    expect(await page.evaluate(() => !!window.__charts.repeatability)).toBe(true);
    session.errors.length = 0; // the 503 was the point: nothing else may have failed
  });

  it("exports a PNG on white with the chart's title and the view's filters above the plot", async () => {
    const { page } = session;
    await open("?view=scaling&workload=a&scale=log", "scaling");
    // What the export writes as text, recorded as it draws (the PNG's pixels say where, not what).
    await page.evaluate(() => {
      const texts: string[] = [];
      (window as unknown as { __texts: string[] }).__texts = texts;
      const original = CanvasRenderingContext2D.prototype.fillText;
      CanvasRenderingContext2D.prototype.fillText = function (
        this: CanvasRenderingContext2D,
        text: string,
        x: number,
        y: number,
        max?: number,
      ) {
        texts.push(text);
        return max === undefined ? original.call(this, text, x, y) : original.call(this, text, x, y, max);
      };
    });
    const [png] = await Promise.all([
      page.waitForEvent("download"),
      page.click('figure[data-chart-id="scaling"] button[data-export="png"]'),
    ]);
    const texts = await page.evaluate(() => (window as unknown as { __texts: string[] }).__texts);
    expect(texts).toContain("Throughput against nodes");
    expect(texts).toContain("Scaling · workload a · scale log");
    const bytes = readFileSync((await png.path())!);
    const image = await page.evaluate(async (b64) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const c = document.createElement("canvas");
      [c.width, c.height] = [img.width, img.height];
      const g = c.getContext("2d")!;
      g.drawImage(img, 0, 0);
      const px = (x: number, y: number) => Array.from(g.getImageData(x, y, 1, 1).data);
      const chart = window.__charts.scaling!.canvas;
      return {
        width: img.width,
        height: img.height,
        chartHeight: chart.height,
        corners: [px(0, 0), px(img.width - 1, img.height - 1), px(img.width - 1, 0)],
      };
    }, bytes.toString("base64"));
    // Opaque white where the chart's own canvas is transparent, and room above the plot for the title and filters.
    for (const c of image.corners) expect(c).toEqual([255, 255, 255, 255]);
    expect(image.height).toBeGreaterThan(image.chartHeight + 30);
  });

  it("fits a 390 px wide phone screen: no view scrolls sideways", async () => {
    const { page } = session;
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      const views = [
        "?view=runs",
        "?view=compare&runs=web-sweep-a,web-histogram-a",
        "?view=scaling",
        "?view=durability",
        "?view=regressions",
        "?view=repeatability",
        "?view=study&seed=004",
        "?view=sweeps",
        "?view=latency&run=web-repeat-r0",
        "?view=timeseries&run=web-repeat-r1",
      ];
      for (const search of views) {
        await open(search, new URLSearchParams(search).get("view")!);
        const { scroll, client } = await page.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          client: document.documentElement.clientWidth,
        }));
        expect(scroll, search).toBeLessThanOrEqual(client);
      }
      await screenshot(page, "decide-390px-runs");
    } finally {
      await page.setViewportSize({ width: 1400, height: 900 });
    }
    expect(session.errors).toEqual([]);
  });
});
