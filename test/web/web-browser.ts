/** Headless Chromium for the dashboard's browser tests (Debian's chromium through playwright-core). */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const ARTIFACTS = fileURLToPath(new URL("../../test-artifacts/web/", import.meta.url));

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface BrowserSession {
  browser: Browser;
  page: Page;
  /** Browser console errors and failed requests seen so far. */
  errors: string[];
  close(): Promise<void>;
}

/** launchPersistentContext is what takes a fresh --user-data-dir; one page, 1400x900. */
export async function openBrowser(extraArgs: readonly string[] = []): Promise<BrowserSession> {
  const userDataDir = mkdtempSync(join(tmpdir(), "ycsb-lab-chromium-"));
  mkdirSync(ARTIFACTS, { recursive: true });
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    args: [...FLAGS, ...extraArgs],
    headless: true,
    viewport: { width: 1400, height: 900 },
    acceptDownloads: true,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  return {
    browser: context.browser()!,
    page,
    errors,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Waits until the app shell finished rendering the URL now in the address bar. */
export async function waitForView(page: Page, view: string): Promise<void> {
  await page.waitForFunction((v) => document.body.dataset.ready === `${v}${location.search}`, view, {
    timeout: 30_000,
  });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

export interface DrawnDataset {
  label: string;
  data: unknown[];
  hidden: boolean;
  /** 95% CIs drawn around the points (web/src/charts.ts errorBars), where the dataset has them. */
  errorBars?: ({ low: number; high: number } | null)[];
  borderColor?: unknown;
  backgroundColor?: unknown;
}

/** The series a chart drew, read from its Chart.js instance (window.__charts). */
export async function drawnSeries(
  page: Page,
  chartId: string,
): Promise<{ type: string; labels: unknown[]; datasets: DrawnDataset[] }> {
  return page.evaluate((id) => {
    const chart = window.__charts[id];
    if (!chart) throw new Error(`no chart ${id}; charts: ${Object.keys(window.__charts).join(", ")}`);
    return {
      type: String((chart.config as { type?: string }).type),
      labels: (chart.data.labels ?? []) as unknown[],
      datasets: chart.data.datasets.map((d, i) => ({
        label: String(d.label),
        data: d.data as unknown[],
        hidden: !chart.isDatasetVisible(i),
        errorBars: (d as { errorBars?: ({ low: number; high: number } | null)[] }).errorBars,
        borderColor: d.borderColor,
        backgroundColor: d.backgroundColor,
      })),
    };
  }, chartId);
}

export async function chartIds(page: Page): Promise<string[]> {
  return page.evaluate(() => Object.keys(window.__charts).sort());
}

/** An axis of a drawn chart: its type and the range Chart.js settled on. */
export async function chartAxis(
  page: Page,
  chartId: string,
  axis: string,
): Promise<{ type: string; min: number; max: number }> {
  return page.evaluate(
    ([id, a]) => {
      const scale = window.__charts[id!]!.scales[a!]!;
      return { type: scale.type, min: scale.min, max: scale.max };
    },
    [chartId, axis],
  );
}
