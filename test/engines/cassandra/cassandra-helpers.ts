import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bindingClasspathDir, ycsbCoreDir } from "../../../runner/java-artifacts.js";
import { queryCql } from "../../../runner/local/cassandra-cql.js";

/** Shared by the Cassandra integration tests: the CLI as a user runs it, and CQL through our driver. */

export const REPO = fileURLToPath(new URL("../../..", import.meta.url));

/**
 * Gives a test file its own loopback addresses and state folder (inherited by the CLI it spawns), so it
 * never touches engines a developer or another suite started with the defaults.
 */
export function isolateLocalEngines(name: string, loopbackPrefix: string): void {
  process.env.YCSB_LAB_LOCAL_DIR = join(REPO, ".local", "test", name);
  process.env.YCSB_LAB_LOOPBACK_PREFIX = loopbackPrefix;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function cli(args: string[], timeoutMs = 300_000): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "cli/main.ts", ...args],
      { cwd: REPO, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

export async function cql(
  hosts: string[],
  statements: string[],
  properties?: Record<string, string>,
): Promise<Record<string, unknown>[]> {
  return queryCql({
    bindingDir: await bindingClasspathDir("cassandra"),
    ycsbCoreDir: ycsbCoreDir(),
    hosts,
    statements,
    properties,
  });
}

/** java.lang.String#hashCode. */
function javaHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}

/** The value YCSB's CoreWorkload writes with dataintegrity=true (buildDeterministicValue), recomputed independently. */
export function ycsbDeterministicValue(key: string, field: string, length: number): string {
  let value = `${key}:${field}`;
  while (value.length < length) {
    value += ":";
    value += String(javaHash(value));
  }
  return value.slice(0, length);
}
