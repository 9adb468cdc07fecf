/**
 * Builds the dashboard into web/dist: esbuild bundles web/src/main.ts (Chart.js included) into one ES module,
 * index.html and styles.css are copied beside it. `npm run build:web`; api startup calls buildDashboard() when dist is missing.
 */
import { copyFile, mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";

export const WEB_ROOT = fileURLToPath(new URL(".", import.meta.url));
export const DIST_DIR = fileURLToPath(new URL("./dist/", import.meta.url));

export async function buildDashboard(options: { minify?: boolean } = {}): Promise<string> {
  // Imported here so serving a built dashboard never needs esbuild.
  const { build } = await import("esbuild");
  await mkdir(DIST_DIR, { recursive: true });
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
  });
  await copyFile(`${WEB_ROOT}index.html`, `${DIST_DIR}index.html`);
  await copyFile(`${WEB_ROOT}styles.css`, `${DIST_DIR}styles.css`);
  return DIST_DIR;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dir = await buildDashboard({ minify: !process.argv.includes("--no-minify") });
  console.log(dir);
}
