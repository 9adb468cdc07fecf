import { mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import dashboard from "../../api/plugins/app/dashboard.js";
import { buildDashboard, DIST_DIR, dashboardBuildReason } from "../../web/build.js";
import { type BrowserSession, openBrowser, screenshot, waitForView } from "./web-browser.js";

// The dashboard plugin alone, without the API: the shell loads and says clearly that the API did not answer.
describe("the dashboard served alone (api/plugins/app/dashboard.ts)", () => {
  let app: FastifyInstance;
  let base: string;
  let session: BrowserSession;

  beforeAll(async () => {
    await buildDashboard();
    app = Fastify();
    await app.register(dashboard, { root: DIST_DIR });
    base = await app.listen({ host: "127.0.0.1", port: 0 });
    session = await openBrowser();
  });
  afterAll(async () => {
    await session?.close();
    await app?.close();
  });

  it("serves index.html at / (with view state in the query) and the bundle", async () => {
    const index = await fetch(`${base}/?view=scaling&workload=a`);
    expect(index.status).toBe(200);
    expect(index.headers.get("content-type")).toContain("text/html");
    expect(await index.text()).toContain('<script type="module" src="/app.js">');
    const bundle = await fetch(`${base}/app.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get("content-type")).toContain("javascript");
    expect((await bundle.text()).length).toBeGreaterThan(50_000);
    expect((await fetch(`${base}/styles.css`)).status).toBe(200);
    expect((await fetch(`${base}/nope.js`)).status).toBe(404);
  });

  it("renders the shell and names the failing API request when there is no API", async () => {
    const { page, errors } = session;
    await page.goto(`${base}/?view=scaling`);
    await waitForView(page, "scaling");
    const nav = await page.locator("#nav a").allTextContents();
    expect(nav).toEqual([
      "Runs",
      "Compare",
      "Regressions",
      "Scaling",
      "Durability",
      "Thread sweeps",
      "Latency distribution",
      "Phase time series",
      "Repeatability",
      "Capacity and cost",
      "Studies",
    ]);
    expect(await page.locator("#nav a[aria-current=page]").textContent()).toBe("Scaling");
    await expect(page.locator(".message.error").textContent()).resolves.toContain("GET /scaling failed (404)");
    await screenshot(page, "no-api");
    // Only the 404 of the missing API is logged by the browser; no script error.
    expect(errors.filter((e) => !e.includes("404"))).toEqual([]);
  });

  it("without a built bundle the API still starts and / says how to build it", async () => {
    const empty = mkdtempSync(join(tmpdir(), "ycsb-lab-dist-"));
    const bare = Fastify();
    try {
      await bare.register(dashboard, { root: empty });
      const res = await bare.inject({ method: "GET", url: "/" });
      expect(res.statusCode).toBe(503);
      expect(res.body).toContain('run "npm run build:web"');
    } finally {
      await bare.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("rebuilds a bundle that is missing or older than its sources, not a current one", () => {
    const dist = mkdtempSync(join(tmpdir(), "ycsb-lab-dist-"));
    try {
      expect(dashboardBuildReason(dist)).toBe("web/dist missing");
      for (const f of ["index.html", "app.js"]) writeFileSync(join(dist, f), "");
      const past = new Date("2020-01-01T00:00:00Z");
      utimesSync(join(dist, "app.js"), past, past);
      expect(dashboardBuildReason(dist)).toBe("web/dist older than its sources");
      const future = new Date(Date.now() + 3_600_000);
      utimesSync(join(dist, "app.js"), future, future);
      expect(dashboardBuildReason(dist)).toBeNull();
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
