import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { ENGINE_BINDINGS } from "../engines/bindings.js";
import { ENGINES } from "../model/engine.js";
import { kitManifestEntry, type NamedFile } from "./assemble.js";
import {
  bundleInstanceCli,
  checkoutKitParts,
  installedVersion,
  packageVersion,
  REPO_ROOT,
  serviceKitEntries,
} from "./build.js";
import { isOwnJar, pinProblems, readDriverPins } from "./driver-pins.js";
import { KIT_PARTS } from "./from-package.js";
import type { TarEntry } from "./tar.js";

/**
 * The packages per audience (docs/packages.md), each installing only what it runs:
 * - `ycsb-lab` (the repository's own package.json): Pulumi components and the model, for infra repositories;
 * - `@ycsb-lab/cli`: the instance CLI of the kit (plan, run, boot, status, merge, parse) and `kit build` as one
 *   bundle with YCSB core's jars and every other part of a kit but the drivers, which `kit build` downloads by
 *   their pinned SHA-256 (kit/from-package.ts); no npm dependency;
 * - `@ycsb-lab/server`: the results API and the dashboard built at pack time (the dashboard kit's bundle), with the
 *   one package it loads from files as a dependency: PGlite.
 * Bundles rather than workspaces: the kit already bundles the CLI for instances that have no npm, and a bundle
 * carries no development dependency by construction.
 */
export const PACKAGES_DIR = join(REPO_ROOT, ".cache", "packages");

export interface BuiltPackage {
  name: string;
  dir: string;
  tarball: string;
}

const COMMON = {
  version: packageVersion(),
  license: "Apache-2.0",
  type: "module",
  engines: { node: ">=20.19" },
};

function writeTree(dir: string, entries: readonly TarEntry[]): void {
  rmSync(dir, { recursive: true, force: true });
  for (const e of entries) {
    const path = join(dir, e.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, e.data);
    if (e.executable) chmodSync(path, 0o755);
  }
}

function pack(dir: string, outDir: string, extra: string[] = []): string {
  const args = ["pack", "--json", "--pack-destination", outDir, ...extra];
  const out = JSON.parse(
    execFileSync("npm", args, {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, npm_config_update_notifier: "false" },
    }),
  ) as { filename: string }[];
  return join(outDir, out[0]!.filename);
}

/** The library (`ycsb-lab`, this repository's package.json): dist/ built by tsup, then `npm pack` as npm publishes it. */
export function buildLibraryPackage(outDir = PACKAGES_DIR, log: (line: string) => void = () => {}): BuiltPackage {
  // prepare (tsup) is what npm pack runs; run it apart so a build error shows as one, then pack without scripts.
  log("package: ycsb-lab (tsup)");
  execFileSync("npx", ["tsup"], { cwd: REPO_ROOT, stdio: "pipe" });
  return { name: "ycsb-lab", dir: REPO_ROOT, tarball: pack(REPO_ROOT, outDir, ["--ignore-scripts"]) };
}

/** A package folder: the bundle's files, its package.json and a short README; then packed. */
function writePackage(o: {
  name: string;
  folder: string;
  outDir: string;
  entries: readonly TarEntry[];
  manifest: Record<string, unknown>;
  readme: string;
  log: (line: string) => void;
}): BuiltPackage {
  const dir = join(o.outDir, o.folder);
  const readme = `# ${o.name}\n\n${o.readme}\n\nPart of ycsb-lab: benchmark databases in the cloud with YCSB. See the project's README and docs/packages.md.\n`;
  writeTree(dir, [
    ...o.entries,
    {
      path: "package.json",
      data: Buffer.from(`${JSON.stringify({ name: o.name, ...COMMON, ...o.manifest }, null, 2)}\n`),
    },
    { path: "README.md", data: Buffer.from(readme) },
  ]);
  o.log(`package: ${o.name} in ${dir}`);
  return { name: o.name, dir, tarball: pack(dir, o.outDir) };
}

/**
 * What `kit build` of the package needs beyond the package's own runtime: the instance CLI every kit carries, our
 * binding jars and the drivers' pins. Refuses a checkout whose built drivers are not the pinned ones: the package's
 * kits would then differ from the checkout's.
 */
