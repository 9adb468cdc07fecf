import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { installedVersion, instanceKitEntries, packageVersion, REPO_ROOT, serviceKitEntries } from "./build.js";
import type { TarEntry } from "./tar.js";

/**
 * The packages per audience (docs/packages.md), each installing only what it runs:
 * - `ycsb-lab` (the repository's own package.json): Pulumi components and the model, for infra repositories;
 * - `@ycsb-lab/cli`: the instance CLI of the kit (plan, run, boot, status, merge, parse) as one bundle with YCSB
 *   core's jars, no npm dependency;
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

function pack(dir: string, outDir: string): string {
  const out = JSON.parse(execFileSync("npm", ["pack", "--json", "--pack-destination", outDir], { cwd: dir, encoding: "utf8", env: { ...process.env, npm_config_update_notifier: "false" } })) as { filename: string }[];
  return join(outDir, out[0]!.filename);
}

/** A package folder: the bundle's files, its package.json and a short README; then packed. */
function writePackage(o: { name: string; folder: string; outDir: string; entries: readonly TarEntry[]; manifest: Record<string, unknown>; readme: string; log: (line: string) => void }): BuiltPackage {
  const dir = join(o.outDir, o.folder);
  const readme = `# ${o.name}\n\n${o.readme}\n\nPart of ycsb-lab: benchmark databases in the cloud with YCSB. See the project's README and docs/packages.md.\n`;
  writeTree(dir, [
    ...o.entries,
    { path: "package.json", data: Buffer.from(`${JSON.stringify({ name: o.name, ...COMMON, ...o.manifest }, null, 2)}\n`) },
    { path: "README.md", data: Buffer.from(readme) },
  ]);
  o.log(`package: ${o.name} in ${dir}`);
  return { name: o.name, dir, tarball: pack(dir, o.outDir) };
}

export async function buildCliPackage(outDir = PACKAGES_DIR, log: (line: string) => void = () => {}): Promise<BuiltPackage> {
  return writePackage({
    name: "@ycsb-lab/cli",
    folder: "cli",
    outDir,
    log,
    entries: await instanceKitEntries([], log),
    manifest: {
      description: "The ycsb-lab command line and lock-step runner: plan a scenario, run its phases, parse and merge YCSB output.",
      bin: { "ycsb-lab": "bin/ycsb-lab.mjs" },
      files: ["bin", "java", "kit.json", "README.md"],
    },
    readme:
      "`npx ycsb-lab --help`. Plans scenarios (`ycsb-lab plan`), parses YCSB output (`parse`), merges HDR logs (`merge`), shows a run's fleet (`status`), and runs a plan's phases (`run`, `boot`). YCSB 0.17.0's core is inside; an engine's binding comes with that engine's kit (`ycsb-lab kit` in the repository).",
  });
}

export async function buildServerPackage(outDir = PACKAGES_DIR, log: (line: string) => void = () => {}): Promise<BuiltPackage> {
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
      description: "The ycsb-lab results service: the results API (Postgres or embedded PGlite) and the dashboard, built.",
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
  for (const build of [buildCliPackage, buildServerPackage]) {
    const p = await build(PACKAGES_DIR, log);
    log(`packed: ${p.tarball}`);
  }
  log("the library package: npm pack in the repository (ycsb-lab, built by tsup)");
}
