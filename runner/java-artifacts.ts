import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { currentKit, kitBindingDir, kitYcsbDir } from "./kit-layout.js";

/** Where the Java pieces of a YCSB run come from: the cached YCSB core and our Maven-built bindings. */

export const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * Runs one of the repo's scripts/ and returns the last line it printed (the folder it prepared). A first run
 * downloads from Maven Central for a minute or more: with YCSB_LAB_SETUP_PROGRESS=1 (set by `npm start` for itself and
 * its benchmark) each step line the script prints on stderr ("fetching cassandra-all 5.0.4 ...") is shown as it
 * comes, prefixed "setup: "; otherwise the script is quiet and only a failure's last lines are reported.
 */
export async function runSetupScript(script: string, args: string[] = []): Promise<string> {
  const path = join(REPO_ROOT, "scripts", script);
  const show = process.env.YCSB_LAB_SETUP_PROGRESS === "1";
  const child = spawn(path, args, { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  let partial = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-64 * 1024);
    if (!show) return;
    const lines = (partial + chunk).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) if (line.trim()) process.stderr.write(`setup: ${line}\n`);
  });
  const code = await new Promise<number | string>((resolve) => {
    child.once("error", (err) => resolve(err.message));
    child.once("close", (c, signal) => resolve(c ?? `signal ${signal}`));
  });
  if (code !== 0) {
    const tail = stderr.trim().split("\n").slice(-15).join("\n");
    throw new Error(
      `scripts/${script} ${args.join(" ")} failed: ${tail || (typeof code === "string" ? code : `exit code ${code}`)}`,
    );
  }
  const lines = stdout.trim().split("\n");
  return lines[lines.length - 1] ?? "";
}

/** The folder of site.ycsb:core:0.17.0 and its dependencies (scripts/fetch-ycsb.sh). */
export function ycsbCoreDir(): string {
  const kit = currentKit();
  const dir =
    process.env.YCSB_CORE_DIR ?? (kit ? join(kitYcsbDir(kit.root), "core") : join(REPO_ROOT, ".cache", "ycsb", "core"));
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
    if (!kit.manifest.bindings.includes(module))
      throw new Error(`binding "${module}" is not in this kit (it has: ${kit.manifest.bindings.join(", ")})`);
    return kitBindingDir(kit.root, module);
  }
  const out = await runSetupScript("build-bindings.sh", [module]);
  if (!existsSync(out)) throw new Error(`scripts/build-bindings.sh ${module} printed "${out}", which does not exist`);
  return out;
}
