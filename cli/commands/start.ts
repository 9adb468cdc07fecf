import { scenario as findScenario, isEngine, isPreset, PRESETS, scenarioPresets } from "../../model/index.js";
import { FIRST_BENCHMARK, LOCAL_CAPACITY_SLO } from "../../model/local-cell.js";
import { type Command, parseCommandArgs, UsageError } from "../command.js";
import { benchmarkOutcome } from "../start-benchmark.js";
import { CAPACITY_OPTIONS, type CapacityFlags, capacityChoice } from "./plan.js";

export { benchmarkOutcome };

const usage = `Usage: ycsb-lab start [--engine E] [--scenario S] [--preset P[,P]] [--scale F] [--threads N] [--target R]
                      [--clients 1|2] [--capacity [SLO]] [--no-benchmark] [--keep-engine] [--host HOST] [--port PORT]

The main job on one machine: load the seeds' published results, serve the dashboard and results API (embedded
PGlite in .local/pglite unless DATABASE_URL is set), then run a local benchmark and ingest its results, which then
appear in the dashboard. Serves until Ctrl-C.

The default benchmark is a cell of a study, so its runs are shown on that study's page beside the paper's figures:
seed 004's durability study (usa-2015-durability) on a local Cassandra 5.0 started from Maven Central jars, once
under each of its three presets, at scale ${FIRST_BENCHMARK.scale} (10,000 of the paper's 20 million records and operations), ${FIRST_BENCHMARK.threadsPerClient}
threads at ${FIRST_BENCHMARK.targetOpsSec} ops/s instead of the paper's thread steps (model/local-cell.ts says why). A phase the runner judges
client-bound is said once, with how to get a valid run.

  --engine E        local engine: cassandra (default), hbase, mongodb (FerretDB stand-in), couchbase (CouchbaseMock stand-in)
  --scenario S      built-in scenario or a YAML/JSON file (default: ${FIRST_BENCHMARK.scenario}; another scenario runs as
                    itself unless --threads is given)
  --preset P[,P]    the presets to run, one run each (default: every preset the scenario runs the engine under;
                    the engine restarts between presets)
  --scale F         records and operations times F, 0 < F <= 1 (default ${FIRST_BENCHMARK.scale} for the default scenario, else 1)
  --threads N       YCSB threads per client for every phase, instead of the scenario's (default ${FIRST_BENCHMARK.threadsPerClient} for the default)
  --target R        total target rate, ops/s, with --threads (default ${FIRST_BENCHMARK.targetOpsSec} for the default scenario)
  --clients N       local runner processes in lock-step, 1 or 2 (default 1)
  --capacity [SLO]  instead of the fixed target, a small capacity search of each workload under each preset (the
                    scenario's capacity variant, as \`ycsb-lab plan --capacity\` builds it): an unthrottled probe,
                    then 50/75/90/105 % of what it reached, each step open loop and judged on intended latency; prints
                    the sustainable throughput, the step that broke and why, and that a local run has no price.
                    SLO default: "${LOCAL_CAPACITY_SLO}" (model/local-cell.ts says why not 10 ms here).
                    --maximum, --fractions, --resolution, --max-steps, --error-budget refine it as in
                    \`ycsb-lab plan --help\`
  --no-benchmark    only serve the dashboard
  --keep-engine     leave the local engine running after the benchmark (default: stop it)
  --host HOST       listen address (default 127.0.0.1)
  --port PORT       listen port (default 8080)`;

/** `--capacity` without an SLO (last, or before another option) asks for the local default SLO. */
export function withCapacityDefault(args: readonly string[]): string[] {
  return args.flatMap((a, i) => {
    const next = args[i + 1];
    return a === "--capacity" && (next === undefined || next.startsWith("--")) ? [a, LOCAL_CAPACITY_SLO] : [a];
  });
}

