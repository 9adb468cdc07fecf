import { spawn } from "node:child_process";
import { join } from "node:path";

/** Runs CQL through the binding's CqlTool (same driver as YCSB; there is no cqlsh here) and returns the rows. */
export interface CqlRequest {
  /** The Cassandra binding's classpath folder (scripts/build-bindings.sh cassandra). */
  bindingDir: string;
  /** YCSB core folder: the binding module compiles against it. */
  ycsbCoreDir: string;
  hosts: string[];
  port?: number;
  statements: string[];
  /** Run each statement on every node; rows get a `_node` field. */
  eachNode?: boolean;
  /** Further binding properties, e.g. cassandra.readconsistencylevel=ALL. */
  properties?: Record<string, string>;
  /** Give up after this long. @default 120000 */
  timeoutMs?: number;
}

export interface CqlResult {
  rows: Record<string, unknown>[];
  exitCode: number;
  stderr: string;
}

export const CQL_TOOL_CLASS = "io.ycsblab.bindings.cassandra.CqlTool";

export function runCql(req: CqlRequest): Promise<CqlResult> {
  const args = [
    "-Xmx256m",
    "-cp",
    `${join(req.bindingDir, "*")}:${join(req.ycsbCoreDir, "*")}`,
    CQL_TOOL_CLASS,
    "-p",
    `hosts=${req.hosts.join(",")}`,
    "-p",
    `port=${req.port ?? 9042}`,
    ...(req.eachNode ? ["-p", "cqltool.eachnode=true"] : []),
    ...Object.entries(req.properties ?? {}).flatMap(([k, v]) => ["-p", `${k}=${v}`]),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn("java", args, { stdio: ["pipe", "pipe", "pipe"], timeout: req.timeoutMs ?? 120_000 });
    const out: string[] = [];
    const err: string[] = [];
    child.stdout.setEncoding("utf8").on("data", (c: string) => out.push(c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => err.push(c));
    child.on("error", (e) => reject(new Error(`cql: cannot start java: ${e.message}`)));
    child.on("close", (code) => {
      const rows = out
        .join("")
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      resolve({ rows, exitCode: code ?? 1, stderr: err.join("") });
    });
    child.stdin.end(req.statements.map((s) => `${s.replace(/;\s*$/, "")};\n`).join(""));
  });
}

/** Like runCql, but a failed statement is an error naming it. */
export async function queryCql(req: CqlRequest): Promise<Record<string, unknown>[]> {
  const result = await runCql(req);
  if (result.exitCode !== 0) {
    throw new Error(
      `cql failed (exit ${result.exitCode}) on ${req.hosts.join(",")}: ${result.stderr.trim().split("\n").slice(-5).join("\n")}`,
    );
  }
  return result.rows;
}
