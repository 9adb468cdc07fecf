import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeSpan } from "../../api/store/instance-spans.js";
import type { InstanceStatus } from "../../model/instance-status.js";
import type { ResultDocument } from "../../model/result-document.js";
import { LOCAL_RUN_NO_PRICE } from "../../model/run-cost.js";
import { type RunningApi, startApi } from "./web-api.js";
import { type BrowserSession, openBrowser, screenshot, waitForView } from "./web-browser.js";

/**
 * The Compare page's cost sentence in headless Chromium against the real API over PGlite: a real run's documents
 * and its instances' status markers (scripts/capture-status-fixtures.ts), stored as the S3 import stores them
 * (api/store/instance-spans.ts storeSpan), beside a local benchmark's run, which rents nothing.
 */
const FIXTURE = JSON.parse(
  readFileSync(new URL("../fixtures/instance-status/status-basicdb.json", import.meta.url), "utf8"),
) as { runId: string; results: ResultDocument[]; statuses: InstanceStatus[] };
const LOCAL = JSON.parse(
  readFileSync(new URL("../fixtures/local-benchmark/balanced-1-load.json", import.meta.url), "utf8"),
) as ResultDocument;

/** On-demand $/h of the run's types, us-east-1 (https://aws.amazon.com/ec2/pricing/on-demand/). */
const TYPE_USD_PER_HOUR = { data: 0.096, client: 0.085 } as const;

/**
 * By hand: each instance from its boot to its last word (60 s at least) at its type's price, its gp3 volumes at $0.08
 * per GB-month plus IOPS over 3,000 at $0.005 and throughput over 125 MiB/s at $0.04 per month, 730 hours a month
 * (https://aws.amazon.com/ebs/pricing/), its public IPv4 address at $0.005 an hour
 * (https://aws.amazon.com/vpc/pricing/).
 */
function byHand(statuses: readonly InstanceStatus[]) {
  const parts = { instance: 0, volumes: 0, publicIpv4: 0 };
  for (const s of statuses) {
    const end = [s.at, s.heartbeatAt]
      .filter((t): t is string => !!t)
      .sort()
      .at(-1)!;
    const hours = Math.max((Date.parse(end) - Date.parse(s.bootedAt!)) / 1000, 60) / 3600;
    const month = s.billing!.volumes.reduce(
      (a, v) =>
        a +
        v.sizeGiB * 0.08 +
        Math.max((v.iops ?? 0) - 3000, 0) * 0.005 +
        Math.max((v.throughputMiBs ?? 0) - 125, 0) * 0.04,
      0,
    );
    parts.instance += hours * TYPE_USD_PER_HOUR[s.role as "data" | "client"];
    parts.volumes += (hours * month) / 730;
    parts.publicIpv4 += hours * (s.billing!.publicIpv4 ? 0.005 : 0);
  }
  return { ...parts, usd: parts.instance + parts.volumes + parts.publicIpv4 };
}
const usd = (x: number) => `$${x < 1 ? x.toFixed(4) : x.toFixed(2)}`;

describe("the Compare page's cost sentence in Chromium", () => {
  let api: RunningApi;
  let session: BrowserSession;
  beforeAll(async () => {
    api = await startApi();
    await api.ingest([...FIXTURE.results, LOCAL]);
    const machines = { dataInstanceType: "m6i.large", clientInstanceType: "c6i.large" };
    for (const s of FIXTURE.statuses)
      expect(await storeSpan(api.database.prisma, FIXTURE.runId, machines, s)).toBe(true);
    session = await openBrowser();
  }, 120_000);
  afterAll(async () => {
    await session?.close();
    await api?.close();
  });

  it("says the realized cost from the run's stored spans and its parts; a local run says it has no price", async () => {
    const { page } = session;
    expect(FIXTURE.results[0]!.run.instanceTypes).toEqual({ data: "m6i.large", client: "c6i.large" });
    for (const s of FIXTURE.statuses) expect(s.billing, s.instance).toBeDefined();
    await page.goto(`${api.base}/?view=compare&runs=${FIXTURE.runId},${LOCAL.run.id}`);
    await waitForView(page, "compare");
    const hand = byHand(FIXTURE.statuses);
    const sentence = await page.locator(`p[data-cost="${FIXTURE.runId}"]`).textContent({ timeout: 5_000 });
    expect(sentence).toContain(
      `${FIXTURE.runId}: realized cost ${usd(hand.usd)} (instance-hours ${usd(hand.instance)}, ` +
        `EBS volumes ${usd(hand.volumes)}, public IPv4 ${usd(hand.publicIpv4)}) for 2 instance(s)`,
    );
    expect(sentence).toMatch(/S3 requests are not counted/);
    expect(await page.locator(`p[data-cost="${LOCAL.run.id}"]`).textContent({ timeout: 5_000 })).toBe(
      `${LOCAL.run.id}: ${LOCAL_RUN_NO_PRICE}.`,
    );
    expect(session.errors).toEqual([]);
    await screenshot(page, "compare-cost");
  });
});
