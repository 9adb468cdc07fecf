/**
 * A worker thread's entry for a TypeScript module of this checkout. A worker does not inherit tsx's loader: its entry
 * registers it, then imports the module. Null when tsx cannot be found (a checkout run by another loader).
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

export function typeScriptThreadEntry(moduleUrl: string): URL | null {
  let tsx: string;
  try {
    tsx = dirname(createRequire(import.meta.url).resolve("tsx/package.json"));
  } catch {
    return null;
  }
  const register = pathToFileURL(join(tsx, "dist", "esm", "api", "index.mjs")).href;
  const boot = `import { register } from ${JSON.stringify(register)}; register(); await import(${JSON.stringify(moduleUrl)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(boot)}`);
}
