import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { NamedFile } from "./assemble.js";

/**
 * The drivers of our YCSB bindings, pinned: for each binding module (runner/bindings/<module>), every jar of its
 * classpath folder that Maven brought (everything but our own `ycsb-lab-binding-*` jars) by its Maven coordinates and
 * its SHA-256. The pins live in the repository (kit/driver-pins.json, written by `npx tsx kit/pin-drivers.ts`), so a
 * driver's bytes change only in a reviewed diff; the @ycsb-lab/cli package carries them and downloads exactly those
 * bytes when it builds a kit (kit/from-package.ts), and packing it refuses a checkout whose jars differ (checkPins).
 */
export interface DriverPin {
  groupId: string;
  artifactId: string;
  version: string;
  /** Maven's classifier (jffi's "native"), if any. */
  classifier?: string;
  sha256: string;
}

export interface DriverPins {
  /** Binding module -> its drivers, in file-name order. */
  modules: Record<string, DriverPin[]>;
}

export const DRIVER_PINS_FILE = new URL("driver-pins.json", import.meta.url);

/** Our own jars: built from runner/bindings, never on a Maven repository, shipped in the package. */
export const isOwnJar = (name: string): boolean => name.startsWith("ycsb-lab-binding-");

/** The file name Maven's copy-dependencies gives an artifact: artifactId-version[-classifier].jar. */
export const pinFileName = (p: DriverPin): string =>
  `${p.artifactId}-${p.version}${p.classifier ? `-${p.classifier}` : ""}.jar`;

/** The artifact's path in a Maven 2 layout repository. */
export const pinPath = (p: DriverPin): string =>
  `${p.groupId.split(".").join("/")}/${p.artifactId}/${p.version}/${pinFileName(p)}`;

export const sha256Of = (data: Uint8Array): string => createHash("sha256").update(data).digest("hex");

const COORDINATE = /^[A-Za-z0-9_.-]+$/;

/** Reads and checks a pins file; every problem names the module and the field. */
export function parseDriverPins(text: string, source: string): DriverPins {
  const bad = (what: string): never => {
    throw new Error(`${source}: ${what}`);
  };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return bad(`not JSON (${(err as Error).message})`);
  }
  const modules = (raw as { modules?: unknown })?.modules;
  if (!modules || typeof modules !== "object") return bad(`no "modules" object`);
  for (const [module, pins] of Object.entries(modules)) {
    if (!Array.isArray(pins)) bad(`modules.${module} is not a list`);
    for (const [i, p] of (pins as DriverPin[]).entries()) {
      for (const field of ["groupId", "artifactId", "version"] as const) {
        if (typeof p?.[field] !== "string" || !COORDINATE.test(p[field]))
          bad(`modules.${module}[${i}].${field}: "${String(p?.[field])}" is not a Maven coordinate`);
      }
      if (p.classifier !== undefined && !COORDINATE.test(String(p.classifier)))
        bad(`modules.${module}[${i}].classifier: "${p.classifier}" is not a Maven classifier`);
      if (!/^[0-9a-f]{64}$/.test(String(p.sha256))) bad(`modules.${module}[${i}].sha256: not 64 hex digits`);
    }
  }
  return { modules: modules as DriverPins["modules"] };
}

export function readDriverPins(file: string | URL = DRIVER_PINS_FILE): DriverPins {
  return parseDriverPins(readFileSync(file, "utf8"), String(file instanceof URL ? file.pathname : file));
}

/**
 * What differs between a module's built classpath folder and its pins: a driver not pinned, pinned with other bytes,
 * or pinned and missing. Empty when a kit built from the pins is byte-identical to one built from the folder.
 */
export function pinProblems(module: string, jars: readonly NamedFile[], pins: DriverPins): string[] {
  const pinned = new Map((pins.modules[module] ?? []).map((p) => [pinFileName(p), p]));
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const jar of jars.filter((j) => !isOwnJar(j.name))) {
    seen.add(jar.name);
    const pin = pinned.get(jar.name);
    if (!pin) problems.push(`${module}: ${jar.name} is not pinned`);
    else if (pin.sha256 !== sha256Of(jar.data))
      problems.push(`${module}: ${jar.name} has SHA-256 ${sha256Of(jar.data)}, pinned ${pin.sha256}`);
  }
  for (const name of pinned.keys())
    if (!seen.has(name)) problems.push(`${module}: ${name} is pinned but not in the classpath`);
  return problems;
}