/** `local run`'s arguments for the capacity search the options ask for (checked here, before anything starts). */
function capacityArgs(values: Record<string, string | boolean | undefined>): string[] | undefined {
  const flags = Object.fromEntries(Object.keys(CAPACITY_OPTIONS).map((k) => [k, values[k]])) as CapacityFlags;
  if (!capacityChoice(flags)) return undefined;
  return Object.entries(flags).flatMap(([k, v]) => (v === undefined ? [] : [`--${k}`, v]));
}

/** The benchmark the options ask for: the first benchmark's cell unless another scenario is named. */
export function benchmarkPlan(values: Record<string, string | boolean | undefined>, engine: string) {
  const str = (k: string) => (typeof values[k] === "string" ? (values[k] as string) : undefined);
  const named = str("scenario");
  const scenario = named ?? FIRST_BENCHMARK.scenario;
  const first = named === undefined;
  const capacity = capacityArgs(values);
  if (capacity && str("target") !== undefined)
    throw new UsageError("--target: a capacity search sets the target itself");
  const scale = str("scale") ?? (first ? String(FIRST_BENCHMARK.scale) : undefined);
  const threads = str("threads") ?? (first ? String(FIRST_BENCHMARK.threadsPerClient) : undefined);
  const fixedTarget = first && str("threads") === undefined && !capacity;
  const target = str("target") ?? (fixedTarget ? String(FIRST_BENCHMARK.targetOpsSec) : undefined);
  if (scale !== undefined && !(Number(scale) > 0 && Number(scale) <= 1))
    throw new UsageError(`--scale must be in (0, 1], got "${scale}"`);
  if (threads !== undefined && !(/^\d+$/.test(threads) && Number(threads) >= 1))
    throw new UsageError(`--threads: a whole number >= 1, got "${threads}"`);
  if (target !== undefined && !(Number(target) > 0)) throw new UsageError(`--target: ops/s > 0, got "${target}"`);
  if (target !== undefined && threads === undefined)
    throw new UsageError("--target needs --threads (a target rate goes with a fixed thread count)");
  // An unknown scenario or preset fails before anything starts.
  const spec = /\.(ya?ml|json)$/.test(scenario) ? null : findScenario(scenario);
  const asked = str("preset")
    ?.split(",")
    .map((p) => p.trim());
  for (const p of asked ?? [])
    if (!isPreset(p)) throw new UsageError(`--preset: unknown preset "${p}" (known: ${PRESETS.join(", ")})`);
  // A scenario file's presets are its runner's business: without --preset it runs its default one.
  const presets: (string | undefined)[] =
    asked ?? (spec && isEngine(engine) ? scenarioPresets(spec, engine) : [undefined]);
  return { engine, scenario, presets, clients: str("clients") ?? "1", scale, threads, target, capacity };
}

/** "usa-2015-durability at scale 0.0005, 4 threads at 300 ops/s": what the benchmark runs, in one line. */
export function describeCell(b: ReturnType<typeof benchmarkPlan>): string {
  const named = b.presets.filter((p): p is string => p !== undefined);
  const how = [
    b.scale ? `scale ${b.scale}` : null,
    b.threads ? `${b.threads} thread(s) per client` : null,
    b.target ? `at ${b.target} ops/s` : null,
    b.capacity ? `a capacity search under "${b.capacity[1]}"` : null,
  ]
    .filter(Boolean)
    .join(", ");
  return `${b.scenario} on a local ${b.engine}${how ? ` (${how})` : ""}${named.length ? ` under ${named.join(", ")}, one run each` : ""}`;
}

