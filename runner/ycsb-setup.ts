import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bindingClasspathDir } from "./java-artifacts.js";
import { currentKit, kitYcsbDir } from "./kit-layout.js";
import type { YcsbSetup } from "./ycsb-invocation.js";
import { ycsbClasspath } from "./ycsb-process.js";

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Where scripts/fetch-ycsb.sh puts YCSB core and HdrHistogram (it prints this folder). */
export function ycsbCacheDir(): string {
  const kit = currentKit();
  return process.env.YCSB_CACHE ?? (kit ? kitYcsbDir(kit.root) : join(REPO_ROOT, ".cache", "ycsb"));
}

/** Short names for YCSB's own DB classes. */
export const DB_ALIASES: Record<string, string> = { basic: "site.ycsb.BasicDB" };

/** Java, classpath and DB class for YCSB; HdrHistogram 2.1.12 ahead of core so interval logs are V2 (DESIGN.md). */
export function ycsbSetup(a: {
  db: string;
  classpath?: string[];
  properties?: Record<string, string>;
  ycsbDir?: string;
  java?: string;
  statusIntervalSec?: number;
}): YcsbSetup {
  const dir = a.ycsbDir ?? ycsbCacheDir();
  if (!existsSync(join(dir, "core")))
    throw new Error(`ycsb: no YCSB core in ${dir}/core; run scripts/fetch-ycsb.sh first`);
  const db = DB_ALIASES[a.db] ?? a.db;
  return {
    java: a.java ?? (process.env.JAVA_HOME ? join(process.env.JAVA_HOME, "bin", "java") : "java"),
    classpath: ycsbClasspath({
      hdrHistogram: join(dir, "hdr-2.1.12", "*"),
      core: join(dir, "core", "*"),
      bindings: a.classpath ?? [],
    }),
    db,
    properties: { ...(db === "site.ycsb.BasicDB" ? { "basicdb.verbose": "false" } : {}), ...(a.properties ?? {}) },
    statusIntervalSec: a.statusIntervalSec ?? 1,
  };
}

/**
 * YCSB against site.ycsb.BasicDB (no database), with the project's workload class on the classpath: every phase of a
 * plan runs it (model/workloads.ts PROJECT_WORKLOAD), and BasicDB brings no binding jar that would hold it.
 */
export async function basicDbSetup(a: Omit<Parameters<typeof ycsbSetup>[0], "db"> = {}): Promise<YcsbSetup> {
  const common = join(await bindingClasspathDir("common"), "*");
  return ycsbSetup({ ...a, db: "basic", classpath: [...(a.classpath ?? []), common] });
}
