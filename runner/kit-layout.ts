import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Where the Java pieces of a run are. Two layouts, one code path above them:
 * - a kit (what the stack ships to instances, kit/build.ts): <kit>/kit.json, <kit>/bin/ycsb-lab.mjs,
 *   <kit>/java/ycsb/{core,hdr-2.1.12}, <kit>/java/bindings/<module>;
 * - a checkout: .cache/ycsb (scripts/fetch-ycsb.sh) and runner/bindings/<module>/target/classpath (Maven).
 * The kit is recognised by its kit.json one folder above this module's file (the bundle lives in <kit>/bin).
 */
export const KIT_MANIFEST = "kit.json";

export interface KitManifest {
  kitFormat: 1;
  name: "ycsb-lab";
  version: string;
  /** Binding modules inside (runner/bindings/<module>). */
  bindings: string[];
}

const HERE_ROOT = fileURLToPath(new URL("..", import.meta.url));

export interface KitInfo {
  root: string;
  manifest: KitManifest;
}

/** The kit this process runs from, or undefined in a checkout. YCSB_LAB_KIT_ROOT overrides the detection (tests). */
export function currentKit(): KitInfo | undefined {
  const candidates = [process.env.YCSB_LAB_KIT_ROOT, HERE_ROOT].filter((r): r is string => !!r);
  for (const root of candidates) {
    const file = join(root, KIT_MANIFEST);
    if (existsSync(file)) return { root, manifest: JSON.parse(readFileSync(file, "utf8")) as KitManifest };
  }
  return undefined;
}

/** The RDS CA bundle (AWS's global bundle) at the dashboard kit's root: the service verifies its database with it. */
export const RDS_CA_BUNDLE = "rds-global-bundle.pem";

export const kitYcsbDir = (kitRoot: string): string => join(kitRoot, "java", "ycsb");
export const kitBindingDir = (kitRoot: string, module: string): string => join(kitRoot, "java", "bindings", module);
