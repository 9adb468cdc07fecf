import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { currentKit, kitBindingDir, kitYcsbDir } from "./kit-layout.js";

/** Where the Java pieces of a YCSB run come from: the cached YCSB core and our Maven-built bindings. */

export const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
const run = promisify(execFile);

/** Runs one of the repo's scripts/ and returns the last line it printed (the folder it prepared). */
export async function runSetupScript(script: string, args: string[] = []): Promise<string> {
  const path = join(REPO_ROOT, "scripts", script);
  try {
    const { stdout } = await run(path, args, { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 });
    const lines = stdout.trim().split("\n");
    return lines[lines.length - 1] ?? "";
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`scripts/${script} ${args.join(" ")} failed: ${(e.stderr ?? "").trim().split("\n").slice(-15).join("\n") || e.message}`);
  }
}

/** The folder of site.ycsb:core:0.17.0 and its dependencies (scripts/fetch-ycsb.sh). */
export function ycsbCoreDir(): string {
  const kit = currentKit();
  const dir = process.env.YCSB_CORE_DIR ?? (kit ? join(kitYcsbDir(kit.root), "core") : join(REPO_ROOT, ".cache", "ycsb", "core"));
  if (!existsSync(join(dir, "core-0.17.0.jar"))) {
    throw new Error(`YCSB core not found in ${dir}: run scripts/fetch-ycsb.sh first`);
  }
  return dir;
}

/** Builds (if stale) a binding module under runner/bindings and returns its classpath folder. */
export async function bindingClasspathDir(module: string): Promise<string> {
  // A kit carries its bindings built: an instance has no Maven and no sources.
  const kit = currentKit();
  if (kit) {
    if (!kit.manifest.bindings.includes(module)) throw new Error(`binding "${module}" is not in this kit (it has: ${kit.manifest.bindings.join(", ")})`);
    return kitBindingDir(kit.root, module);
  }
  const out = await runSetupScript("build-bindings.sh", [module]);
  if (!existsSync(out)) throw new Error(`scripts/build-bindings.sh ${module} printed "${out}", which does not exist`);
  return out;
}
