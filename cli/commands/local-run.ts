import { spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { capacityReportLines } from "../../model/capacity-report.js";
import { type Engine, isEngine, isPreset, type Plan } from "../../model/index.js";
import { capacityGroups, capacityReports } from "../../runner/capacity-report.js";
import { ingestRun } from "../../runner/ingest.js";
import { bindingClasspathDir } from "../../runner/java-artifacts.js";
import { engineDir, nodeAlive, readState, removeState } from "../../runner/local/engine.js";
import { loadLocalEngine, localEngineNames } from "../../runner/local/registry.js";
import { openResultsStore } from "../../runner/open-results-store.js";
import { UsageError } from "../command.js";
import { CAPACITY_OPTIONS, capacityChoice, type LocalCellChoice, planFromOptions } from "./plan.js";

/** --threads N [--target R]: the scenario as a local cell of itself (model/local-cell.ts). */
function localCellChoice(threads: string | undefined, target: string | undefined): LocalCellChoice {
  if (threads === undefined) {
    if (target !== undefined)
      throw new UsageError("--target needs --threads (a target rate goes with a fixed thread count)");
    return {};
  }
  if (!/^\d+$/.test(threads) || Number(threads) < 1)
    throw new UsageError(`--threads: a whole number >= 1, got "${threads}"`);
  if (target !== undefined && !(Number(target) > 0)) throw new UsageError(`--target: ops/s > 0, got "${target}"`);
  return { threadsPerClient: Number(threads), ...(target !== undefined ? { targetOpsSec: Number(target) } : {}) };
}

/** `ycsb-lab local run`: the local main job (engine up, plan, runner processes, results, optional ingest). */
export async function localRun(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      engine: { type: "string" },
      scenario: { type: "string" },
      clients: { type: "string" },
      preset: { type: "string" },
      nodes: { type: "string" },
      scale: { type: "string" },
      threads: { type: "string" },
      target: { type: "string" },
      results: { type: "string" },
      "run-id": { type: "string" },
      ingest: { type: "string" },
      "barrier-timeout": { type: "string" },
      "s3-endpoint": { type: "string" },
      ...CAPACITY_OPTIONS,
    },
  });
  if (!values.engine) throw new UsageError("--engine is required");
  if (!isEngine(values.engine))
    throw new UsageError(`--engine: unknown engine "${values.engine}" (local: ${localEngineNames().join(", ")})`);
  const engine: Engine = values.engine;
  if (values.preset !== undefined && !isPreset(values.preset))
    throw new UsageError(`--preset: unknown preset "${values.preset}"`);
  const clients = Number(values.clients ?? "1");
  if (clients !== 1 && clients !== 2) throw new UsageError(`--clients: 1 or 2 on one machine, got "${values.clients}"`);
  const say = (l: string) => process.stderr.write(`${l}\n`);

  const local = await loadLocalEngine(engine);
  const cell = { scenario: values.scenario ?? "quickstart", engine, clients: String(clients), scale: values.scale };
  const onOneMachine = localCellChoice(values.threads, values.target);
  const capacity = capacityChoice(values);
  if (capacity && values.target !== undefined)
    throw new UsageError("--target: a capacity search sets the target itself");
  let state = await readState(engine);
  const alive = state ? (await Promise.all(state.nodes.map((n) => nodeAlive(n)))).every(Boolean) : false;
  let plan: Plan;
  if (state && alive) {
    if (values.preset && values.preset !== state.preset) {
      throw new UsageError(
        `--preset ${values.preset}: local ${engine} runs with preset ${state.preset}; "ycsb-lab local down --engine ${engine}" first`,
      );
    }
    say(`${engine}: already running (${state.nodes.length} node(s), preset ${state.preset})`);
    plan = await planFromOptions(
      { ...cell, nodes: String(state.nodes.length), preset: state.preset },
      onOneMachine,
      capacity,
    );
  } else {
    if (state) await removeState(engine);
    // The scenario's own cell unless told otherwise: its default preset and node count.
    plan = await planFromOptions({ ...cell, nodes: values.nodes, preset: values.preset }, onOneMachine, capacity);
    const { nodes, preset } = plan.deployment;
    say(`${engine}: starting ${nodes} node(s), preset ${preset}`);
    // The scenario's own values over the preset (seed 004: Cassandra's LCS table, its 10 ms commitlog window).
    state = await local.up({ nodes, preset, dataDir: engineDir(engine), log: say, study: plan.deployment.study });
  }

  const runId =
    values["run-id"] ??
    `${plan.scenario}-${engine}-${new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "")}`;
  const results = values.results ?? "file://results";
  const work = resolve(".spool", runId);
  await mkdir(work, { recursive: true });
  const planFile = join(work, "plan.json");
  await writeFile(planFile, JSON.stringify(plan, null, 2));
  const bindingDir = await bindingClasspathDir(local.binding.module);
  const props = Object.entries(local.connectionProperties(state)).flatMap(([k, v]) => ["-p", `${k}=${v}`]);
  say(`run ${runId}: ${plan.phases.length} phases, ${clients} client(s), results in ${results}`);

  const codes = await Promise.all(
    Array.from({ length: clients }, (_, i) => {
      const argv = [
        ...process.execArgv,
        process.argv[1]!,
        "run",
        "--plan",
        planFile,
        "--client-index",
        String(i),
        "--clients",
        String(clients),
        "--results",
        results,
        "--run-id",
        runId,
        "--db",
        local.binding.dbClass,
        "--classpath",
        join(bindingDir, "*"),
        "--spool",
        join(work, `client-${i}`),
        "--local-engine",
        engine,
        ...(values["barrier-timeout"] ? ["--barrier-timeout", values["barrier-timeout"]] : []),
        ...(values["s3-endpoint"] ? ["--s3-endpoint", values["s3-endpoint"]] : []),
        ...props,
      ];
      const child = spawn(process.execPath, argv, { stdio: ["ignore", "inherit", "inherit"] });
      return new Promise<number>((r) => child.once("exit", (code) => r(code ?? 1)));
    }),
  );
  const worst = Math.max(...codes);
  if (worst !== 0) {
    say(`run ${runId}: a runner exited with ${worst}; results so far are in ${results}, the spool in ${work}`);
    return worst;
  }
  if (capacityGroups(plan).length) {
    // The answer of each search, judged from the stored steps as the API judges them; a local run has no price.
    const store = await openResultsStore(results, { endpoint: values["s3-endpoint"] });
    for (const r of await capacityReports({ store, runId, plan }, "local"))
      say(capacityReportLines(r.result, r.endedBecause).join("\n"));
  }
  if (values.ingest) {
    const token = process.env.YCSB_LAB_TOKEN;
    if (!token) throw new UsageError("--ingest: set YCSB_LAB_TOKEN to the results API's write token");
    const out = await ingestRun(values.ingest, await openResultsStore(results), runId, token);
    say(
      `ingest: ${out.sent} result document(s) sent to ${values.ingest}: ${out.created} new, ${out.duplicates} already stored`,
    );
  }
  say(`run ${runId}: complete; results in ${results}/runs/${runId}/`);
  return 0;
}
