import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ENGINE_BINDINGS } from "../engines/bindings.js";
import { ENGINES } from "../model/engine.js";
import { bindingClasspathDir } from "../runner/java-artifacts.js";
import { jarsIn } from "./assemble.js";
import { DRIVER_PINS_FILE, type DriverPin, type DriverPins, isOwnJar, pinFileName, sha256Of } from "./driver-pins.js";

/**
 * Writes kit/driver-pins.json from what Maven built: every binding module's classpath folder
 * (scripts/build-bindings.sh), each driver jar found by name and bytes in the local Maven repository, whose path
 * names its coordinates. Run it after changing a binding's dependencies, and review the diff:
 *   npx tsx kit/pin-drivers.ts [--local-repo DIR]      (default ~/.m2/repository)
 */

/** Coordinates of a file at `path` under a Maven 2 layout repository: <group dirs>/<artifactId>/<version>/<file>. */
export function coordinatesOf(repo: string, path: string): Omit<DriverPin, "sha256"> {
  const parts = relative(repo, path).split(sep);
  if (parts.length < 4) throw new Error(`pin-drivers: ${path} is not in a Maven 2 layout under ${repo}`);
  const [file, version, artifactId] = [parts.at(-1)!, parts.at(-2)!, parts.at(-3)!];
  const stem = `${artifactId}-${version}`;
  const rest = file.slice(stem.length, -".jar".length);
  if (!file.startsWith(stem) || !file.endsWith(".jar") || (rest && !rest.startsWith("-")))
    throw new Error(`pin-drivers: ${file} is not named ${stem}[-classifier].jar`);
  const pin = {
    groupId: parts.slice(0, -3).join("."),
    artifactId,
    version,
    ...(rest ? { classifier: rest.slice(1) } : {}),
  };
  return pin;
}

/** Every jar under `dir`, by file name. */
function jarsByName(dir: string, into = new Map<string, string[]>()): Map<string, string[]> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) jarsByName(path, into);
    else if (e.name.endsWith(".jar")) into.set(e.name, [...(into.get(e.name) ?? []), path]);
  }
  return into;
}

export async function pinDrivers(localRepo: string): Promise<DriverPins> {
  const inRepo = jarsByName(localRepo);
  const modules: DriverPins["modules"] = {};
  for (const engine of ENGINES) {
    const module = ENGINE_BINDINGS[engine].module;
    const pins: DriverPin[] = [];
    for (const jar of jarsIn(await bindingClasspathDir(module)).filter((j) => !isOwnJar(j.name))) {
      const sha256 = sha256Of(jar.data);
      const path = (inRepo.get(jar.name) ?? []).find((p) => sha256Of(readFileSync(p)) === sha256);
      if (!path) throw new Error(`pin-drivers: ${module}: ${jar.name} (sha256 ${sha256}) is not in ${localRepo}`);
      const pin = { ...coordinatesOf(localRepo, path), sha256 };
      if (pinFileName(pin) !== jar.name) throw new Error(`pin-drivers: ${path} does not name ${jar.name}`);
      pins.push(pin);
    }
    modules[module] = pins;
  }
  return { modules };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const at = process.argv.indexOf("--local-repo");
  const localRepo = at > 0 ? process.argv[at + 1]! : join(homedir(), ".m2", "repository");
  const pins = await pinDrivers(localRepo);
  writeFileSync(DRIVER_PINS_FILE, `${JSON.stringify(pins, null, 2)}\n`);
  const count = Object.values(pins.modules).reduce((n, p) => n + p.length, 0);
  console.log(`${fileURLToPath(DRIVER_PINS_FILE)}: ${count} drivers of ${Object.keys(pins.modules).join(", ")}`);
}
