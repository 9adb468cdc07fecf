import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * In a checkout (web/src present) the dashboard is rebuilt when web/dist is missing or older than its sources, so a
 * pull or an edit never serves yesterday's bundle. An installed server has web/dist built at pack time and no
 * web/src: nothing is built and esbuild (a dev tool) is never loaded.
 */
export async function refreshDashboardBundle(say: (line: string) => void): Promise<void> {
  if (!existsSync(fileURLToPath(new URL("../web/src/", import.meta.url)))) return;
  const { buildDashboardIfStale, dashboardBuildReason } = await import("../web/build.js");
  const reason = dashboardBuildReason();
  if (!reason) return;
  say(`dashboard: ${reason}, building it`);
  await buildDashboardIfStale();
}
