import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { Engine } from "../model/engine.js";
import { KIT_MANIFEST, type KitManifest } from "../runner/kit-layout.js";
import { storedGzip } from "./gzip.js";
import { type TarEntry, tarArchive } from "./tar.js";

/**
 * An instance kit from its parts, wherever they come from: a checkout (kit/build.ts: esbuild, Maven) or the
 * installed @ycsb-lab/cli package (kit/from-package.ts: its files, the drivers from a Maven repository). Both go
 * through these functions, so the same parts give the same archive, byte for byte.
 */

export interface Kit {
  engine: Engine;
  /** The archive (.tar.gz) on this machine. */
  path: string;
  sha256: string;
  version: string;
  bytes: number;
  files: number;
}

/** A file of a kit folder by its name (a jar). */
export interface NamedFile {
  name: string;
  data: Buffer;
}

export interface InstanceKitParts {
  /** The instance CLI as one ES module (cli/instance-main.ts bundled). */
  cli: Uint8Array;
  /** The ycsb-lab version the CLI was built from. */
  version: string;
  /** site.ycsb:core:0.17.0 and its dependencies. */
  ycsbCore: readonly NamedFile[];
  /** HdrHistogram 2.1.12, first on the classpath (V2 logs on Java 17). */
  hdr: readonly NamedFile[];
  /** Binding modules in kit.json's order, each with its jars: ours and its drivers. */
  bindings: ReadonlyArray<{ module: string; jars: readonly NamedFile[] }>;
}

/** The jars of a folder, by name. */
export function jarsIn(dir: string): NamedFile[] {
  if (!existsSync(dir)) throw new Error(`kit: ${dir} does not exist`);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".jar"))
    .sort()
    .map((name) => ({ name, data: readFileSync(join(dir, name)) }));
}

export function kitManifestEntry(version: string, bindings: readonly string[]): TarEntry {
  const manifest: KitManifest = { kitFormat: 1, name: "ycsb-lab", version, bindings: [...bindings] };
  return { path: KIT_MANIFEST, data: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) };
}

const under = (into: string, files: readonly NamedFile[]): TarEntry[] =>
  files.map((f) => ({ path: `${into}/${f.name}`, data: f.data }));

/** The files of an instance kit (runner/kit-layout.ts reads this layout). */
export function instanceKitFiles(p: InstanceKitParts): TarEntry[] {
  return [
    { path: "bin/ycsb-lab.mjs", data: p.cli, executable: true },
    kitManifestEntry(
      p.version,
      p.bindings.map((b) => b.module),
    ),
    ...under("java/ycsb/core", p.ycsbCore),
    ...under("java/ycsb/hdr-2.1.12", p.hdr),
    ...p.bindings.flatMap((b) => under(`java/bindings/${b.module}`, b.jars)),
  ];
}

export interface WrittenKit {
  path: string;
  sha256: string;
  bytes: number;
  files: number;
}

/**
 * Writes the archive of `entries` into `outDir` as ycsb-lab-kit-<label>-<sha256 prefix>.tar.gz (written aside and
 * renamed, so a file of that name is always whole; an unchanged kit is the same file, left alone).
 */
export function writeKitArchive(
  label: string,
  entries: TarEntry[],
  outDir: string,
  log: (line: string) => void = () => {},
): WrittenKit {
  const archive = storedGzip(tarArchive(entries));
  const sha256 = createHash("sha256").update(archive).digest("hex");
  mkdirSync(outDir, { recursive: true });
  const path = join(outDir, `ycsb-lab-kit-${label}-${sha256.slice(0, 12)}.tar.gz`);
  if (!existsSync(path) || statSync(path).size !== archive.length) {
    const partial = `${path}.${process.pid}.partial`;
    writeFileSync(partial, archive);
    renameSync(partial, path);
  }
  const mib = (archive.length / 1048576).toFixed(1);
  log(`kit: ${relative(process.cwd(), path) || path} (${mib} MiB, sha256 ${sha256.slice(0, 12)}...)`);
  return { path, sha256, bytes: archive.length, files: entries.length };
}
