import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadReferenceData } from "../../api/store/reference-data.js";
import { decadesSpanned } from "../../web/src/scales.js";
import { type RunningApi, startApi } from "./web-api.js";
import { type BrowserSession, chartAxis, openBrowser, screenshot, waitForView } from "./web-browser.js";
import { decideDocuments } from "./web-decide-seed.js";
import {
  LOCAL_SCENARIO,
  LONG_RUNS,
  LONG_SCENARIO,
  localBenchmarkDocuments,
  longHistoryDocuments,
  OUTLIER,
  OUTLIER_SCENARIO,
  outlierHistoryDocuments,
} from "./web-first-hour-seed.js";
import { seedDocuments } from "./web-seed.js";

type Pt = { x: number | string; y: number | null };

/** What a chart drew, per dataset, with the looks and verdict marks the tests compare (a CanvasPattern reads as "pattern"). */
interface Drawn {
  label: string;
  data: Pt[];
  type: string;
  borderColor: string;
  borderDash: string;
  pointStyle: string;
  fills: string[];
  pointFills: string[];
  verdicts: string[];
}

async function drawn(
  page: Page,
  id: string,
): Promise<{ datasets: Drawn[]; legend: { text: string; width: number }[]; chartWidth: number; title: string }> {
  return page.evaluate((chartId) => {
    const chart = window.__charts[chartId];
    if (!chart) throw new Error(`no chart ${chartId}; charts: ${Object.keys(window.__charts).join(", ")}`);
    const fill = (v: unknown) => (typeof v === "string" ? v : v && typeof v === "object" ? "pattern" : String(v));
    const list = (v: unknown) => (Array.isArray(v) ? v.map(fill) : v === undefined ? [] : [fill(v)]);
    const g = chart.ctx;
    const legend = (chart.legend?.legendItems ?? []).map((item) => ({
      text: item.text,
      width: g.measureText(item.text).width,
    }));
    const figure = document.querySelector(`figure[data-chart-id="${chartId}"] .chart-title`);
    return {
      chartWidth: chart.width,
      title: figure?.textContent ?? "",
      legend,
      datasets: chart.data.datasets.map((d) => {
        const x = d as unknown as Record<string, unknown>;
        return {
          label: String(d.label),
          data: d.data as unknown as Pt[],
          type: String(x.type ?? (chart.config as { type?: string }).type),
          borderColor: String(x.borderColor),
          borderDash: JSON.stringify(x.borderDash ?? []),
          pointStyle: String(x.pointStyle ?? "circle"),
          fills: list(x.backgroundColor),
          pointFills: list(x.pointBackgroundColor),
          verdicts: ((x.verdicts as { verdict: string }[] | undefined) ?? []).map((v) => v.verdict),
        };
      }),
    };
  }, id);
}

const measuredSeries = (d: Drawn) =>
  !d.label.startsWith("ideal linear") && !d.label.startsWith("baseline ") && !d.label.startsWith("knee:");

