import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * `npm ci` refuses a lock that misses a package some locked package depends on, optional platform packages
 * included ("Missing: @rollup/rollup-android-arm64@4.68.7 from lock file"), and `npm install` then rewrites the
 * lock. A lock regenerated over an existing node_modules drops the optional packages of other platforms
 * (npm/cli#4828): regenerate it with node_modules removed. This is the check npm ci makes, without npm.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
interface Locked {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  hasInstallScript?: boolean;
  allowScripts?: Record<string, boolean>;
}
const lock = JSON.parse(readFileSync(`${root}/package-lock.json`, "utf8")) as { packages: Record<string, Locked> };
const pkg = JSON.parse(readFileSync(`${root}/package.json`, "utf8")) as Locked;

/** Where Node (and npm) would find `name` required from the package at `from`: its own node_modules, then up. */
function resolveInLock(from: string, name: string): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = `${dir ? `${dir}/` : ""}node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (!dir) return undefined;
    const up = dir.lastIndexOf("/node_modules/");
    dir = up < 0 ? "" : dir.slice(0, up);
  }
}

describe("package-lock.json", () => {
  it("records every dependency and optional dependency of every locked package (what npm ci checks)", () => {
    const missing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (path === "") continue;
      for (const name of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) {
        if (!resolveInLock(path, name)) missing.push(`${name} (needed by ${path})`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("has the root's dependencies exactly as package.json declares them", () => {
    const rootEntry = lock.packages[""]!;
    for (const field of ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"] as const) {
      expect(rootEntry[field] ?? {}, field).toEqual(pkg[field] ?? {});
      for (const name of Object.keys(pkg[field] ?? {})) {
        if (field !== "peerDependencies") expect(lock.packages[`node_modules/${name}`], name).toBeDefined();
      }
    }
  });

  it("names every package with an install script in allowScripts, allowed or denied (npm 11's review list)", () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([, e]) => e.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length));
    expect(withScripts.length).toBeGreaterThan(0);
    const unreviewed = [...new Set(withScripts)].filter((name) => typeof pkg.allowScripts?.[name] !== "boolean");
    expect(unreviewed).toEqual([]);
  });
});
