import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ENGINE_BINDINGS } from "../engines/bindings.js";
import type { Engine } from "../model/engine.js";
import { KIT_MANIFEST, type KitManifest } from "../runner/kit-layout.js";
import { type InstanceKitParts, instanceKitFiles, jarsIn, type Kit, writeKitArchive } from "./assemble.js";
import { readDriverPins } from "./driver-pins.js";
import { fetchAllPinned, type MavenFetch } from "./maven.js";

/**
 * An instance kit built by the installed @ycsb-lab/cli package, with no checkout, no Maven and no Java: the package
 * holds every part of a kit but the bindings' drivers (kit/packages.ts), which come from a Maven repository by their
 * pinned SHA-256s. The archive is byte-identical to `ycsb-lab kit build` in the checkout the package was packed from:
 * the same parts go through the same assembly (kit/assemble.ts). Package layout:
 *   kit.json, java/ycsb/{core,hdr-2.1.12}/   as in every kit (the package's own CLI runs YCSB from them too)
 *   kit-parts/ycsb-lab.mjs                   the instance CLI every kit carries (the package's bin adds `kit build`)
 *   kit-parts/bindings/<module>/*.jar         our binding jars (runner/bindings), built at pack time
 *   kit-parts/driver-pins.json               each binding's drivers: Maven coordinates and SHA-256 (kit/driver-pins.ts)
 */
export const KIT_PARTS = "kit-parts";

export interface PackageKitOptions extends MavenFetch {
  outDir: string;
}

function packageVersion(root: string): string {
  const file = join(root, KIT_MANIFEST);
  if (!existsSync(join(root, KIT_PARTS)) || !existsSync(file)) {
    throw new Error(
      `kit build: ${root} is not the @ycsb-lab/cli package (no ${KIT_PARTS}/ beside ${KIT_MANIFEST}); build a kit with the package or in a checkout`,
    );
  }
  return (JSON.parse(readFileSync(file, "utf8")) as KitManifest).version;
}

/** The parts of `engine`'s kit: the package's files and the binding's drivers, fetched and checked. */
export async function packageKitParts(root: string, engine: Engine, o: MavenFetch = {}): Promise<InstanceKitParts> {
  const version = packageVersion(root);
  const module = ENGINE_BINDINGS[engine].module;
  const pins = readDriverPins(join(root, KIT_PARTS, "driver-pins.json"));
  const drivers = pins.modules[module];
  if (!drivers) throw new Error(`kit build: ${KIT_PARTS}/driver-pins.json has no drivers for the ${module} binding`);
  o.log?.(`kit: the ${module} binding's ${drivers.length} drivers (pinned SHA-256, cached after the first build)`);
  const jars = [...jarsIn(join(root, KIT_PARTS, "bindings", module)), ...(await fetchAllPinned(drivers, o))];
  return {
    cli: readFileSync(join(root, KIT_PARTS, "ycsb-lab.mjs")),
    version,
    ycsbCore: jarsIn(join(root, "java", "ycsb", "core")),
    hdr: jarsIn(join(root, "java", "ycsb", "hdr-2.1.12")),
    bindings: [{ module, jars }],
  };
}

export async function buildKitFromPackage(root: string, engine: Engine, o: PackageKitOptions): Promise<Kit> {
  const parts = await packageKitParts(root, engine, o);
  const written = writeKitArchive(engine, instanceKitFiles(parts), o.outDir, o.log);
  return { engine, ...written, version: parts.version };
}
