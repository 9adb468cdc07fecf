import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { clientProperties, type Preset } from "../../model/presets.js";
import { workload } from "../../model/workloads.js";
import type { Engine } from "../../model/engine.js";
import { parseYcsbOutput } from "../../runner/ycsb-output/index.js";

const run = promisify(execFile);
export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Classpath of real YCSB 0.17.0 core (HdrHistogram 2.1.12 first, DESIGN.md) plus one of our binding modules. */
export async function ycsbClasspath(module: string): Promise<string[]> {
  const ycsb = (await run("bash", [join(REPO_ROOT, "scripts", "fetch-ycsb.sh")], { maxBuffer: 1 << 20 })).stdout.trim();
  const built = (await run("bash", [join(REPO_ROOT, "scripts", "build-bindings.sh"), module], { maxBuffer: 1 << 22 })).stdout;
  const dir = built.trim().split("\n").pop()!;
  return [join(ycsb, "hdr-2.1.12", "*"), join(ycsb, "core", "*"), join(dir, "*")];
}

export interface YcsbRunOptions {
  engine: Engine;
  preset: Preset;
  classpath: string[];
  dbClass: string;
  phase: "load" | "run";
  /** Connection properties of the running engine. */
  connection: Record<string, string>;
  records: number;
  operations?: number;
  threads?: number;
  extra?: Record<string, string>;
}

/** Runs one YCSB phase of workload A with the preset's client properties from model/, parsed by runner/ycsb-output. */
export async function runYcsb(opts: YcsbRunOptions) {
  const properties: Record<string, string> = {
    ...workload("a").properties,
    recordcount: String(opts.records),
    operationcount: String(opts.operations ?? opts.records),
    fieldcount: "10",
    fieldlength: "100",
    ...clientProperties(opts.engine, opts.preset),
    ...opts.connection,
    ...opts.extra,
  };
  const args = [
    "-cp", opts.classpath.join(":"), "site.ycsb.Client", opts.phase === "load" ? "-load" : "-t",
    "-db", opts.dbClass, "-threads", String(opts.threads ?? 4),
    ...Object.entries(properties).flatMap(([k, v]) => ["-p", `${k}=${v}`]),
  ];
  const { stdout, stderr } = await run("java", args, { maxBuffer: 64 << 20 });
  return { output: parseYcsbOutput(stdout, stderr), stdout, stderr, properties };
}

/** `Return=OK` count of an operation group, 0 when absent. */
export function returnCount(output: ReturnType<typeof parseYcsbOutput>, group: string, code = "OK"): number {
  return output.operations[group]?.returns[code] ?? 0;
}

/** Java's String.hashCode (32-bit, wrapping). */
function javaStringHash(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  return hash;
}

/**
 * The value YCSB 0.17.0 writes for (key, field) with dataintegrity=true and a constant field length
 * (CoreWorkload.buildDeterministicValue): lets a test check the database's bytes without trusting our binding.
 */
export function deterministicValue(key: string, field: string, length: number): string {
  let text = `${key}:${field}`;
  while (text.length < length) {
    text += ":";
    text += String(javaStringHash(text));
  }
  return text.slice(0, length);
}
