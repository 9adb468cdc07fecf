import { isEngine } from "../../model/engine.js";
import { clientProperties, isPreset, PRESETS } from "../../model/presets.js";
import { WORKLOADS } from "../../model/workloads.js";
import { bindingClasspathDir, ycsbCoreDir } from "../../runner/java-artifacts.js";
import { readState } from "../../runner/local/engine.js";
import { loadLocalEngine, localEngineNames } from "../../runner/local/registry.js";
import { buildYcsbCommand, spawnYcsb } from "../../runner/ycsb-process.js";
import { type Command, InputError, parseCommandArgs, UsageError } from "../command.js";

const usage = `Usage: ycsb-lab ycsb --engine <engine> [--preset P] [--workload ID] [--dry-run] -- [YCSB args]

Run YCSB (site.ycsb.Client) against the running local engine (ycsb-lab local up) with our binding, the
preset's client-side properties (model/presets.ts), and the engine's connection properties. YCSB's own
output is printed as is; the exit code is YCSB's.

  --engine E       ${localEngineNames().join(", ")}
  --preset P       ${PRESETS.join(", ")} (default: the preset the engine was started with; must match it)
  --workload ID    a workload of the catalogue (model/workloads.ts), passed as -p properties
  --dry-run        print the java command line instead of running it
  YCSB args        e.g. -load -p recordcount=1000 -threads 4 -s  (-t is the default phase; later -p win)

On -load the engine's schema is prepared first, with the fieldcount given as -p fieldcount=N (default 10).
`;

const KNOWN_WORKLOADS = WORKLOADS as Record<string, { properties: Record<string, string> }>;

/** Pure: splits the YCSB arguments into the phase and the rest; reads -p fieldcount. */
export function splitYcsbArgs(args: string[]): { phase: "load" | "run"; rest: string[]; fieldCount?: number } {
  let phase: "load" | "run" = "run";
  const rest: string[] = [];
  let fieldCount: number | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "-load") phase = "load";
    else if (a === "-t") phase = "run";
    else {
      rest.push(a);
      const next = args[i + 1];
      if (a === "-p" && next?.startsWith("fieldcount=")) {
        fieldCount = Number(next.slice("fieldcount=".length));
        if (!Number.isInteger(fieldCount) || fieldCount < 1)
          throw new UsageError(`-p fieldcount: must be a positive integer, got "${next}"`);
      }
    }
  }
  return { phase, rest, fieldCount };
}

export const command: Command = {
  name: "ycsb",
  summary: "Run YCSB with our binding against a running local engine",
  usage,
  async run(args) {
    const dash = args.indexOf("--");
    const own = dash < 0 ? args : args.slice(0, dash);
    const ycsbArgs = dash < 0 ? [] : args.slice(dash + 1);
    const { values } = parseCommandArgs(
      {
        args: own,
        options: {
          engine: { type: "string" },
          preset: { type: "string" },
          workload: { type: "string" },
          "dry-run": { type: "boolean" },
        },
        strict: true,
      },
      " (YCSB's own arguments go after --)",
    );
    if (!values.engine) throw new UsageError("--engine is required");
    if (!isEngine(values.engine)) throw new UsageError(`--engine: unknown engine "${values.engine}"`);
    const engine = values.engine;
    if (values.preset !== undefined && !isPreset(values.preset)) {
      throw new UsageError(`--preset: unknown preset "${values.preset}" (known: ${PRESETS.join(", ")})`);
    }
    let workloadProps: Record<string, string> = {};
    if (values.workload !== undefined) {
      const w = KNOWN_WORKLOADS[values.workload];
      if (!w)
        throw new UsageError(
          `--workload: unknown workload "${values.workload}" (known: ${Object.keys(KNOWN_WORKLOADS).join(", ")})`,
        );
      // YCSB's workloads/workload[a-f] files set both counts to 1000, and CoreWorkload needs operationcount even to load.
      workloadProps = { recordcount: "1000", operationcount: "1000", ...w.properties };
    }
    const local = await loadLocalEngine(engine);
    const state = await readState(engine);
    if (!state)
      throw new InputError(`no local ${engine} is running: start one with "ycsb-lab local up --engine ${engine}"`);
    const preset = values.preset ?? state.preset;
    if (!isPreset(preset)) throw new InputError(`state file: unknown preset "${preset}"`);
    if (preset !== state.preset) {
      throw new InputError(
        `--preset ${preset}: the running ${engine} was started with preset ${state.preset}, whose server side cannot change without a restart`,
      );
    }
    const { phase, rest, fieldCount } = splitYcsbArgs(ycsbArgs);
    const bindingDir = await bindingClasspathDir(local.binding.module);
    const cmd = buildYcsbCommand({
      phase,
      dbClass: local.binding.dbClass,
      ycsbCoreDir: ycsbCoreDir(),
      bindingDirs: [bindingDir],
      properties: { ...workloadProps, ...clientProperties(engine, preset), ...local.connectionProperties(state) },
      extraArgs: rest,
    });
    if (values["dry-run"]) {
      process.stdout.write(
        `${[cmd.command, ...cmd.args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", "'\\''")}'`)).join(" ")}\n`,
      );
      return 0;
    }
    if (phase === "load" && local.prepareSchema) await local.prepareSchema(state, { preset, fieldCount });
    const result = await spawnYcsb(cmd, {
      onStdout: (c) => process.stdout.write(c),
      onStderr: (c) => process.stderr.write(c),
    });
    return result.exitCode;
  },
};
