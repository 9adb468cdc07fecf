/**
 * Result documents for the dashboard's browser tests, made from real YCSB 0.17.0 output (site.ycsb.BasicDB:
 * test/fixtures/web from scripts/make-web-fixtures.sh, test/fixtures/ycsb from scripts/make-ycsb-fixtures.sh).
 * The numbers are YCSB's own; the engine, node and preset labels are test labels (standIn says BasicDB), chosen
 * so every view of the dashboard has something to draw. Verdicts come from the runner's own rules.
 */
import { readdirSync, readFileSync } from "node:fs";
import { ENGINE_VERSIONS, type Engine } from "../../model/engine.js";
import { clientHistograms } from "../../model/hdr/index.js";
import type { Preset } from "../../model/presets.js";
import type { ClientOutput, ResultDocument } from "../../model/result-document.js";
import { validateResultDocument } from "../../model/result-validation.js";
import { emptyStatusSeries } from "../../model/status-series.js";
import { judgePhase } from "../../runner/validity.js";
import { parseYcsbOutput } from "../../runner/ycsb-output/index.js";

const FIXTURES = new URL("../fixtures/", import.meta.url);
export const SCENARIO = "web-test";
export const STAND_IN = "site.ycsb.BasicDB (YCSB 0.17.0, simulated 0-2 ms delay)";
export const SWEEP_THREADS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512] as const;

export interface FixtureOutput {
  output: ClientOutput;
  properties: Record<string, string>;
  threads: number;
  /** From the fixture's HDR interval logs, as the runner writes them into its documents; none without logs. */
  hdrHistograms?: Record<string, string>;
}

/** Parses one fixture directory; the YCSB properties come from the "Command line:" YCSB echoes on stderr. */
export function readFixture(dir: string): FixtureOutput {
  const stdout = readFileSync(new URL(`${dir}/stdout.txt`, FIXTURES), "utf8");
  const stderr = readFileSync(new URL(`${dir}/stderr.txt`, FIXTURES), "utf8");
  const output = parseYcsbOutput(stdout, stderr);
  const command = stderr.split("\n").find((l) => l.startsWith("Command line:")) ?? "";
  const args = command.replace("Command line:", "").trim().split(/\s+/);
  const properties: Record<string, string> = {};
  args.forEach((a, i) => {
    if (a === "-p" && args[i + 1]?.includes("=")) {
      const [k, ...v] = args[i + 1]!.split("=");
      properties[k!] = v.join("=");
    }
    if (a === "-target" && args[i + 1]) properties.target = args[i + 1]!;
  });
  const logs = readdirSync(new URL(`${dir}/`, FIXTURES)).filter((f) => f.endsWith(".hdr"));
  const hdrHistograms = clientHistograms(
    logs.map((f) => ({ operation: f.slice(0, -4), text: readFileSync(new URL(`${dir}/${f}`, FIXTURES), "utf8") })),
  );
  return {
    output,
    properties,
    threads: Number(properties.threadcount ?? 1),
    ...(logs.length ? { hdrHistograms } : {}),
  };
}

interface RunSpec {
  id: string;
  engine: Engine;
  preset: Preset;
  nodes: number;
  repeat?: number;
  /** In order; each with one fixture per client. */
  phases: { workload: string; clients: FixtureOutput[] }[];
  day: number;
}

export function documentsFor(spec: RunSpec): ResultDocument[] {
  const runStarted = new Date(Date.UTC(2026, 0, 1 + spec.day, 12, 0, 0));
  let phaseStart = runStarted.getTime();
  const runtime = spec.phases.reduce((a, p) => a + Math.max(...p.clients.map((c) => c.output.overall.runtimeMs)), 0);
  const runFinished = new Date(runStarted.getTime() + runtime);
  return spec.phases.flatMap((phase, phaseIndex) => {
    const first = phase.clients[0]!;
    const started = new Date(phaseStart);
    phaseStart += Math.max(...phase.clients.map((c) => c.output.overall.runtimeMs));
    return phase.clients.map((c, index) => {
      const finished = new Date(started.getTime() + c.output.overall.runtimeMs);
      const target = c.properties.target ? Number(c.properties.target) : undefined;
      const doc: ResultDocument = {
        schemaVersion: 1,
        run: {
          id: spec.id,
          scenario: SCENARIO,
          engine: spec.engine,
          engineVersion: ENGINE_VERSIONS[spec.engine],
          preset: spec.preset,
          nodes: spec.nodes,
          instanceTypes: { data: "local", client: "local" },
          replication: 1,
          ycsbVersion: "0.17.0",
          ycsbLabVersion: "0.1.0",
          repeat: spec.repeat ?? 0,
          startedAt: runStarted.toISOString(),
          finishedAt: runFinished.toISOString(),
          source: { kind: "measured" },
          standIn: STAND_IN,
        },
        phase: {
          name: `${phase.workload}-t${first.threads}`,
          index: phaseIndex,
          kind: "workload",
          workload: phase.workload,
          properties: c.properties,
          threadsPerClient: first.threads,
          ...(target ? { target } : {}),
          clients: phase.clients.length,
        },
        client: { index, count: phase.clients.length },
        startedAt: started.toISOString(),
        finishedAt: finished.toISOString(),
        result: c.output,
        hdrLogs: [],
        ...(c.hdrHistograms ? { hdrHistograms: c.hdrHistograms } : {}),
        resources: [],
        validity: judgePhase({
          kind: "workload",
          output: c.output,
          exitCode: 0,
          resources: [],
          targetPerClient: target,
        }),
      };
      const checked = validateResultDocument(doc);
      if (!checked.ok)
        throw new Error(
          `seed document ${spec.id}/${phase.workload}/${index} invalid: ${JSON.stringify(checked.errors)}`,
        );
      return doc;
    });
  });
}

