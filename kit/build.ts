import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ENGINE_BINDINGS } from "../engines/bindings.js";
import type { Engine } from "../model/engine.js";
import { bindingClasspathDir, runSetupScript } from "../runner/java-artifacts.js";
import { RDS_CA_BUNDLE } from "../runner/kit-layout.js";
import {
  type InstanceKitParts,
  instanceKitFiles,
  jarsIn,
  type Kit,
  kitManifestEntry,
  writeKitArchive,
} from "./assemble.js";
import type { TarEntry } from "./tar.js";

export type { Kit } from "./assemble.js";

/**
 * The kit: what every instance of a run runs, shipped by the stack that launched it (DESIGN.md "One boot path").
 * One archive per engine, named by its SHA-256 (kit/assemble.ts lays it out and writes it):
 *   bin/ycsb-lab.mjs          the instance CLI (cli/instance-main.ts) bundled with its runtime dependencies
 *   kit.json                  name, version, bindings inside
 *   java/ycsb/{core,hdr-2.1.12}/*.jar   YCSB 0.17.0 core and HdrHistogram 2.1.12 (Maven Central)
 *   java/bindings/<module>/*.jar        our binding of the engine and its driver (runner/bindings, Maven)
 * Node.js and Java come from the OS packages; nothing is cloned, installed from npm or built on an instance.
 * This file builds it from a checkout; the @ycsb-lab/cli package builds the same archive from its own files
 * (kit/from-package.ts).
 */
export const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
const DEFAULT_OUT = join(REPO_ROOT, ".cache", "kits");

/** The instance CLI as one ES module with its npm dependencies inside (esbuild, a development dependency). */
let bundling = 0;

export async function bundleInstanceCli(entry = "instance-main.ts", external: string[] = []): Promise<Buffer> {
  const { build, stop } = await import("esbuild");
  bundling++;
  const out = await build({
    entryPoints: [join(REPO_ROOT, "cli", entry)],
    external,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    write: false,
    minify: true,
    legalComments: "eof",
    // CommonJS dependencies call require() on Node's own modules: give the ES module one.
    // CommonJS dependencies call require() on Node's own modules and some read files beside themselves (__dirname).
    banner: {
      js: 'import { createRequire as __ycsbLabRequire } from "node:module"; import { fileURLToPath as __ycsbLabPath } from "node:url"; const require = __ycsbLabRequire(import.meta.url); const __filename = __ycsbLabPath(import.meta.url); const __dirname = __ycsbLabPath(new URL(".", import.meta.url));',
    },
    logLevel: "silent",
    // esbuild's service is one child process per Node process: stopped when no bundle is being built any more, so it
    // neither outlives the build nor dies under a build running beside this one (two rehearsals at once).
  }).finally(() => {
    if (--bundling === 0) void stop();
  });
  return Buffer.from(out.outputFiles[0]!.contents);
}

export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
}

/**
 * The parts of an instance kit with these binding modules, from this checkout: the bundled CLI, YCSB core
 * (scripts/fetch-ycsb.sh) and each binding's classpath folder (scripts/build-bindings.sh, Maven).
 */
export async function checkoutKitParts(
  modules: readonly string[],
  log: (line: string) => void = () => {},
): Promise<InstanceKitParts> {
  log(`kit: bundling the instance CLI`);
  const cli = await bundleInstanceCli();
  log(
    `kit: YCSB core${modules.length ? ` and the ${modules.join(", ")} binding` : ""} (Maven; cached after the first build)`,
  );
  const ycsb = await runSetupScript("fetch-ycsb.sh");
  const bindings = [];
  for (const module of modules) bindings.push({ module, jars: jarsIn(await bindingClasspathDir(module)) });
  return {
    cli,
    version: packageVersion(),
    ycsbCore: jarsIn(join(ycsb, "core")),
    hdr: jarsIn(join(ycsb, "hdr-2.1.12")),
    bindings,
  };
}

/** Kits being built in this process, by engine and folder: builds asked for at once share one (one Maven, one bundle). */
const building = new Map<string, Promise<Kit>>();

/** Builds the kit of `engine` (cached by content: an unchanged kit is the same file) into `outDir`. */
export function buildKit(engine: Engine, o: { outDir?: string; log?: (line: string) => void } = {}): Promise<Kit> {
  const key = `${engine}\0${o.outDir ?? ""}`;
  const running = building.get(key);
  if (running) return running;
  const kit = buildKitOnce(engine, o).finally(() => building.delete(key));
  building.set(key, kit);
  return kit;
}

