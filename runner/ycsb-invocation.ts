import { clientPhaseProperties, type PlanPhase } from "../model/index.js";
import { buildYcsbCommand } from "./ycsb-process.js";

/** The YCSB release the runner drives (scripts/fetch-ycsb.sh fetches exactly this one from Maven Central). */
export const YCSB_VERSION = "0.17.0";

export interface YcsbSetup {
  java: string;
  /** Classpath entries, in order: HdrHistogram 2.1.12 before core so logs are V2 (DESIGN.md). */
  classpath: string[];
  /** The site.ycsb.DB class: our binding, or site.ycsb.BasicDB for a run without a database. */
  db: string;
  /** Extra -p properties for the binding (hosts, ports), recorded with the phase. */
  properties: Record<string, string>;
  /** Seconds between -s status lines; 1 s lets the validity check see 10 s dips (runner/validity.ts). */
  statusIntervalSec: number;
}

export interface YcsbInvocation {
  argv: string[];
  /** Every property passed with -p, as recorded in the result document. */
  properties: Record<string, string>;
}

/** The java command line of one client in one phase (pure). `hdrPrefix` is where YCSB writes <OP>.hdr. */
export function ycsbInvocation(
  setup: YcsbSetup,
  phase: PlanPhase,
  clientIndex: number,
  hdrPrefix: string,
): YcsbInvocation {
  if (phase.kind !== "load" && phase.kind !== "warmup" && phase.kind !== "workload") {
    throw new Error(`phase ${phase.name}: a ${phase.kind} phase runs no YCSB`);
  }
  const properties: Record<string, string> = {
    ...clientPhaseProperties(phase, clientIndex),
    ...setup.properties,
    "status.interval": String(setup.statusIntervalSec),
    measurementtype: "hdrhistogram",
    "hdrhistogram.fileoutput": "true",
    "hdrhistogram.output.path": hdrPrefix,
    "hdrhistogram.percentiles": "50,90,95,99,99.9,99.99",
  };
  // The one YCSB command builder (ycsb-process.ts), also behind `ycsb-lab ycsb`.
  const cmd = buildYcsbCommand({
    phase: phase.kind === "load" ? "load" : "run",
    dbClass: setup.db,
    classpath: setup.classpath,
    properties,
    threads: phase.threadsPerClient,
    ...(phase.targetPerClient ? { target: Math.max(1, Math.round(phase.targetPerClient)) } : {}),
    status: true,
    javaBin: setup.java,
  });
  return { argv: [cmd.command, ...cmd.args], properties };
}

/** A command line as a shell would need it, for --dry-run. */
export function shellQuote(argv: string[]): string {
  return argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(" ");
}
