import { spawn } from "node:child_process";
import { parseArgs } from "node:util";
import { isEngine, isPreset, PRESETS, scenario as findScenario, scenarioPresets } from "../../model/index.js";
import { UsageError, type Command } from "../command.js";

const usage = `Usage: ycsb-lab start [--engine E] [--scenario S] [--preset P[,P]] [--scale F] [--clients 1|2]
                      [--no-benchmark] [--keep-engine] [--host HOST] [--port PORT]

The main job on one machine: serve the dashboard and results API (embedded PGlite in .local/pglite unless
DATABASE_URL is set), load the seeds' published results so the dashboard shows them at once, then run a local
benchmark (default: the quickstart scenario on a local Cassandra 5.0 started from Maven Central jars, once under
each durability preset, so the views have presets of one scenario to compare) and ingest its results, which then
appear in the dashboard. Serves until Ctrl-C.

  --engine E        local engine: cassandra (default), hbase, mongodb (FerretDB stand-in), couchbase (CouchbaseMock stand-in)
  --scenario S      built-in scenario or a YAML/JSON file (default: quickstart)
  --preset P[,P]    the presets to run, one run each (default: every preset the scenario runs the engine under;
                    the engine restarts between presets)
  --scale F         records and operations times F, 0 < F <= 1 (default 1): a quicker, noisier benchmark
  --clients N       local runner processes in lock-step, 1 or 2 (default 1)
  --no-benchmark    only serve the dashboard
  --keep-engine     leave the local engine running after the benchmark (default: stop it)
  --host HOST       listen address (default 127.0.0.1)
  --port PORT       listen port (default 8080)`;

/** Runs another `ycsb-lab` subcommand as a child process with the same Node flags (tsx loader included). */
function ycsbLab(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...args], { stdio: ["ignore", "inherit", "inherit"], env });
  return new Promise((resolve) => child.once("exit", (code) => resolve(code ?? 1)));
}

/** The benchmark's last line: stopped by Ctrl-C, done, or failed. Pure. */
export function benchmarkOutcome(o: { interrupted: boolean; failed: number; url: string }): string {
  if (o.interrupted) return "benchmark: stopped by Ctrl-C; runs that finished before it are stored, and the server stops";
  return o.failed === 0 ? `benchmark: done, open ${o.url}/ to compare the runs with each other and with the published results` : "benchmark: a run failed (see above); the dashboard keeps serving";
}

export const command: Command = {
  name: "start",
  summary: "The dashboard plus a local benchmark, ingested as it finishes (npm start)",
  usage,
  async run(args) {
    let values;
    try {
      ({ values } = parseArgs({
        args,
        options: {
          engine: { type: "string", default: "cassandra" },
          scenario: { type: "string", default: "quickstart" },
          preset: { type: "string" },
          scale: { type: "string" },
          clients: { type: "string", default: "1" },
          "no-benchmark": { type: "boolean" },
          "keep-engine": { type: "boolean" },
          host: { type: "string" },
          port: { type: "string" },
        },
      }));
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    if (!isEngine(values.engine)) throw new UsageError(`--engine: unknown engine "${values.engine}"`);
    if (values.port !== undefined && !/^\d+$/.test(values.port)) throw new UsageError(`--port must be a number, got "${values.port}"`);
    // An unknown scenario or preset fails before anything starts.
    const spec = /\.(ya?ml|json)$/.test(values.scenario) ? null : findScenario(values.scenario);
    const asked = values.preset?.split(",").map((p) => p.trim());
    if (values.scale !== undefined && !(Number(values.scale) > 0 && Number(values.scale) <= 1)) throw new UsageError(`--scale must be in (0, 1], got "${values.scale}"`);
    for (const p of asked ?? []) if (!isPreset(p)) throw new UsageError(`--preset: unknown preset "${p}" (known: ${PRESETS.join(", ")})`);
    // A scenario file's presets are its runner's business: without --preset it runs its default one.
    const presets: (string | undefined)[] = asked ?? (spec ? scenarioPresets(spec, values.engine) : [undefined]);

    // First-run downloads (YCSB, Cassandra, the bindings' Maven build) say what they fetch, here and in the benchmark.
    process.env.YCSB_LAB_SETUP_PROGRESS ??= "1";
    const { refreshDashboardBundle } = await import("../dashboard-bundle.js");
    await refreshDashboardBundle((line) => process.stderr.write(`${line}\n`));
    const { startServer } = await import("../../api/server.js");
    const { loadReferenceData } = await import("../../api/store/reference-data.js");
    const { writeTokenLine } = await import("./serve.js");
    // The benchmark's progress shares the terminal: one JSON line per HTTP request would drown it. LOG_LEVEL=info
    // (or debug) brings the request log back.
    const { app, url, token, tokenFrom, tokenFile, warnings } = await startServer({
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
      ...(values.host ? { HOST: values.host } : {}),
      ...(values.port ? { PORT: values.port } : {}),
    });
    let interrupted = false;
    const stopped = new Promise<void>((resolve) => {
      const stop = () => {
        // Ctrl-C reaches the benchmark's processes too (one process group): they stop, and so does the server.
        interrupted = true;
        void app.close().then(() => resolve());
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
    const reference = await loadReferenceData(app.db);
    const say = (line: string) => process.stderr.write(`${line}\n`);
    if (reference.replaced > 0) say(`published runs: ${reference.replaced} stored from an older transcription of the seeds, replaced by the current one`);
    say(`dashboard: ${url}/   (API: ${url}/api/v1, OpenAPI: ${url}/docs, database: ${app.database.kind})`);
    say("the seeds' published results are loaded; Ctrl-C stops the server");
    say(writeTokenLine(token, tokenFrom, tokenFile));
    for (const w of warnings) say(`warning: ${w}`);

    if (!values["no-benchmark"]) {
      const childEnv = { ...process.env, YCSB_LAB_TOKEN: token };
      const named = presets.filter((p): p is string => p !== undefined);
      say(`benchmark: ${values.scenario} on a local ${values.engine}${named.length ? ` under ${named.join(", ")}, one run each` : ""}; each run appears in the dashboard when it finishes`);
      const { runSetupScript } = await import("../../runner/java-artifacts.js");
      const { readState } = await import("../../runner/local/engine.js");
      await runSetupScript("fetch-ycsb.sh").catch((err: Error) => {
        if (!interrupted) throw err;
      });
      let failed = 0;
      for (const preset of presets) {
        if (interrupted) break;
        // A preset is server-side configuration: the engine restarts under the next one.
        const running = await readState(values.engine);
        if (running && preset !== undefined && running.preset !== preset) await ycsbLab(["local", "down", "--engine", values.engine], childEnv);
        const code = await ycsbLab(
          ["local", "run", "--engine", values.engine, "--scenario", values.scenario, ...(preset ? ["--preset", preset] : []), ...(values.scale ? ["--scale", values.scale] : []), "--clients", values.clients, "--ingest", url],
          childEnv,
        );
        if (code !== 0 && !interrupted) {
          failed = code;
          say(`benchmark: ${preset ?? values.scenario} ended with exit code ${code} (see above)`);
        }
      }
      say(benchmarkOutcome({ interrupted, failed, url }));
      if (!values["keep-engine"]) await ycsbLab(["local", "down", "--engine", values.engine], childEnv);
    }
    await stopped;
    return 0;
  },
};