async function cliKitParts(log: (line: string) => void): Promise<{ runtime: TarEntry[]; parts: TarEntry[] }> {
  const modules = ENGINES.map((e) => ENGINE_BINDINGS[e].module);
  const kit = await checkoutKitParts(modules, log);
  const pins = readDriverPins();
  const problems = kit.bindings.flatMap((b) => pinProblems(b.module, b.jars, pins));
  if (problems.length)
    throw new Error(
      `packages: the built bindings are not the pinned ones (run npx tsx kit/pin-drivers.ts and review):\n  ${problems.join("\n  ")}`,
    );
  const under = (into: string, files: readonly NamedFile[]) =>
    files.map((f) => ({ path: `${into}/${f.name}`, data: f.data }));
  const pinned = { modules: Object.fromEntries(modules.map((m) => [m, pins.modules[m] ?? []])) };
  return {
    runtime: [
      kitManifestEntry(kit.version, []),
      ...under("java/ycsb/core", kit.ycsbCore),
      ...under("java/ycsb/hdr-2.1.12", kit.hdr),
    ],
    parts: [
      { path: `${KIT_PARTS}/ycsb-lab.mjs`, data: kit.cli },
      { path: `${KIT_PARTS}/driver-pins.json`, data: Buffer.from(`${JSON.stringify(pinned, null, 2)}\n`) },
      ...kit.bindings.flatMap((b) =>
        under(
          `${KIT_PARTS}/bindings/${b.module}`,
          b.jars.filter((j) => isOwnJar(j.name)),
        ),
      ),
    ],
  };
}

export async function buildCliPackage(
  outDir = PACKAGES_DIR,
  log: (line: string) => void = () => {},
): Promise<BuiltPackage> {
  const { runtime, parts } = await cliKitParts(log);
  log("kit: bundling the package CLI (the instance commands and kit build)");
  return writePackage({
    name: "@ycsb-lab/cli",
    folder: "cli",
    outDir,
    log,
    entries: [
      { path: "bin/ycsb-lab.mjs", data: await bundleInstanceCli("package-main.ts"), executable: true },
      ...runtime,
      ...parts,
    ],
    manifest: {
      description:
        "The ycsb-lab command line and lock-step runner: plan a scenario, run its phases, parse and merge YCSB output, build the kit a stack ships.",
      bin: { "ycsb-lab": "bin/ycsb-lab.mjs" },
      files: ["bin", "java", KIT_PARTS, "kit.json", "README.md"],
    },
    readme:
      "`npx ycsb-lab --help`. Plans scenarios (`ycsb-lab plan`), parses YCSB output (`parse`), merges HDR logs (`merge`), shows a run's fleet (`status`), runs a plan's phases (`run`, `boot`), and builds the kit a `BenchmarkScenario` ships to its instances (`ycsb-lab kit build --engine E`: our binding's drivers come from Maven Central, each checked against the SHA-256 pinned here). YCSB 0.17.0's core is inside.",
  });
}

export async function buildServerPackage(
  outDir = PACKAGES_DIR,
  log: (line: string) => void = () => {},
): Promise<BuiltPackage> {
  // PGlite finds its WebAssembly and data files beside its module, so it stays a package; its Prisma adapter is bundled
  // (as a package it would pull in @prisma/client, 72 MB, as a peer the bundle does not need).
  const entries = await serviceKitEntries({ external: ["@electric-sql/pglite", "esbuild"] }, log);
  return writePackage({
    name: "@ycsb-lab/server",
    folder: "server",
    outDir,
    log,
    entries,
    manifest: {
      description:
        "The ycsb-lab results service: the results API (Postgres or embedded PGlite) and the dashboard, built.",
      bin: { "ycsb-lab-server": "bin/ycsb-lab.mjs" },
      files: ["bin", "web", "static", "kit.json", "README.md"],
      dependencies: { "@electric-sql/pglite": installedVersion("@electric-sql/pglite") },
    },
    readme:
      "`npx ycsb-lab-server serve` serves the dashboard and the results API on 127.0.0.1:8080, with an embedded PGlite database in .local/pglite unless DATABASE_URL names a PostgreSQL server; `npx ycsb-lab-server serve --help` lists the settings. Also `export` and `import` of stored runs.",
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const log = (line: string) => console.log(line);
  mkdirSync(PACKAGES_DIR, { recursive: true });
  for (const build of [buildLibraryPackage, buildCliPackage, buildServerPackage]) {
    const p = await build(PACKAGES_DIR, log);
    log(`packed: ${p.tarball}`);
  }
}
