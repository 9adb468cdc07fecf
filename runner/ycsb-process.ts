import { spawn } from "node:child_process";
import { delimiter, join } from "node:path";

/** How to start one YCSB client JVM: site.ycsb.Client with a binding on the classpath. */
export interface YcsbCommandSpec {
  /** "load" runs the insert phase (-load), "run" the transaction phase (-t). */
  phase: "load" | "run";
  /** The site.ycsb.DB class of the binding, e.g. io.ycsblab.bindings.cassandra.CassandraDB. */
  dbClass: string;
  /** Folder of YCSB core and its dependencies. */
  ycsbCoreDir?: string;
  /** Classpath folders of the binding (each becomes `dir/*`). */
  bindingDirs?: string[];
  /** The classpath entries themselves, already in ycsbClasspath()'s order (the runner's YcsbSetup); replaces the folders. */
  classpath?: readonly string[];
  /** A folder with HdrHistogram 2.1.12, put first so it wins over core's 2.1.4 (V2 logs, no jaxb; DESIGN.md). */
  hdrHistogramDir?: string;
  /** YCSB properties, each passed as `-p name=value`, in order (later ones win in YCSB). */
  properties?: Record<string, string>;
  /** Workload property files (`-P`). */
  propertyFiles?: string[];
  threads?: number;
  /** Operations per second over all threads; 0 or unset = unthrottled. */
  target?: number;
  /** Print a status line every `status.interval` seconds on stderr (`-s`). */
  status?: boolean;
  /** Arguments given by the user, appended last (so they override). */
  extraArgs?: string[];
  /** JVM flags. @default DEFAULT_YCSB_JVM_FLAGS */
  jvmFlags?: string[];
  /** @default "java" */
  javaBin?: string;
}

export interface JavaCommand {
  command: string;
  args: string[];
}

/** A client JVM needs little heap; the flags keep its footprint predictable next to local servers. */
export const DEFAULT_YCSB_JVM_FLAGS: readonly string[] = ["-Xms256m", "-Xmx1g", "-XX:+UseG1GC"];

export const YCSB_MAIN_CLASS = "site.ycsb.Client";

/**
 * The one classpath order of a YCSB client, for the runner (ycsb-setup.ts) and the `ycsb` command alike:
 * HdrHistogram 2.1.12 first so it wins over core's 2.1.4 (V2 logs, no jaxb; DESIGN.md), then YCSB core, then the
 * binding. Entries as Java reads them (`dir/*` for a folder of jars).
 */
export function ycsbClasspath(o: { hdrHistogram?: string; core: string; bindings: readonly string[] }): string[] {
  return [...(o.hdrHistogram ? [o.hdrHistogram] : []), o.core, ...o.bindings];
}

/** Pure: the java command line for a YCSB client. */
/**
 * The thread count to pass YCSB: at most the operations the client will do. YCSB 0.17.0's Client.main sizes the
 * latch its status thread waits on by the requested -threads before initDb lowers the thread count to the operation
 * count ("the threadcount is bigger than recordcount"), so with more threads than operations the latch never reaches
 * zero and the JVM exits only if the status thread sees main's interrupt, which HdrHistogram's phaser can swallow
 * (WriterReaderPhaser.flipPhase sleeps and ignores InterruptedException): the process then hangs after its last
 * operation. Passing the lowered count makes the latch and the threads agree. (javap of site.ycsb.Client: the
 * CountDownLatch is constructed before initDb is called.)
 */
export function threadsForCount(threads: number, phase: "load" | "run", properties: Record<string, string>): number {
  const count = phase === "load" ? (properties.insertcount ?? properties.recordcount) : properties.operationcount;
  const n = count === undefined ? Number.NaN : Number(count);
  return Number.isSafeInteger(n) && n > 0 && n < threads ? n : threads;
}

export function buildYcsbCommand(spec: YcsbCommandSpec): JavaCommand {
  if (!spec.dbClass) throw new Error("ycsb: dbClass is required");
  if (!spec.classpath && !spec.bindingDirs?.length)
    throw new Error("ycsb: at least one binding classpath folder is required");
  if (!spec.classpath && !spec.ycsbCoreDir) throw new Error("ycsb: the YCSB core folder is required");
  if (spec.threads !== undefined && !(Number.isInteger(spec.threads) && spec.threads > 0)) {
    throw new Error(`ycsb: threads must be a positive integer, got ${spec.threads}`);
  }
  if (spec.target !== undefined && !(Number.isFinite(spec.target) && spec.target >= 0)) {
    throw new Error(`ycsb: target must be a non-negative number, got ${spec.target}`);
  }
  const classpath = (
    spec.classpath ??
    ycsbClasspath({
      ...(spec.hdrHistogramDir ? { hdrHistogram: join(spec.hdrHistogramDir, "*") } : {}),
      core: join(spec.ycsbCoreDir!, "*"),
      bindings: spec.bindingDirs!.map((d) => join(d, "*")),
    })
  ).join(delimiter);
  const args = [...(spec.jvmFlags ?? DEFAULT_YCSB_JVM_FLAGS), "-cp", classpath, YCSB_MAIN_CLASS];
  args.push(spec.phase === "load" ? "-load" : "-t", "-db", spec.dbClass);
  for (const file of spec.propertyFiles ?? []) args.push("-P", file);
  for (const [name, value] of Object.entries(spec.properties ?? {})) {
    if (!name || name.includes("=")) throw new Error(`ycsb: bad property name "${name}"`);
    args.push("-p", `${name}=${value}`);
  }
  if (spec.threads !== undefined)
    args.push("-threads", String(threadsForCount(spec.threads, spec.phase, spec.properties ?? {})));
  if (spec.target) args.push("-target", String(spec.target));
  if (spec.status) args.push("-s");
  args.push(...(spec.extraArgs ?? []));
  return { command: spec.javaBin ?? "java", args };
}

export interface YcsbProcessResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface SpawnYcsbOptions {
  /** Streams as they come (e.g. to the terminal); the full text is also returned. */
  onStdout?: (chunk: string) => void;
  onStderr?: (chunk: string) => void;
  cwd?: string;
  signal?: AbortSignal;
}

/** Thin spawner: runs the command, collects stdout/stderr. YCSB exits 0 even when operations failed. */
export function spawnYcsb(cmd: JavaCommand, opts: SpawnYcsbOptions = {}): Promise<YcsbProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd.command, cmd.args, {
      cwd: opts.cwd,
      stdio: ["ignore", "pipe", "pipe"],
      signal: opts.signal,
    });
    const out: string[] = [];
    const err: string[] = [];
    child.stdout.setEncoding("utf8").on("data", (c: string) => {
      out.push(c);
      opts.onStdout?.(c);
    });
    child.stderr.setEncoding("utf8").on("data", (c: string) => {
      err.push(c);
      opts.onStderr?.(c);
    });
    child.on("error", (e) => reject(new Error(`ycsb: cannot start ${cmd.command}: ${e.message}`)));
    child.on("close", (code, signal) =>
      resolve({ exitCode: code ?? (signal ? 128 : 1), stdout: out.join(""), stderr: err.join("") }),
    );
  });
}
