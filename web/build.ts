/**
 * Builds the dashboard into web/dist: esbuild bundles web/src/main.ts (Chart.js included) into one ES module,
 * index.html and styles.css are copied beside it. `npm run build:web`; `npm start` and `serve` in a checkout call
 * buildDashboardIfStale() first. The API only serves web/dist (api/plugins/app/dashboard.ts).
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { copyFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const WEB_ROOT = fileURLToPath(new URL(".", import.meta.url));
export const DIST_DIR = fileURLToPath(new URL("./dist/", import.meta.url));
/** What the bundle is made of: the dashboard's sources and the model it imports (presets, types). */
const SOURCES = [
  join(WEB_ROOT, "src"),
  join(WEB_ROOT, "index.html"),
  join(WEB_ROOT, "styles.css"),
  fileURLToPath(new URL("../model/", import.meta.url)),
];

/** The newest modification time (ms) of the files under these paths; 0 when none exists. */
function newestMtime(paths: readonly string[]): number {
  let newest = 0;
  for (const p of paths) {
    if (!existsSync(p)) continue;
    const s = statSync(p);
    if (s.isDirectory()) newest = Math.max(newest, newestMtime(readdirSync(p).map((n) => join(p, n))));
    else newest = Math.max(newest, s.mtimeMs);
  }
  return newest;
}

/**
 * Why web/dist must be built before serving, or null when it is current: missing, or older than a source (a pulled
 * or edited checkout would otherwise serve yesterday's dashboard against today's API).
 */
export function dashboardBuildReason(dist = DIST_DIR): string | null {
  const bundle = join(dist, "app.js");
  if (!existsSync(join(dist, "index.html")) || !existsSync(bundle)) return "web/dist missing";
  return newestMtime(SOURCES) > statSync(bundle).mtimeMs ? "web/dist older than its sources" : null;
}

export async function buildDashboard(options: { minify?: boolean } = {}): Promise<string> {
  // Imported here so serving a built dashboard never needs esbuild.
  const { build, stop } = await import("esbuild");
  await mkdir(DIST_DIR, { recursive: true });
  // esbuild keeps a service process until its parent exits; a server that built once has no more use for it.
  await build({
    entryPoints: [fileURLToPath(new URL("./src/main.ts", import.meta.url))],
    bundle: true,
    format: "esm",
    target: "es2022",
    platform: "browser",
    outfile: `${DIST_DIR}app.js`,
    minify: options.minify ?? true,
    sourcemap: true,
    legalComments: "linked",
    logLevel: "warning",
  }).finally(() => stop());
  await copyFile(`${WEB_ROOT}index.html`, `${DIST_DIR}index.html`);
  await copyFile(`${WEB_ROOT}styles.css`, `${DIST_DIR}styles.css`);
  return DIST_DIR;
}

/** Builds web/dist when it is missing or older than its sources; returns why it built, or null when it was current. */
export async function buildDashboardIfStale(): Promise<string | null> {
  const reason = dashboardBuildReason();
  if (reason) await buildDashboard();
  return reason;
}

// Run as a script (npm run build:web), not when bundled into a CLI whose own file is then argv[1] (the dashboard kit).
const self = fileURLToPath(import.meta.url);
if (process.argv[1] && self === process.argv[1] && /build\.[cm]?[jt]s$/.test(self)) {
  const dir = await buildDashboard({ minify: !process.argv.includes("--no-minify") });
  console.log(dir);
}