export const command: Command = {
  name: "start",
  summary: "The dashboard plus a local benchmark, ingested as it finishes (npm start)",
  usage,
  async run(args) {
    const { values } = parseCommandArgs({
      args: withCapacityDefault(args),
      options: {
        ...CAPACITY_OPTIONS,
        engine: { type: "string", default: "cassandra" },
        scenario: { type: "string" },
        preset: { type: "string" },
        scale: { type: "string" },
        threads: { type: "string" },
        target: { type: "string" },
        clients: { type: "string", default: "1" },
        "no-benchmark": { type: "boolean" },
        "keep-engine": { type: "boolean" },
        host: { type: "string" },
        port: { type: "string" },
      },
    });
    if (!isEngine(values.engine)) throw new UsageError(`--engine: unknown engine "${values.engine}"`);
    if (values.port !== undefined && !/^\d+$/.test(values.port))
      throw new UsageError(`--port must be a number, got "${values.port}"`);
    const bench = benchmarkPlan(values, values.engine);

    // First-run downloads (YCSB, Cassandra, the bindings' Maven build) say what they fetch, here and in the benchmark.
    process.env.YCSB_LAB_SETUP_PROGRESS ??= "1";
    const say = (line: string) => process.stderr.write(`${line}\n`);
    const { refreshDashboardBundle } = await import("../dashboard-bundle.js");
    await refreshDashboardBundle(say);
    const { startServer } = await import("../../api/server.js");
    const { loadReferenceData } = await import("../../api/store/reference-data.js");
    const { writeTokenLine } = await import("./serve.js");
    let replaced = 0;
    // The benchmark's progress shares the terminal: one JSON line per HTTP request would drown it. LOG_LEVEL=info
    // (or debug) brings the request log back. The seeds' tables are stored before the port opens: no view answers
    // without them meanwhile.
    const { app, url, token, tokenFrom, tokenFile, warnings } = await startServer(
      {
        LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
        ...(values.host ? { HOST: values.host } : {}),
        ...(values.port ? { PORT: values.port } : {}),
      },
      { beforeListen: async (a) => void (replaced = (await loadReferenceData(a.db)).replaced) },
    );
    const stop = stopOnSignals(app, say);
    if (replaced > 0)
      say(`published runs: ${replaced} stored from an older transcription of the seeds, replaced by the current one`);
    say(`dashboard: ${url}/   (API: ${url}/api/v1, OpenAPI: ${url}/docs, database: ${app.database.kind})`);
    say("the seeds' published results are loaded; Ctrl-C stops the server");
    say(writeTokenLine(token, tokenFrom, tokenFile));
    for (const w of warnings) say(`warning: ${w}`);

    if (!values["no-benchmark"]) {
      say(`benchmark: ${describeCell(bench)}; each run appears in the dashboard when it finishes`);
      const { runSetupScript } = await import("../../runner/java-artifacts.js");
      const { runBenchmark, ycsbLab } = await import("../start-benchmark.js");
      await runSetupScript("fetch-ycsb.sh").catch((err: Error) => {
        if (!stop.interrupted()) throw err;
      });
      const failed = await runBenchmark(bench, { url, token, db: app.db, say, interrupted: stop.interrupted });
      const outcome = {
        interrupted: stop.interrupted(),
        failed,
        url,
        scenario: bench.scenario,
        capacity: !!bench.capacity,
      };
      say(benchmarkOutcome(outcome));
      if (!values["keep-engine"])
        await ycsbLab(["local", "down", "--engine", bench.engine], { ...process.env, YCSB_LAB_TOKEN: token });
    }
    await stop.stopped;
    return 0;
  },
};

/**
 * Ctrl-C (or SIGTERM) closes the server and the database and says so, whenever it comes; a second one while closing
 * exits at once, the data directory's lock released by the exit handler (api/db/data-dir-lock.ts), never left behind.
 */
function stopOnSignals(app: { close(): Promise<unknown> }, say: (line: string) => void) {
  let interrupted = false;
  let resolve!: () => void;
  const stopped = new Promise<void>((r) => (resolve = r));
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) {
      say(`stopping now (${signal} again): the database closes without waiting for the benchmark`);
      process.exit(130);
    }
    interrupted = true;
    // Ctrl-C reaches the benchmark's processes too (one process group): they stop, and so does the server.
    say(`stopping (${signal}): the benchmark's processes end, then the dashboard and its database close`);
    void app.close().then(
      () => {
        say("stopped: the dashboard and its database are closed");
        resolve();
      },
      (e: Error) => {
        say(`stopped with an error while closing: ${e.message}`);
        resolve();
      },
    );
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return { stopped, interrupted: () => interrupted };
}