// What a newcomer is shown first (npm start's benchmark, every view's default), in Chromium against the real API with
// every seed's published data, the browser tests' runs and a real run of the first benchmark stored.
describe("the first hour tells the truth: a comparable first benchmark, views that never state noise as a result", () => {
  let api: RunningApi;
  let session: BrowserSession;
  const local = localBenchmarkDocuments();

  beforeAll(async () => {
    api = await startApi();
    // Every seed's published runs from its tables; web-seed's Lineate runs would cite seed 002 unlike its source does.
    await loadReferenceData(api.database.prisma);
    await api.ingest([
      ...seedDocuments().documents,
      ...decideDocuments().documents,
      ...local,
      ...outlierHistoryDocuments(),
      ...longHistoryDocuments(),
    ]);
    session = await openBrowser();
  }, 600_000);
  afterAll(async () => {
    await session?.close();
    await api?.close();
  });

  const open = async (search: string, view: string) => {
    await session.page.goto(`${api.base}/${search}`);
    await waitForView(session.page, view);
  };

  it("the first benchmark's client-bound phases are hollow and hatched with their reasons, and a preset difference inside the noise says so", async () => {
    const { page } = session;
    // Every phase of the captured run is a warning (client-bound on a shared 2-core machine): the fixture says so itself.
    expect(new Set(local.map((d) => d.validity.verdict))).toEqual(new Set(["warning"]));
    await open(`?view=durability&scenario=${LOCAL_SCENARIO}&workload=a`, "durability");
    const peaks = await drawn(page, "durability-throughput");
    const cassandra = peaks.datasets.find((d) => d.label.startsWith("cassandra"))!;
    expect(cassandra.verdicts).toEqual(["warning", "warning", "warning"]);
    expect(cassandra.fills).toEqual(["pattern", "pattern", "pattern"]);
    expect(await page.locator('figure[data-chart-id="durability-throughput"] .chart-note').textContent()).toMatch(
      /Hollow markers and hatched bars .*client-bound/,
    );
    expect(await page.locator('tr[data-cell="cassandra|balanced"] td.verdict').textContent()).toMatch(
      /warning: .*client CPU averaged/,
    );
    // One repeat each: a preset "faster" than another is not stated as a result.
    const differences = page.locator("table.differences tr[data-difference]");
    expect(await differences.count()).toBe(2);
    for (const v of await differences.evaluateAll((trs) =>
      trs.map((t) => [t.getAttribute("data-verdict"), t.textContent]),
    )) {
      expect(v[0]).toBe("noise unknown");
      expect(v[1]).toMatch(/one repeat each.*may be noise.*not judged valid/);
    }
    // The landing chart draws each of those runs hollow.
    await open(`?view=runs&scenario=${LOCAL_SCENARIO}`, "runs");
    const timeline = await drawn(page, "runs-throughput");
    expect(timeline.datasets[0]!.pointFills).toEqual(["#ffffff", "#ffffff", "#ffffff"]);
    await screenshot(page, "first-hour-runs");
  });

  it("durability compares the presets at the one thread count and target they all ran, on an axis scaled to its data", async () => {
    const { page } = session;
    await open(`?view=durability&scenario=${LOCAL_SCENARIO}&workload=a`, "durability");
    expect(await page.locator('select[data-filter="load"]').inputValue()).toBe("4@300");
    expect(await page.locator("text=No thread count common").count()).toBe(0);
    expect(await page.locator("text=none in common").count()).toBe(0);
    const equal = await drawn(page, "durability-equal-throughput");
    expect(equal.title).toContain("equal load (4 threads at 300 ops/s)");
    expect(equal.datasets.map((d) => d.data.filter((v) => v !== null).length)).toEqual([3]);
    // p99 is on a log axis only where it spans more than a decade (it spanned a tenth of one).
    const p99 = await drawn(page, "durability-p99");
    const values = p99.datasets.flatMap((d) => d.data as unknown as (number | null)[]);
    expect((await chartAxis(page, "durability-p99", "y")).type).toBe(
      decadesSpanned(values) > 1 ? "logarithmic" : "linear",
    );
    await screenshot(page, "first-hour-durability");
  });

  it("the local benchmark's runs are on seed 004's page beside the paper's p99 tables, with scale, machine and stand-ins stated", async () => {
    const { page } = session;
    await open("?view=study&seed=004", "study");
    const rows = page.locator("table.measured tr[data-measured-run]");
    expect((await rows.evaluateAll((trs) => trs.map((t) => t.getAttribute("data-measured-run")))).sort()).toEqual([
      "local-first-balanced",
      "local-first-durable",
      "local-first-throughput",
    ]);
    const first = page.locator('tr[data-measured-run="local-first-balanced"]');
    expect(await first.textContent()).toContain("scale 0.0005 (10,000 of 20,000,000 records)");
    expect(await first.textContent()).toContain(
      "this one machine (database, client and dashboard together); the paper: 2x Xeon X5675",
    );
    expect(await first.textContent()).toContain("4 threads at 300 ops/s");
    expect(await first.textContent()).toMatch(/cassandra 5\.0\.\d+(?! \(stand-in)/);
    const chart = await drawn(page, "study-004-p99-a-UPDATE");
    const measured = chart.datasets.find((d) => d.label.startsWith("cassandra, measured here, scale 0.0005"))!;
    expect((measured.data as unknown as (number | null)[]).every((v) => typeof v === "number" && v > 0)).toBe(true);
    expect(measured.fills).toEqual(["pattern", "pattern", "pattern"]);
    expect(chart.datasets.some((d) => d.label === "cassandra, the paper")).toBe(true);
    await screenshot(page, "first-hour-study-004");
    // Scaling names what it cannot draw instead of dropping it; compare says what makes a local run unlike a published cell.
    await open(`?view=scaling&scenario=${LOCAL_SCENARIO}`, "scaling");
    expect(await page.locator(".message").first().textContent()).toMatch(
      /ran at one cluster size only .*cassandra \(measured\) durable \(usa-2015-durability, 1 node\)/,
    );
    await open("?view=compare&runs=local-first-balanced,seed001-cassandra-n1", "compare");
    expect(await page.locator('[data-caution="setups"]').textContent()).toMatch(
      /unequal loads: 4 at 300 ops\/s vs 1 threads.*unequal data sets: 10,000 vs not stated records.*different machines: local vs m1\.xlarge.*published figures beside measured runs/,
    );
  });

  it("every view opens on a question it can answer: a handful of series, no two alike, legends that fit, ticks at the counts run", async () => {
    const { page } = session;
    const check = async (id: string, max: number) => {
      const c = await drawn(page, id);
      const series = c.datasets.filter(measuredSeries);
      expect(series.length, id).toBeGreaterThan(0);
      expect(series.length, id).toBeLessThanOrEqual(max);
      const looks = series.map((d) => `${d.borderColor}|${d.borderDash}|${d.pointStyle}`);
      expect(new Set(looks).size, `${id}: ${looks.join(" ")}`).toBe(looks.length);
      for (const item of c.legend) expect(item.width, `${id} legend "${item.text}"`).toBeLessThanOrEqual(c.chartWidth);
      return c;
    };
    await open("?view=scaling", "scaling");
    await check("scaling", 8);
    // Every study at once is offered, not shown by default; seeds 000, 001 and 002 are then told apart by their looks.
    await open("?view=scaling&scenario=all&workload=a", "scaling");
    const all = await drawn(page, "scaling");
    const cassandra = all.datasets.filter((d) => measuredSeries(d) && d.label.startsWith("cassandra:"));
    expect(cassandra.length).toBeGreaterThanOrEqual(3);
    expect(new Set(cassandra.map((d) => `${d.borderColor}|${d.borderDash}|${d.pointStyle}`)).size).toBe(
      cassandra.length,
    );
    expect(await page.locator("td[data-efficiency]").allTextContents()).not.toContainEqual(
      expect.stringMatching(/-0 %/),
    );
    await open("?view=sweeps", "sweeps");
    const sweeps = await check("sweeps-throughput", 8);
    const threads = [
      ...new Set(sweeps.datasets.filter(measuredSeries).flatMap((d) => d.data.map((q) => Number(q.x)))),
    ].sort((a, b) => a - b);
    const ticks = await page.evaluate(() => window.__charts["sweeps-throughput"]!.scales.x!.ticks.map((t) => t.value));
    expect(ticks).toEqual(threads);
    await screenshot(page, "first-hour-sweeps");
  });

  it("regressions and repeatability open on a configuration that has a history or repeats, not on a lone newest run", async () => {
    const { page } = session;
    // The newest runs are the first benchmark's, one per preset: a configuration of one run has no history to show.
    await open("?view=regressions", "regressions");
    expect(await page.evaluate(() => Object.keys(window.__charts).some((id) => id.startsWith("regressions-")))).toBe(
      true,
    );
    await open("?view=repeatability", "repeatability");
    expect(await page.evaluate(() => !!window.__charts["repeatability"])).toBe(true);
  });

  it("every study is in Runs, a measured legend only with data, links only to data a run has", async () => {
    const { page } = session;
    await open(`?view=runs&scenario=${LOCAL_SCENARIO}`, "runs");
    // Seed 004's p99 tables by engine and preset: Cassandra and MongoDB under three presets, Couchbase under two.
    expect(await page.locator("tr[data-published-table]").count()).toBe(8);
    expect(await page.locator('tr[data-published-table] a[data-open="study"]').count()).toBe(8);
    await open("?view=runs&source=published", "runs");
    const published = page.locator("#runs-table tbody tr.published");
    expect(await published.count()).toBeGreaterThan(0);
    expect(await published.locator('a[data-open="latency"], a[data-open="timeseries"]').count()).toBe(0);
    for (const seed of ["000", "001", "002", "003", "004"]) {
      await open(`?view=study&seed=${seed}`, "study");
      const ids = await page.evaluate(() => Object.keys(window.__charts));
      for (const id of ids) {
        for (const d of (await drawn(page, id)).datasets.filter((x) => /measured/.test(x.label))) {
          expect(
            d.data.some((q) => (typeof q === "number" ? true : q !== null && (q as Pt).y !== null)),
            `${seed} ${id} "${d.label}"`,
          ).toBe(true);
        }
      }
    }
  });

  it("the landing chart of one run says one run on an axis of hours, and a finished run has its finishedAt", async () => {
    const { page } = session;
    await open(`?view=runs&scenario=${LOCAL_SCENARIO}&preset=durable`, "runs");
    const c = await drawn(page, "runs-throughput");
    expect(c.title).toBe("Throughput of 1 measured run");
    const x = await chartAxis(page, "runs-throughput", "x");
    expect(x.max - x.min).toBeLessThan(86_400_000);
    const body = (await (await fetch(`${api.base}/api/v1/runs?scenario=${LOCAL_SCENARIO}`)).json()) as {
      runs: { id: string; finishedAt: string | null }[];
    };
    for (const r of body.runs) {
      const last = local
        .filter((d) => d.run.id === r.id)
        .map((d) => d.finishedAt)
        .sort()
        .pop()!;
      expect(r.finishedAt, r.id).toBe(new Date(last).toISOString());
    }
  });

  it("a history of 260 runs opens on its newest 200, joined; every run (last=all) is drawn as dots", async () => {
    const { page } = session;
    const firstSeries = () =>
      page.evaluate(() => {
        const d = window.__charts["regressions-0"]!.data.datasets[0] as unknown as {
          data: unknown[];
          showLine: boolean;
        };
        return { points: d.data.length, showLine: d.showLine };
      });
    await open(`?view=regressions&scenario=${LONG_SCENARIO}`, "regressions");
    expect(await firstSeries()).toEqual({ points: 200, showLine: true });
    // The window is stated: a change before a history's newest runs is not looked for there.
    expect(await page.locator("p[data-method]").textContent()).toContain("newest 200 runs");
    await open(`?view=regressions&scenario=${LONG_SCENARIO}&last=all`, "regressions");
    expect(await firstSeries()).toEqual({ points: LONG_RUNS, showLine: false });
    expect(await page.locator("p[data-method]").textContent()).not.toContain("newest 200 runs");
  });

  it("invalid and unequal comparisons are marked: the runs chart, compare's reference, its title, durability, scaling's legend and CSV, repeatability's CI, named checkboxes", async () => {
    const { page } = session;
    await open("?view=runs", "runs");
    const mongodb = (await drawn(page, "runs-throughput")).datasets.find((d) => d.label === "mongodb (measured)")!;
    const ids = await page.evaluate(() =>
      (
        window.__charts["runs-throughput"]!.data.datasets.find((d) => d.label === "mongodb (measured)")!
          .data as unknown as { id: string }[]
      ).map((p) => p.id),
    );
    expect(mongodb.pointFills[ids.indexOf("web-failed-a")]).toBe("#ffffff");
    // Every form control has an accessible name (axe-core's "label" rule: 78-100 unnamed checkboxes before).
    const unnamed = await page.evaluate(() =>
      Array.from(document.querySelectorAll("input, select, textarea"))
        .filter(
          (e) =>
            !e.getAttribute("aria-label") &&
            !e.getAttribute("aria-labelledby") &&
            !e.closest("label") &&
            !(e.id && document.querySelector(`label[for="${e.id}"]`)),
        )
        .map((e) => e.outerHTML.slice(0, 80)),
    );
    expect(unnamed).toEqual([]);
    // An invalid run is not taken as the reference, and is named invalid.
    await open("?view=compare&runs=web-failed-a,web-histogram-a", "compare");
    expect(await page.locator('select[data-filter="ref"]').inputValue()).toBe("web-histogram-a");
    expect(await page.locator("table.diff thead").textContent()).toContain("web-failed-a (invalid)");
    expect(
      await page.locator('td[data-run="web-failed-a"][data-metric="throughput (ops/s)"][data-verdict]').textContent(),
    ).toMatch(/not a valid measurement/);
    // Each run at its own peak (32, 16, 4 threads) is an unequal load: in the title, which the PNG keeps.
    await open("?view=compare&runs=web-dur-throughput,web-dur-balanced,web-dur-durable", "compare");
    expect((await drawn(page, "compare-throughput")).title).toContain("unequal loads: 32 vs 16 vs 4");
    // Durability says what it left out.
    await open("?view=durability&scenario=web-test&workload=a", "durability");
    expect(await page.locator('figure[data-chart-id="durability-throughput"] .chart-note').textContent()).toMatch(
      /Left out: 1 phase\(s\) judged invalid/,
    );
    // Scaling's legend names the preset (and, as every series of these BasicDB runs, the stand-in); its CSV has n and
    // the CI.
    await open("?view=scaling&scenario=web-test&workload=a", "scaling");
    expect((await drawn(page, "scaling")).datasets.filter(measuredSeries).map((d) => d.label)).toContainEqual(
      expect.stringMatching(/^hbase \(stand-in\) · balanced/),
    );
    const download = page.waitForEvent("download");
    await page.click('figure[data-chart-id="scaling"] button[data-export="csv"]');
    const csv = readFileSync((await (await download).path())!, "utf8");
    expect(csv.split(/\r?\n/)[0]).toBe("series,nodes,throughput_ops_sec,n,ci95_low,ci95_high,verdict");
    // Repeatability shows the CI the API returns.
    await open("?view=repeatability&scenario=web-noise", "repeatability");
    expect(await page.locator("td[data-ci]").first().getAttribute("data-ci")).toMatch(/^[\d.]+:[\d.]+$/);
  });

  it("compare pools runs stored as repeats; the run picker finds any run; the docs name every route", async () => {
    const { page } = session;
    await open("?view=compare&runs=web-repeat-r0,web-repeat-r1,web-noise-ref", "compare");
    const bars = await drawn(page, "compare-throughput");
    expect(bars.datasets[0]!.data).toHaveLength(2);
    expect(
      await page
        .locator('td[data-run="web-noise-ref"][data-metric="throughput (ops/s)"][data-verdict]')
        .getAttribute("data-verdict"),
    ).not.toBe("noise unknown");
    await open(`?view=latency&scenario=${LOCAL_SCENARIO}`, "latency");
    expect(
      await page
        .locator('select[data-filter="run"] option')
        .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).sort()),
    ).toEqual(["local-first-balanced", "local-first-durable", "local-first-throughput"]);
    await page.fill('input[data-filter="find"]', "web-histogram-a");
    await page.press('input[data-filter="find"]', "Enter");
    await page.waitForFunction(
      () =>
        location.search.includes("run=web-histogram-a") && document.body.dataset.ready === `latency${location.search}`,
    );
    const docs = readFileSync(new URL("../../docs/api.md", import.meta.url), "utf8");
    for (const route of [
      "| GET | `/regressions`",
      "| GET | `/baselines`",
      "| PUT | `/baselines/:runId`",
      "| DELETE | `/baselines/:runId`",
    ])
      expect(docs).toContain(route);
  });

  it("study pages read like the papers: sizes as categories, the paper's workload names, legends that fit, bars from zero", async () => {
    const { page } = session;
    await open("?view=study&seed=001", "study");
    const axis = await page.evaluate(() => {
      const s = window.__charts["study-001-throughput-b"]!.scales.x!;
      return { type: s.type, labels: (s as unknown as { getLabels(): string[] }).getLabels() };
    });
    expect(axis).toEqual({ type: "category", labels: ["1", "2", "4", "8", "16", "32"] });
    expect(await page.locator('figure[data-chart-id="study-001-throughput-b"] .chart-title').textContent()).toContain(
      "Read-mostly Workload",
    );
    await open("?view=study&seed=002", "study");
    for (const id of await page.evaluate(() => Object.keys(window.__charts))) {
      const c = await drawn(page, id);
      for (const item of c.legend) expect(item.width, `${id} "${item.text}"`).toBeLessThanOrEqual(c.chartWidth);
      expect(
        c.legend.every((l) => /^(cassandra|couchbase|mongodb|hbase)/.test(l.text)),
        `${id}: ${c.legend.map((l) => l.text).join("; ")}`,
      ).toBe(true);
    }
    // Couchbase an order of magnitude above Cassandra and MongoDB: a log axis, so they are not drawn on top of each other.
    expect((await chartAxis(page, "study-002-throughput-a", "y")).type).toBe("logarithmic");
    await open("?view=study&seed=004", "study");
    const p99 = await drawn(page, "study-004-p99-b-READ");
    const y = await chartAxis(page, "study-004-p99-b-READ", "y");
    if (p99.datasets.every((d) => d.type === "bar")) expect([y.type, y.min]).toEqual(["linear", 0]);
    else expect(y.type).toBe("logarithmic");
    await screenshot(page, "first-hour-study-002");
  });

  it("regressions say what each history could show, how the method departs from Otava's, and mark an outlier run", async () => {
    const { page } = session;
    await open(`?view=regressions&scenario=${OUTLIER_SCENARIO}`, "regressions");
    const row = page.locator("table.power tbody tr").first();
    expect(Number(await row.locator("td[data-detectable]").getAttribute("data-detectable"))).toBeGreaterThan(0);
    expect(await row.locator("td[data-outliers]").getAttribute("data-outliers")).toBe(
      `${OUTLIER_SCENARIO}-${String(OUTLIER.at).padStart(3, "0")}`,
    );
    expect(await page.locator("p[data-method]").textContent()).toMatch(/Apache Otava .*Bonferroni/);
    expect(await page.locator('figure[data-chart-id="regressions-0"] .chart-note').textContent()).toMatch(
      /would flag a change of ±[\d.]+ % or more/,
    );
    const marks = (await drawn(page, "regressions-0")).datasets.find((d) => d.label.startsWith("outlier run"))!;
    expect(marks.data).toHaveLength(1);
    await screenshot(page, "first-hour-regressions");
  });
});
