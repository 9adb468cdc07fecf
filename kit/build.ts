import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { ENGINE_BINDINGS } from "../engines/bindings.js";
import type { Engine } from "../model/engine.js";
import { KIT_MANIFEST, type KitManifest } from "../runner/kit-layout.js";
import { bindingClasspathDir, runSetupScript } from "../runner/java-artifacts.js";
import { tarArchive, type TarEntry } from "./tar.js";

/**
 * The kit: what every instance of a run runs, shipped by the stack that launched it (DESIGN.md "One boot path").
 * One archive per engine, named by its SHA-256:
 *   bin/ycsb-lab.mjs          the instance CLI (cli/instance-main.ts) bundled with its runtime dependencies
 *   kit.json                  name, version, bindings inside
 *   java/ycsb/{core,hdr-2.1.12}/*.jar   YCSB 0.17.0 core and HdrHistogram 2.1.12 (Maven Central)
 *   java/bindings/<module>/*.jar        our binding of the engine and its driver (runner/bindings, Maven)
 * Node.js and Java come from the OS packages; nothing is cloned, installed from npm or built on an instance.
 */
export const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));

export interface Kit {
  engine: Engine;
  /** The archive (.tar.gz) on this machine. */
  path: string;
  sha256: string;
  version: string;
  bytes: number;
  files: number;
}

function jarsOf(dir: string, into: string): TarEntry[] {
  if (!existsSync(dir)) throw new Error(`kit: ${dir} does not exist`);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".jar"))
    .map((f) => ({ path: `${into}/${f}`, data: readFileSync(join(dir, f)) }));
}

/** The instance CLI as one ES module with its npm dependencies inside (esbuild, a development dependency). */
export async function bundleInstanceCli(): Promise<Buffer> {
  const { build } = await import("esbuild");
  const out = await build({
    entryPoints: [join(REPO_ROOT, "cli", "instance-main.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    write: false,
    minify: true,
    legalComments: "eof",
    // CommonJS dependencies call require() on Node's own modules: give the ES module one.
    banner: { js: 'import { createRequire as __ycsbLabRequire } from "node:module"; const require = __ycsbLabRequire(import.meta.url);' },
    logLevel: "silent",
  });
  return Buffer.from(out.outputFiles[0]!.contents);
}

function packageVersion(): string {
  return (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
}

/** Builds the kit of `engine` (cached by content: an unchanged kit is the same file) into `outDir`. */
export async function buildKit(engine: Engine, o: { outDir?: string; log?: (line: string) => void } = {}): Promise<Kit> {
  const log = o.log ?? (() => {});
  const binding = ENGINE_BINDINGS[engine];
  log(`kit: bundling the instance CLI`);
  const cli = await bundleInstanceCli();
  log(`kit: YCSB core and the ${binding.module} binding (Maven; cached after the first build)`);
  const ycsb = await runSetupScript("fetch-ycsb.sh");
  const bindingDir = await bindingClasspathDir(binding.module);
  const version = packageVersion();
  const manifest: KitManifest = { kitFormat: 1, name: "ycsb-lab", version, bindings: [binding.module] };
  const entries: TarEntry[] = [
    { path: "bin/ycsb-lab.mjs", data: cli, executable: true },
    { path: KIT_MANIFEST, data: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) },
    ...jarsOf(join(ycsb, "core"), "java/ycsb/core"),
    ...jarsOf(join(ycsb, "hdr-2.1.12"), "java/ycsb/hdr-2.1.12"),
    ...jarsOf(bindingDir, `java/bindings/${binding.module}`),
  ];
  const archive = gzipSync(tarArchive(entries), { level: 6 });
  const sha256 = createHash("sha256").update(archive).digest("hex");
  const outDir = o.outDir ?? join(REPO_ROOT, ".cache", "kits");
  mkdirSync(outDir, { recursive: true });
  const path = join(outDir, `ycsb-lab-kit-${engine}-${sha256.slice(0, 12)}.tar.gz`);
  if (!existsSync(path) || statSync(path).size !== archive.length) writeFileSync(path, archive);
  log(`kit: ${relative(process.cwd(), path) || path} (${(archive.length / 1048576).toFixed(1)} MiB, sha256 ${sha256.slice(0, 12)}...)`);
  return { engine, path, sha256, version, bytes: archive.length, files: entries.length };
}
