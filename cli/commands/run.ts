import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { isEngine, isProjectWorkload, type Plan } from "../../model/index.js";
import { parsePlan } from "../../model/plan-schema.js";
import { passiveActions } from "../../runner/engine-actions.js";
import { dryRunLines, executePlan } from "../../runner/execute.js";
import { bindingClasspathDir } from "../../runner/java-artifacts.js";
import { LiveLine } from "../../runner/live-line.js";
import { openResultsStore } from "../../runner/open-results-store.js";
import { DB_ALIASES, ycsbSetup } from "../../runner/ycsb-setup.js";
import { type Command, InputError, parseCommandArgs, UsageError } from "../command.js";
import { PLAN_OPTIONS, planFromOptions } from "./plan.js";

const usage = `Usage: ycsb-lab run --plan plan.json --client-index I --clients N --results <s3://bucket/prefix | file://dir>
                    --run-id ID --db CLASS [options]

Runs a plan's phases as client I of N: a barrier in the results store before every phase, YCSB for each
phase, results written to a local spool and uploaded with retries, a manifest when every client is done.
A restarted client resumes after its last finished phase.

Options:
  --plan FILE           a plan from \`ycsb-lab plan --format json\` (or --scenario and the plan options)
  --client-index I      this client's index, 0-based
  --clients N           how many clients run the plan (must match the plan)
  --results URI         s3://bucket/prefix or file://dir
  --run-id ID           the run's id, the same on every client (letters, digits, . _ : -)
  --db CLASS            the YCSB DB class of the binding, or "basic" for site.ycsb.BasicDB (no database)
  --classpath CP        extra classpath entries (the binding's jars), ':'-separated
  -p KEY=VALUE          binding/connection property (repeatable), e.g. -p hosts=10.0.0.5
  --spool DIR           local spool (default: .spool/<run-id>/client-<I>)
  --barrier-timeout S   seconds a client waits at a barrier for the others (default 3900)
  --s3-endpoint URL     S3 endpoint override (an emulator); path-style addressing
  --ycsb-dir DIR        YCSB jars (default: the folder scripts/fetch-ycsb.sh prints)
  --local-engine E      prepare/settle against the engine \`ycsb-lab local up\` started (empties the table first)
  --dry-run             print every YCSB command line of this client and exit
`;

const RUN_ID = /^[A-Za-z0-9._:-]{1,200}$/;

