import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** Shared by the test/tools/hdr-java/hdr-*.test.ts files: the real two-client YCSB fixtures
 * (scripts/make-ycsb-fixtures.sh). */
export const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
export const FIXTURES = join(ROOT, "test/fixtures/ycsb");
export const ENCODINGS = ["v1", "v2"] as const;
export type Encoding = (typeof ENCODINGS)[number];

export const clientDirs = (encoding: Encoding): string[] =>
  [0, 1].map((c) => join(FIXTURES, `hdr-${encoding}`, `client-${c}`));

export const hdrFiles = (dir: string): string[] =>
  readdirSync(dir)
    .filter((n) => n.endsWith(".hdr"))
    .sort()
    .map((n) => join(dir, n));

/** `[OP], Operations, N` from a client's YCSB stdout beside its logs. */
export function stdoutOperations(dir: string): Record<string, number> {
  const ops: Record<string, number> = {};
  for (const m of readFileSync(join(dir, "stdout.txt"), "utf8").matchAll(/^\[([^\]]+)\], Operations, (\d+)$/gm)) {
    ops[m[1]!] = Number(m[2]);
  }
  return ops;
}

/** Data lines of a log, counted without our parser: not a comment, not the legend, not blank. */
export const dataLines = (text: string): string[] =>
  text.split("\n").filter((l) => l.trim() !== "" && !l.startsWith("#") && !l.startsWith('"'));
