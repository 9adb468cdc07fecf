/**
 * A screenshot of one dashboard page for the docs (the README shows the study page after a first `npm start`), in
 * headless Chromium as the browser tests open it, once the view has drawn. Written as a PNG of the page's top.
 *
 *   npx tsx scripts/screenshot-page.ts <url> <out.png> [width=1200] [height=1500]
 */
import { openBrowser, waitForView } from "../test/web/web-browser.js";

const [url, out, width = "1200", height = "1500"] = process.argv.slice(2);
if (!url || !out) throw new Error("usage: npx tsx scripts/screenshot-page.ts <url> <out.png> [width] [height]");
const session = await openBrowser();
try {
  await session.page.setViewportSize({ width: Number(width), height: Number(height) });
  await session.page.goto(url);
  await waitForView(session.page, new URL(url).searchParams.get("view") ?? "runs");
  await session.page.screenshot({ path: out, fullPage: false });
  console.error(`wrote ${out}${session.errors.length ? `; browser errors: ${session.errors.join(" | ")}` : ""}`);
} finally {
  await session.close();
}
