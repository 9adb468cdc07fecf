import { parseArgs } from "node:util";
import { type Engine, isEngine } from "../../model/engine.js";
import { isPreset, PRESETS, type Preset } from "../../model/presets.js";
import { engineDir, nodeAlive, pidsOf, readState, removeState } from "../../runner/local/engine.js";
import { loadLocalEngine, localEngineNames } from "../../runner/local/registry.js";
import { type Command, InputError, UsageError } from "../command.js";

const usage = `Usage: ycsb-lab local <up|status|down|run> [options]

Start, inspect and stop real database servers on this machine (state in .local/engines/<engine>/state.json).

  ycsb-lab local up --engine <engine> [--nodes N] [--preset P]
      Start N nodes (default 1) with the preset's server side (default balanced), wait until every node
      is up and normal, and prepare the YCSB schema. Data starts empty on every up.
  ycsb-lab local status [--engine <engine>] [--json]
      Show what runs (all engines when --engine is omitted); exit 1 when an engine is not ready.
  ycsb-lab local down [--engine <engine>]
      Stop the engine's nodes (all running engines when --engine is omitted).

  ycsb-lab local run --engine <engine> [--scenario S] [--clients 1|2] [--scale F] [--threads N [--target R]]
                    [--capacity SLO [--maximum OPS] [--fractions LIST] [--resolution OPS] [--max-steps N]
                    [--error-budget PCT]]
      Bring the engine up, run the scenario's plan in lock-step, store results under ./results
      (see docs/runner.md, "The local main job").
      --threads N [--target R]: the scenario as a cell one machine can run (model/local-cell.ts): N threads per
      client for every phase and a total target of R ops/s instead of its thread steps; its runs keep its name.
      --capacity SLO: run the scenario's capacity variant (as \`ycsb-lab plan --capacity\` builds it, same options)
      and print each search's outcome: the sustainable throughput, the step that broke and why, and that a local
      run has no price. A scenario file's own \`capacity\` search is reported the same way.

Engines: ${localEngineNames().join(", ")}    Presets: ${PRESETS.join(", ")}
`;

function engineOption(value: string | undefined, required: boolean): Engine | undefined {
  if (value === undefined) {
    if (required) throw new UsageError("--engine is required");
    return undefined;
  }
  if (!isEngine(value)) throw new UsageError(`--engine: unknown engine "${value}"`);
  return value;
}

function presetOption(value: string | undefined): Preset {
  if (value === undefined) return "balanced";
  if (!isPreset(value)) throw new UsageError(`--preset: unknown preset "${value}" (known: ${PRESETS.join(", ")})`);
  return value;
}

async function up(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { engine: { type: "string" }, nodes: { type: "string" }, preset: { type: "string" } },
    strict: true,
  });
  const engine = engineOption(values.engine, true)!;
  const nodes = values.nodes === undefined ? 1 : Number(values.nodes);
  if (!Number.isInteger(nodes) || nodes < 1)
    throw new UsageError(`--nodes: must be a positive integer, got "${values.nodes}"`);
  const preset = presetOption(values.preset);
  const local = await loadLocalEngine(engine);
  const existing = await readState(engine);
  if (existing) {
    const alive = await Promise.all(existing.nodes.map((n) => nodeAlive(n)));
    if (alive.some(Boolean)) {
      throw new InputError(
        `${engine} already runs (${existing.nodes.length} node(s), preset ${existing.preset}): run "ycsb-lab local down --engine ${engine}" first`,
      );
    }
    await removeState(engine);
  }
  const state = await local.up({
    nodes,
    preset,
    dataDir: engineDir(engine),
    log: (l) => process.stderr.write(`${l}\n`),
  });
  const props = local.connectionProperties(state);
  process.stdout.write(
    `${engine}: ${state.nodes.length} node(s) ready, preset ${state.preset}\n` +
      state.nodes.map((n) => `  node ${n.index}  ${n.address}  ${pidsOf(n)}  logs ${n.logDir}\n`).join("") +
      `YCSB properties: ${Object.entries(props)
        .map(([k, v]) => `-p ${k}=${v}`)
        .join(" ")}\n`,
  );
  return 0;
}

async function status(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { engine: { type: "string" }, json: { type: "boolean" } },
    strict: true,
  });
  const only = engineOption(values.engine, false);
  const engines = only ? [only] : localEngineNames();
  const report = [];
  let code = 0;
  for (const engine of engines) {
    const state = await readState(engine);
    if (!state) {
      report.push({ engine, running: false });
      if (only) code = 1;
      continue;
    }
    const s = await (await loadLocalEngine(engine)).status(state);
    if (!s.ready) code = 1;
    report.push({ running: true, ...s });
  }
  if (values.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return code;
  }
  for (const r of report) {
    if (!("nodes" in r)) {
      process.stdout.write(`${r.engine}: not running\n`);
      continue;
    }
    process.stdout.write(
      `${r.engine}: ${r.ready ? "ready" : "NOT ready"}, ${r.nodes.length} node(s), preset ${r.preset}\n`,
    );
    for (const n of r.nodes)
      process.stdout.write(
        `  node ${n.index}  ${n.address}  ${pidsOf(n)}  ${n.alive ? "running" : "stopped"}${n.detail ? `  (${n.detail})` : ""}\n`,
      );
    for (const reason of r.reasons) process.stdout.write(`  - ${reason}\n`);
  }
  return code;
}

async function down(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { engine: { type: "string" } }, strict: true });
  const only = engineOption(values.engine, false);
  for (const engine of only ? [only] : localEngineNames()) {
    const state = await readState(engine);
    if (!state) {
      if (only) process.stdout.write(`${engine}: not running\n`);
      continue;
    }
    await (await loadLocalEngine(engine)).down(state);
    process.stdout.write(`${engine}: stopped ${state.nodes.length} node(s)\n`);
  }
  return 0;
}

export const command: Command = {
  name: "local",
  summary: "Start, inspect and stop real database servers on this machine",
  usage,
  async run(args) {
    const [sub, ...rest] = args;
    try {
      switch (sub) {
        case "up":
          return await up(rest);
        case "status":
          return await status(rest);
        case "down":
          return await down(rest);
        case "run":
          return await (await import("./local-run.js")).localRun(rest);
        case undefined:
          throw new UsageError("a subcommand is required: up, status, down or run");
        default:
          throw new UsageError(`unknown subcommand "${sub}" (up, status, down, run)`);
      }
    } catch (err) {
      // parseArgs reports unknown or malformed options with a code; they are usage errors.
      if ((err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) throw new UsageError((err as Error).message);
      throw err;
    }
  },
};
