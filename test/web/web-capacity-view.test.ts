import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResultDocument } from "../../model/result-document.js";
import { type RunningApi, startApi } from "./web-api.js";
import { type BrowserSession, drawnSeries, openBrowser, screenshot, waitForView } from "./web-browser.js";

/**
 * The "Capacity and cost" view in headless Chromium against the real API over PGlite, with a planted frontier: the
 * real capacity searches of scripts/capture-capacity-fixtures.ts (BasicDB at 10 ms and at 5 ms a read, each searched
 * twice) stored as four configurations on priced machines. The 5 ms database sustains about twice the 10 ms one, so
 * by construction the frontier is the 10 ms one on the cheapest machine (c6i.large) and the 5 ms one on c6i.xlarge;
 * the same searches on dearer machines are beaten on both.
 */
const fixture = (delayMs: number): ResultDocument[] =>
  JSON.parse(
    readFileSync(new URL(`../fixtures/capacity/basicdb-${delayMs}ms.json`, import.meta.url), "utf8"),
  ) as ResultDocument[];

const PLANTED = [
  { id: "cap-slow-cheap", delayMs: 10, preset: "balanced", data: "c6i.large", frontier: true },
  { id: "cap-slow-dear", delayMs: 10, preset: "balanced", data: "m6i.large", frontier: false },
  { id: "cap-fast-cheap", delayMs: 5, preset: "balanced", data: "c6i.xlarge", frontier: true },
  { id: "cap-fast-dear", delayMs: 5, preset: "balanced", data: "c6i.2xlarge", frontier: false },
] as const;
const USD_PER_HOUR: Record<string, number> = {
  "c6i.large": 0.085,
  "m6i.large": 0.096,
  "c6i.xlarge": 0.17,
  "c6i.2xlarge": 0.34,
};
const label = (p: (typeof PLANTED)[number]) => `cassandra (stand-in) · ${p.preset} · 1 × ${p.data}`;

function planted(): ResultDocument[] {
  return PLANTED.flatMap((p) =>
    fixture(p.delayMs).map((d) => {
      const copy = structuredClone(d);
      copy.run.id = p.id;
      copy.run.instanceTypes = { data: p.data, client: "c6i.large" };
      return copy;
    }),
  );
}

describe("Capacity and cost in Chromium", () => {
  let api: RunningApi;
  let session: BrowserSession;
  beforeAll(async () => {
    api = await startApi();
    await api.ingest(planted());
    session = await openBrowser();
  });
  afterAll(async () => {
    await session?.close();
    await api?.close();
  });

  it("draws each configuration's sustainable throughput against its price with its CI, and the planted frontier", async () => {
    const { page } = session;
    const answer = (await (await fetch(`${api.base}/api/v1/capacity`)).json()) as {
      configurations: {
        instanceTypes: { data: string };
        preset: string;
        sustainable: { mean: number; ci95: { low: number; high: number } };
      }[];
    };
    const mean = (p: (typeof PLANTED)[number]) =>
      answer.configurations.find((c) => c.instanceTypes.data === p.data && c.preset === p.preset)!.sustainable;
    await page.goto(`${api.base}/?view=capacity`);
    await waitForView(page, "capacity");
    const drawn = await drawnSeries(page, "capacity-cost");
    for (const p of PLANTED) {
      const d = drawn.datasets.find((x) => x.label === label(p))!;
      expect(d.data).toEqual([{ x: expect.closeTo(USD_PER_HOUR[p.data]!, 9), y: mean(p).mean }]);
      expect(d.errorBars).toEqual([{ low: mean(p).ci95.low, high: mean(p).ci95.high }]);
    }
    const frontier = drawn.datasets.find((x) => x.label.startsWith("frontier"))!;
    const onFrontier = PLANTED.filter((p) => p.frontier);
    expect(frontier.data).toEqual(
      onFrontier.map((p) => ({ x: expect.closeTo(USD_PER_HOUR[p.data]!, 9), y: mean(p).mean })),
    );
    for (const p of PLANTED) {
      expect(await page.locator(`tr[data-config="${label(p)}"]`).getAttribute("data-frontier"), p.id).toBe(
        String(p.frontier),
      );
    }
    await screenshot(page, "capacity-cost");
  });

  it("shows a configuration's step ladder with the SLO drawn, and each repeat's steps with what broke", async () => {
    const { page } = session;
    const fast = PLANTED[2];
    await page.locator(`tr[data-config="${label(fast)}"]`).click();
    await page.waitForFunction(
      () => document.body.dataset.ready === `capacity${location.search}` && location.search.includes("config="),
    );
    const ladder = await drawnSeries(page, "capacity-ladder");
    const slo = ladder.datasets.find((d) => d.label.startsWith("SLO"))!;
    expect(slo.label).toBe("SLO: p95 of READ ≤ 50 ms, errors ≤ 0 %");
    expect(new Set(slo.data)).toEqual(new Set([50]));
    expect(ladder.labels[0]).toBe("0: probe");
    const intended = ladder.datasets.find((d) => d.label === "READ p95 intended (ms)")!;
    expect(intended.data.length).toBe(ladder.labels.length);
    // The step that broke lies over the SLO's line; a step that held under it.
    const tables = page.locator(`table.capacity-ladder[data-run="${fast.id}"]`);
    expect(await tables.count()).toBe(2);
    const first = tables.first();
    const broke = await first.locator('tr[data-verdict="broke"]').count();
    const held = await first.locator('tr[data-verdict="held"]').count();
    expect(broke).toBeGreaterThan(0);
    expect(held).toBeGreaterThan(0);
    expect(await first.locator("caption").textContent()).toMatch(
      /sustains [\d,]+ ops\/s; step \d+ broke: .*READ p95 intended/,
    );
    const brokeIndex = Number(await first.locator('tr[data-verdict="broke"]').first().getAttribute("data-step"));
    expect(
      Number(intended.data[ladder.labels.findIndex((l) => String(l).startsWith(`${brokeIndex}:`))]),
    ).toBeGreaterThan(50);
    await screenshot(page, "capacity-ladder");
  });
});