export const command: Command = {
  name: "run",
  summary: "Run a plan's phases as one client, in lock-step with the others",
  usage,
  async run(args) {
    const { values } = parseCommandArgs({
      args,
      strict: true,
      options: {
        ...PLAN_OPTIONS,
        plan: { type: "string" },
        "client-index": { type: "string" },
        results: { type: "string" },
        "run-id": { type: "string" },
        db: { type: "string" },
        classpath: { type: "string" },
        p: { type: "string", short: "p", multiple: true },
        spool: { type: "string" },
        "barrier-timeout": { type: "string" },
        "s3-endpoint": { type: "string" },
        "ycsb-dir": { type: "string" },
        "dry-run": { type: "boolean" },
        "local-engine": { type: "string" },
      },
    });
    const clientIndex = Number(values["client-index"] ?? "0");
    if (!Number.isInteger(clientIndex) || clientIndex < 0)
      throw new UsageError(`--client-index: a whole number >= 0, got "${values["client-index"]}"`);
    if (!values.db)
      throw new UsageError('--db is required (the binding\'s DB class, or "basic" for site.ycsb.BasicDB)');
    const properties: Record<string, string> = {};
    for (const kv of values.p ?? []) {
      const eq = kv.indexOf("=");
      if (eq < 1) throw new UsageError(`-p: expected KEY=VALUE, got "${kv}"`);
      properties[kv.slice(0, eq)] = kv.slice(eq + 1);
    }

    let plan: Plan;
    if (values.plan) {
      if (values.scenario) throw new UsageError("give --plan or --scenario, not both");
      let text: string;
      try {
        text = await readFile(values.plan, "utf8");
      } catch (err) {
        throw new InputError(`--plan: cannot read ${values.plan}: ${(err as Error).message}`);
      }
      try {
        plan = parsePlan(text, values.plan);
      } catch (err) {
        throw new InputError(`--plan: ${(err as Error).message}`);
      }
    } else {
      plan = await planFromOptions(values);
    }
    if (values.clients !== undefined && Number(values.clients) !== plan.deployment.clients) {
      throw new UsageError(
        `--clients ${values.clients} does not match the plan, which was made for ${plan.deployment.clients} client(s)`,
      );
    }
    if (clientIndex >= plan.deployment.clients)
      throw new UsageError(`--client-index ${clientIndex}: the plan has clients 0..${plan.deployment.clients - 1}`);
    const classpath = values.classpath?.split(":").filter(Boolean) ?? [];
    // Plans run the project's workload class (runner/bindings common): every binding's classpath holds it; a run
    // without a database (BasicDB) gets the common module's.
    if (DB_ALIASES[values.db] && plan.phases.some((p) => isProjectWorkload(p.properties.workload))) {
      classpath.push(join(await bindingClasspathDir("common"), "*"));
    }
    const ycsb = ycsbSetup({ db: values.db, classpath, properties, ycsbDir: values["ycsb-dir"] });

    if (values["dry-run"]) {
      process.stdout.write(`${dryRunLines(plan, clientIndex, ycsb).join("\n")}\n`);
      return 0;
    }
    if (!values.results) throw new UsageError("--results is required (s3://bucket/prefix or file://dir)");
    const runId = values["run-id"];
    if (!runId || !RUN_ID.test(runId))
      throw new UsageError(`--run-id: required, letters, digits and . _ : - only (got "${runId ?? ""}")`);
    const barrierSec = Number(values["barrier-timeout"] ?? "3900");
    if (!(barrierSec > 0)) throw new UsageError(`--barrier-timeout: seconds > 0, got "${values["barrier-timeout"]}"`);
    const store = await openResultsStore(values.results, { endpoint: values["s3-endpoint"] });
    const isBasic = ycsb.db === "site.ycsb.BasicDB";
    const localEngine = values["local-engine"];
    if (localEngine !== undefined && !isEngine(localEngine))
      throw new UsageError(`--local-engine: unknown engine "${localEngine}"`);
    const term = consoleOf(process.stderr);
    const log = (line: string) => term.message(`[client ${clientIndex}] ${line}`);
    const outcome = await executePlan({
      plan,
      runId,
      clientIndex,
      store,
      spoolDir: values.spool ?? join(".spool", runId, `client-${clientIndex}`),
      ycsb,
      actions: localEngine
        ? (await import("../../runner/local-actions.js")).localEngineActions(localEngine, log)
        : passiveActions(isBasic ? "none (site.ycsb.BasicDB)" : "prepared by the deployment"),
      barrierTimeoutMs: barrierSec * 1000,
      ycsbLabVersion: await packageVersion(),
      standIn: isBasic
        ? "site.ycsb.BasicDB: no database"
        : localEngine
          ? (await (await import("../../runner/local/registry.js")).loadLocalEngine(localEngine)).standIn
          : undefined,
      ...(localEngine || isBasic ? { machine: "local" } : {}),
      log,
      progress: term.progress,
    });
    term.end();
    if (!outcome.complete) {
      process.stderr.write(`ycsb-lab run: run ${runId} incomplete: ${outcome.reason}\n`);
      return 3;
    }
    process.stderr.write(
      `[client ${clientIndex}] run ${runId} complete: ${outcome.phasesRun} phase(s) run, ${outcome.phasesSkipped} skipped; results in ${store.uri}\n`,
    );
    return 0;
  },
};

export async function packageVersion(): Promise<string> {
  // A kit has no package.json: its manifest carries the version it was built from.
  const kit = (await import("../../runner/kit-layout.js")).currentKit();
  if (kit) return kit.manifest.version;
  const pkg = JSON.parse(await readFile(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  return pkg.version;
}

/**
 * Messages and the progress line on one stream. On a terminal the progress line is redrawn in place and a message
 * never lands on the same line (runner/live-line.ts); in a log, one progress line every 10 s at most.
 */
export function consoleOf(out: NodeJS.WriteStream): {
  message: (text: string) => void;
  progress: (line: string) => void;
  end: () => void;
} {
  if (out.isTTY) {
    const live = new LiveLine();
    return {
      message: (t) => out.write(live.message(t)),
      progress: (l) => out.write(live.progress(l)),
      end: () => out.write(live.end()),
    };
  }
  let last = 0;
  return {
    message: (t) => out.write(`${t}\n`),
    progress: (l) => {
      if (Date.now() - last < 10_000) return;
      last = Date.now();
      out.write(`${l}\n`);
    },
    end: () => {},
  };
}
