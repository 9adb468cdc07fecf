import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/** Runs the Java cross-check programs of tools/hdr-java against a named HdrHistogram version. */
export type JavaHdrVersion = "2.1.12" | "2.1.4";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface JavaMergeResult {
  /** The HdrHistogram jar actually loaded, e.g. HdrHistogram-2.1.12.jar. */
  library: string;
  /** Read + add time inside the JVM (startup excluded). */
  millis: number;
  intervals: number;
  operations: Record<
    string,
    { count: number; mean: number; min: number; max: number; percentiles: Record<string, number> }
  >;
}

/** Compiles (once) and returns the classpath for `version`. */
export function javaClasspath(version: JavaHdrVersion): string {
  return execFileSync("bash", [`${ROOT}tools/hdr-java/build.sh`, version], { cwd: ROOT, encoding: "utf8" }).trim();
}

function java(version: JavaHdrVersion, main: string, args: string[]): string {
  return execFileSync("java", ["-cp", javaClasspath(version), main, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** HdrHistogram's HistogramLogReader + Histogram.add over `files`, per operation (file name). */
export function javaMerge(
  version: JavaHdrVersion,
  files: string[],
  opts: { fromSec?: number; toSec?: number; percentiles?: number[] } = {},
): JavaMergeResult {
  const args: string[] = [];
  if (opts.fromSec !== undefined) args.push("--from", String(opts.fromSec));
  if (opts.toSec !== undefined) args.push("--to", String(opts.toSec));
  if (opts.percentiles) args.push("--percentiles", opts.percentiles.map(String).join(","));
  return JSON.parse(java(version, "HdrMerge", [...args, ...files])) as JavaMergeResult;
}

/** Rewrites a log with `version`'s own encoding (2.1.12 writes V2). */
export function javaReencode(version: JavaHdrVersion, input: string, output: string): void {
  java(version, "ReencodeLog", [input, output]);
}

/** Writes YCSB-like benchmark logs OUT/client-N/READ.hdr with HdrHistogram's HistogramLogWriter. */
export function javaMakeBenchLogs(out: string, clients: number, intervals: number, perInterval: number): void {
  execFileSync(
    "java",
    ["-cp", javaClasspath("2.1.12"), "MakeBenchLogs", out, String(clients), String(intervals), String(perInterval)],
    { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] },
  );
}
