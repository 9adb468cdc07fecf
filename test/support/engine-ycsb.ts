import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect } from "vitest";
import type { Engine } from "../../model/engine.js";
import { clientProperties, type Preset } from "../../model/presets.js";
import { workload } from "../../model/workloads.js";
import { engineDir } from "../../runner/local/engine.js";
import { parseYcsbOutput } from "../../runner/ycsb-output/index.js";

const run = promisify(execFile);
export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Classpath of real YCSB 0.17.0 core (HdrHistogram 2.1.12 first, DESIGN.md) plus one of our binding modules. */
export async function ycsbClasspath(module: string): Promise<string[]> {
  const ycsb = (await run("bash", [join(REPO_ROOT, "scripts", "fetch-ycsb.sh")], { maxBuffer: 1 << 20 })).stdout.trim();
  const built = (await run("bash", [join(REPO_ROOT, "scripts", "build-bindings.sh"), module], { maxBuffer: 1 << 22 }))
    .stdout;
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
    "-cp",
    opts.classpath.join(":"),
    "site.ycsb.Client",
    opts.phase === "load" ? "-load" : "-t",
    "-db",
    opts.dbClass,
    "-threads",
    String(opts.threads ?? 4),
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

/**
 * A folder of this test for local engines' state and data, set as YCSB_LAB_LOCAL_DIR so that nothing touches
 * the user's .local/engines; `dataDir` is where the engine keeps its nodes. `remove()` undoes both.
 */
export async function testLocalDir(engine: Engine): Promise<{ dataDir: string; remove(): Promise<void> }> {
  const localDir = await mkdtemp(join(tmpdir(), `ycsb-lab-${engine}-`));
  process.env.YCSB_LAB_LOCAL_DIR = localDir;
  return {
    dataDir: engineDir(engine),
    async remove() {
      await rm(localDir, { recursive: true, force: true });
      delete process.env.YCSB_LAB_LOCAL_DIR;
    },
  };
}

/**
 * Workload A ran cleanly against a real server: every operation a read or an update, some of each, all OK,
 * every read checked by YCSB itself (dataintegrity=true: one VERIFY per read), and no failed group.
 */
export function expectCleanWorkloadA(output: ReturnType<typeof parseYcsbOutput>, operations: number): void {
  const reads = returnCount(output, "READ");
  const updates = returnCount(output, "UPDATE");
  expect(reads + updates).toBe(operations);
  expect(reads).toBeGreaterThan(0);
  expect(updates).toBeGreaterThan(0);
  expect(returnCount(output, "VERIFY")).toBe(reads);
  expect(Object.keys(output.operations).filter((g) => g.endsWith("-FAILED"))).toEqual([]);
}
