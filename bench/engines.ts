/**
 * One small YCSB workload per local engine and durability preset, side by side: throughput and p99 of reads
 * and updates. Real servers on this machine (runner/local), so the figures compare presets and engines on the
 * same hardware in the same run, never against numbers from elsewhere.
 *
 *   npx tsx bench/engines.ts [--engines cassandra,hbase] [--presets throughput,durable] [--records 2000] [--operations 10000] [--threads 8]
 */
import { parseArgs } from "node:util";
import { type Engine, isEngine } from "../model/engine.js";
import { clientProperties, isPreset, PRESETS, type Preset } from "../model/presets.js";
import { WORKLOADS } from "../model/workloads.js";
import { bindingClasspathDir, ycsbCoreDir } from "../runner/java-artifacts.js";
import { engineDir, readState } from "../runner/local/engine.js";
import { loadLocalEngine, localEngineNames } from "../runner/local/registry.js";
import { parseYcsbOutput } from "../runner/ycsb-output/index.js";
import { buildYcsbCommand, spawnYcsb } from "../runner/ycsb-process.js";

const { values } = parseArgs({
  options: {
    engines: { type: "string" },
    presets: { type: "string" },
    records: { type: "string", default: "2000" },
    operations: { type: "string", default: "10000" },
    threads: { type: "string", default: "8" },
  },
});
const engines = (values.engines?.split(",") ?? localEngineNames()).map((e) => {
  if (!isEngine(e)) throw new Error(`--engines: unknown engine "${e}"`);
  return e;
});
const presets = (values.presets?.split(",") ?? [...PRESETS]).map((p) => {
  if (!isPreset(p)) throw new Error(`--presets: unknown preset "${p}"`);
  return p;
});

interface Row {
  engine: Engine;
  preset: Preset;
  loadOpsSec?: number;
  runOpsSec?: number;
  readP99Us?: number;
  updateP99Us?: number;
  failed?: number;
  error?: string;
  /** The stand-in server measured instead of the engine (FerretDB, CouchbaseMock). */
  standIn?: string;
}

async function measure(engine: Engine, preset: Preset): Promise<Row> {
  const local = await loadLocalEngine(engine);
  const stale = await readState(engine);
  if (stale) await local.down(stale);
  const state = await local.up({ nodes: 1, preset, dataDir: engineDir(engine), log: (l) => console.error(l) });
  try {
    const base = {
      dbClass: local.binding.dbClass,
      ycsbCoreDir: ycsbCoreDir(),
      bindingDirs: [await bindingClasspathDir(local.binding.module)],
      properties: {
        ...WORKLOADS.a.properties,
        ...clientProperties(engine, preset),
        ...local.connectionProperties(state),
        recordcount: values.records!,
        operationcount: values.operations!,
      },
      threads: Number(values.threads),
    };
    const load = parseYcsbOutput(...(await run(buildYcsbCommand({ ...base, phase: "load" }))));
    const work = parseYcsbOutput(...(await run(buildYcsbCommand({ ...base, phase: "run" }))));
    const failed = Object.values(work.operations).reduce(
      (n, op) =>
        n +
        Object.entries(op.returns)
          .filter(([k]) => k !== "OK")
          .reduce((m, [, c]) => m + c, 0),
      0,
    );
    return {
      engine,
      preset,
      loadOpsSec: load.overall.throughputOpsSec,
      runOpsSec: work.overall.throughputOpsSec,
      readP99Us: work.operations.READ?.percentilesUs["99"],
      updateP99Us: work.operations.UPDATE?.percentilesUs["99"],
      failed,
      standIn: local.standIn,
    };
  } finally {
    await local.down(state);
  }
}

async function run(cmd: ReturnType<typeof buildYcsbCommand>): Promise<[string, string]> {
  const r = await spawnYcsb(cmd);
  if (r.exitCode !== 0)
    throw new Error(`YCSB exited ${r.exitCode}: ${r.stderr.trim().split("\n").slice(-3).join(" ")}`);
  return [r.stdout, r.stderr];
}

const rows: Row[] = [];
for (const engine of engines) {
  for (const preset of presets) {
    try {
      rows.push(await measure(engine, preset));
    } catch (err) {
      rows.push({ engine, preset, error: (err as Error).message.split("\n")[0] });
    }
  }
}

const fmt = (n: number | undefined, digits = 0) => (n === undefined ? "-" : n.toFixed(digits));
console.log(
  `workload A, ${values.records} records, ${values.operations} operations, ${values.threads} threads, one node each`,
);
console.log(
  ["engine", "preset", "load ops/s", "run ops/s", "read p99 us", "update p99 us", "failed"]
    .map((h) => h.padStart(15))
    .join(""),
);
for (const r of rows) {
  if (r.error) {
    console.log(`${r.engine.padStart(15)}${r.preset.padStart(15)}  error: ${r.error}`);
    continue;
  }
  console.log(
    [
      r.standIn ? `${r.engine}*` : r.engine,
      r.preset,
      fmt(r.loadOpsSec),
      fmt(r.runOpsSec),
      fmt(r.readP99Us),
      fmt(r.updateP99Us),
      fmt(r.failed),
    ]
      .map((c) => c.padStart(15))
      .join(""),
  );
}
const standIns = [...new Set(rows.flatMap((r) => (r.standIn ? [`* ${r.engine}: ${r.standIn}`] : [])))];
for (const line of standIns) console.log(line);