/** Every document the browser tests ingest, with what each view should find. */
export function seedDocuments(): { documents: ResultDocument[]; sweep: FixtureOutput[]; runIds: string[] } {
  const sweep = SWEEP_THREADS.map((t) => readFixture(`web/sweep-a/t${t}`));
  const at = (t: number) => sweep[SWEEP_THREADS.indexOf(t as (typeof SWEEP_THREADS)[number])]!;
  const one = (workload: string, client: FixtureOutput) => [{ workload, clients: [client] }];
  const runs: RunSpec[] = [
    // A thread sweep (seed 003's shape, seed 004's "threads raised until throughput stops rising"): one run, a phase per thread count.
    {
      id: "web-sweep-a",
      engine: "cassandra",
      preset: "balanced",
      nodes: 1,
      phases: sweep.map((c) => ({ workload: "a", clients: [c] })),
      day: 0,
    },
    // Scaling labels: 2/4/8 "nodes" driven by 4/8/16 threads.
    { id: "web-scale-n2", engine: "hbase", preset: "balanced", nodes: 2, phases: one("a", at(4)), day: 11 },
    { id: "web-scale-n4", engine: "hbase", preset: "balanced", nodes: 4, phases: one("a", at(8)), day: 12 },
    { id: "web-scale-n8", engine: "hbase", preset: "balanced", nodes: 8, phases: one("a", at(16)), day: 13 },
    // Durability labels: the three presets at 32/16/4 threads.
    {
      id: "web-dur-throughput",
      engine: "couchbase",
      preset: "throughput",
      nodes: 1,
      phases: one("a", at(32)),
      day: 14,
    },
    { id: "web-dur-balanced", engine: "couchbase", preset: "balanced", nodes: 1, phases: one("a", at(16)), day: 15 },
    { id: "web-dur-durable", engine: "couchbase", preset: "durable", nodes: 1, phases: one("a", at(4)), day: 16 },
    // Two real repeats of one configuration (two clients each, HdrHistogram 2.1.4 and 2.1.12 on the classpath).
    {
      id: "web-repeat-r0",
      engine: "mongodb",
      preset: "balanced",
      nodes: 2,
      repeat: 0,
      phases: [{ workload: "a", clients: [readFixture("ycsb/hdr-v1/client-0"), readFixture("ycsb/hdr-v1/client-1")] }],
      day: 17,
    },
    {
      id: "web-repeat-r1",
      engine: "mongodb",
      preset: "balanced",
      nodes: 2,
      repeat: 1,
      phases: [{ workload: "a", clients: [readFixture("ycsb/hdr-v2/client-0"), readFixture("ycsb/hdr-v2/client-1")] }],
      day: 18,
    },
    // measurementtype=histogram, for the latency histogram.
    {
      id: "web-histogram-a",
      engine: "cassandra",
      preset: "durable",
      nodes: 1,
      phases: one("a", readFixture("web/histogram-a")),
      day: 19,
    },
    // Failed operations (FlakyDB): the runner's rules make it invalid.
    {
      id: "web-failed-a",
      engine: "mongodb",
      preset: "durable",
      nodes: 1,
      phases: one("a", readFixture("ycsb/failed")),
      day: 20,
    },
  ];
  return {
    documents: runs.flatMap(documentsFor),
    sweep,
    runIds: runs.map((r) => r.id),
  };
}

/** Seed 002 (Lineate 2014), "Throughput by cluster size 50% read / 50% write", Cassandra 2.0.9: ops/s at 4, 6, 8 nodes. */
export const LINEATE_CASSANDRA_BALANCED = [
  { nodes: 4, throughputOpsSec: 53_896 },
  { nodes: 6, throughputOpsSec: 67_427 },
  { nodes: 8, throughputOpsSec: 89_728 },
] as const;
export const LINEATE_CITATION = "Lineate 2014 (seed 002), Throughput by cluster size 50% read / 50% write";
/** Seed 002's own "Average Efficiency" for Cassandra, balanced workload. */
export const LINEATE_CASSANDRA_SCORE_PCT = 58.35;

/** Published figures as the API stores them: runs of source "published", one client, only the overall numbers. */
export function publishedDocuments(): ResultDocument[] {
  return LINEATE_CASSANDRA_BALANCED.map((p) => {
    const at = "2014-09-01T00:00:00Z";
    const doc: ResultDocument = {
      schemaVersion: 1,
      run: {
        id: `web-published-lineate-cassandra-n${p.nodes}`,
        scenario: SCENARIO,
        engine: "cassandra",
        engineVersion: "2.0.9",
        preset: "balanced",
        nodes: p.nodes,
        instanceTypes: { data: "dedicated", client: "dedicated" },
        replication: 2,
        ycsbVersion: "0.1.4",
        ycsbLabVersion: "0.1.0",
        repeat: 0,
        startedAt: at,
        source: { kind: "published", citation: LINEATE_CITATION, seed: "002" },
      },
      phase: { name: "a", index: 0, kind: "workload", workload: "a", properties: {}, threadsPerClient: 1, clients: 1 },
      client: { index: 0, count: 1 },
      startedAt: at,
      finishedAt: at,
      result: {
        overall: { runtimeMs: 0, throughputOpsSec: p.throughputOpsSec },
        operations: {},
        gc: {},
        statusSeries: emptyStatusSeries(),
        measurementType: null,
        unknownLines: [],
        warnings: [],
      },
      hdrLogs: [],
      resources: [],
      validity: { verdict: "valid", reasons: [] },
    };
    const checked = validateResultDocument(doc, { allowPublished: true });
    if (!checked.ok) throw new Error(`published document invalid: ${JSON.stringify(checked.errors)}`);
    return doc;
  });
}