async function buildKitOnce(engine: Engine, o: { outDir?: string; log?: (line: string) => void }): Promise<Kit> {
  const log = o.log ?? (() => {});
  const parts = await checkoutKitParts([ENGINE_BINDINGS[engine].module], log);
  const written = writeKitArchive(engine, instanceKitFiles(parts), o.outDir ?? DEFAULT_OUT, log);
  return { engine, ...written, version: parts.version };
}

/** Every file under `dir` (recursively) as tar entries under `into`. */
function filesOf(dir: string, into: string): TarEntry[] {
  if (!existsSync(dir)) throw new Error(`kit: ${dir} does not exist`);
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? filesOf(join(dir, e.name), `${into}/${e.name}`)
      : e.isFile()
        ? [{ path: `${into}/${e.name}`, data: readFileSync(join(dir, e.name)) }]
        : [],
  );
}

/** The folder of an npm package this checkout installed. */
function packageDir(name: string): string {
  return join(REPO_ROOT, "node_modules", ...name.split("/"));
}

/**
 * The dashboard kit (DashboardService, infra/dashboard-service.ts): the same kit format, whose CLI also serves the
 * results API and the dashboard (cli/service-main.ts). Beside the bundle, what it reads from files at run time, laid
 * out relative to the bundle exactly as the sources find them relative to themselves:
 *   web/dist/                 the built dashboard (web/build.ts), served by the API (api/app.ts DASHBOARD_DIR)
 *   bin/migrations/           the committed Prisma migrations, applied at every start (prisma/migrate.ts)
 *   static/, bin/static/logo.svg   the OpenAPI UI's assets (where @fastify/swagger-ui looks from the bundle)
 * PostgreSQL only: the embedded PGlite store is not inside (the service's database is RDS).
 */
export async function buildServiceKit(
  o: { outDir?: string; log?: (line: string) => void } = {},
): Promise<Omit<Kit, "engine"> & { engine: "dashboard" }> {
  const log = o.log ?? (() => {});
  const written = writeKitArchive("dashboard", await serviceKitEntries({}, log), o.outDir ?? DEFAULT_OUT, log);
  return { engine: "dashboard", ...written, version: packageVersion() };
}

/** The files of the dashboard kit; the server package (kit/packages.ts) has the same with PGlite beside it. */
export async function serviceKitEntries(
  o: { external?: readonly string[] },
  log: (line: string) => void = () => {},
): Promise<TarEntry[]> {
  log("kit: bundling the service CLI (API, dashboard, instance commands)");
  const cli = await bundleInstanceCli("service-main.ts", [...(o.external ?? SERVICE_EXTERNALS)]);
  const { buildDashboard, DIST_DIR } = await import("../web/build.js");
  await buildDashboard({ minify: true });
  return [
    { path: "bin/ycsb-lab.mjs", data: cli, executable: true },
    kitManifestEntry(packageVersion(), []),
    ...filesOf(DIST_DIR, "web/dist"),
    ...filesOf(join(REPO_ROOT, "prisma", "migrations"), "bin/migrations"),
    // RDS's CA bundle: the service verifies the database's certificate against it (cli/dashboard-boot.ts).
    { path: RDS_CA_BUNDLE, data: readFileSync(join(REPO_ROOT, "kit", RDS_CA_BUNDLE)) },
    // @fastify/swagger-ui serves its assets from <its __dirname>/../static and reads its logo from
    // <its __dirname>/static: in the bundle its __dirname is bin/.
    ...filesOf(join(packageDir("@fastify/swagger-ui"), "static"), "static"),
    { path: "bin/static/logo.svg", data: readFileSync(join(packageDir("@fastify/swagger-ui"), "static", "logo.svg")) },
  ];
}

/**
 * Left out of the service bundle: PGlite (files beside its module; the service's database is RDS, the server package
 * declares it as a dependency) and esbuild (only a checkout rebuilds the dashboard).
 */
export const SERVICE_EXTERNALS = ["@electric-sql/pglite", "pglite-prisma-adapter", "esbuild"] as const;

/** The version of an npm package this checkout installed (what a package built here depends on, exactly). */
export function installedVersion(name: string): string {
  return (JSON.parse(readFileSync(join(packageDir(name), "package.json"), "utf8")) as { version: string }).version;
}
