import type { ScenarioSpec } from "./scenario.js";

/**
 * What each study printed for the settings its scenario (model/scenarios.ts) sets, with the line of seeds/<seed>.txt.
 * A scenario field whose value differs from the printed one is a departure, and one of the scenario's `departures`
 * names the field (test/model/model-studies.test.ts holds the two together). Settings a paper left unprinted are not
 * here: where a scenario had to choose them, a departure says so in words.
 */
export interface PrintedSetting {
  /** A path into the scenario: dots between keys; `workloads.<id>` is the workload of that id. */
  field: string;
  /** The value as the paper printed it, in the scenario's units. */
  printed: unknown;
  line: string;
}

const mix = (ids: string[], key: string, printed: unknown, line: string): PrintedSetting[] =>
  ids.map((id) => ({ field: `workloads.${id}.${key}`, printed, line }));

export const STUDY_PRINTED: Record<string, PrintedSetting[]> = {
  "datastax-2013": [
    { field: "dataNode.instanceType", printed: "m1.xlarge", line: "seed 001 lines 53-55" },
    { field: "clientNode.instanceType", printed: "m1.xlarge", line: "seed 001 lines 53-55" },
    { field: "nodeCounts", printed: [1, 2, 4, 8, 16, 32], line: "seed 001 lines 122-129" },
    { field: "clients", printed: { dataNodesPerClient: 3 }, line: "seed 001 line 118" },
    { field: "records.perNode", printed: 15_000_000, line: "seed 001 line 116" },
    { field: "records.fieldCount", printed: 20, line: "seed 001 line 114" },
    { field: "requestDistribution", printed: "zipfian", line: "seed 001 line 114" },
    { field: "threads.perDataNode", printed: 128, line: "seed 001 line 118" },
    {
      field: "threads.loadOverrides",
      printed: [{ engine: "mongodb", nodes: [32], perClient: 20, source: "seed 001 line 154" }],
      line: "seed 001 line 154",
    },
    ...mix(["b", "a", "write-mostly", "read-latest", "f"], "operationCount", 900_000, "seed 001 line 114"),
    ...mix(["read-scan", "write-scan"], "maxExecutionTimeSec", 3600, "seed 001 line 114"),
    // "All other workloads were run without a time limit, instead using an operation count": the scans had none.
    ...mix(["read-scan", "write-scan"], "operationCount", undefined, "seed 001 line 114"),
    { field: "repeats", printed: 3, line: "seed 001 line 49" },
  ],
  "endpoint-2015": [
    { field: "dataNode.instanceType", printed: "i2.xlarge", line: "seed 000 lines 45-47" },
    { field: "clientNode.instanceType", printed: "c3.xlarge", line: "seed 000 lines 47-48" },
    { field: "nodeCounts", printed: [1, 2, 4, 8, 16, 32], line: "seed 000 lines 223-229" },
    { field: "clients", printed: { dataNodesPerClient: 1 }, line: "seed 000 line 187" },
    { field: "records.perNode", printed: 500_000_000, line: "seed 000 lines 182-184" },
    { field: "records.fieldCount", printed: 10, line: "seed 000 line 175" },
    { field: "records.fieldLengthBytes", printed: 10, line: "seed 000 line 175" },
    { field: "requestDistribution", printed: "uniform", line: "seed 000 line 176" },
    { field: "threads.perDataNode", printed: 256, line: "seed 000 line 188" },
    { field: "threads.loadPerClient", printed: 40, line: "seed 000 lines 188-190" },
    ...mix(["b", "a", "f", "mixed-analytical", "insert-mostly"], "operationCount", 9_000_000, "seed 000 line 178"),
    ...mix(["b", "a", "f", "mixed-analytical", "insert-mostly"], "maxExecutionTimeSec", 3600, "seed 000 lines 178-180"),
    { field: "replication", printed: 1, line: "seed 000 lines 86, 586, 621" },
    { field: "loadPreset", printed: "throughput", line: "seed 000 lines 216-217" },
    { field: "enginePresets.cassandra.presets", printed: ["durable"], line: "seed 000 lines 525-526" },
    { field: "presetServer.cassandra.durable.commitlogSync", printed: "batch", line: "seed 000 line 525" },
    { field: "presetServer.cassandra.durable.commitlogSyncGroupWindowMs", printed: 2, line: "seed 000 line 526" },
    // The printed hbase-site.xml, mongod command lines and Couchbase set-up set no durability: each engine's default.
    { field: "enginePresets.hbase.presets", printed: ["balanced"], line: "seed 000 lines 562-626" },
    { field: "enginePresets.mongodb.presets", printed: ["balanced"], line: "seed 000 lines 546-560" },
    { field: "enginePresets.couchbase.presets", printed: ["throughput"], line: "seed 000 lines 99-102, 530-544" },
    { field: "settle.waitForCompactions", printed: true, line: "seed 000 lines 65-67" },
    { field: "repeats", printed: 3, line: "seed 000 lines 41-43" },
  ],
  "lineate-2014": [
    {
      field: "dataNode.instanceType",
      printed: "2x Xeon E5-2620 v2, 64 GB, SSD (bare metal)",
      line: "seed 002 lines 281-304",
    },
    { field: "clientNode.instanceType", printed: "Core i5-4440, 8 GB (bare metal)", line: "seed 002 lines 281-304" },
    { field: "nodeCounts", printed: [4, 6, 8], line: "seed 002 line 109" },
    { field: "clients", printed: { count: 32 }, line: "seed 002 line 109" },
    { field: "replication", printed: 2, line: "seed 002 line 126" },
    { field: "records.perNode", printed: 5_000_000, line: "seed 002 line 350 (20M, 30M, 40M at 4, 6, 8 nodes)" },
    { field: "records.fieldCount", printed: 10, line: "seed 002 lines 352-355" },
    { field: "records.fieldLengthBytes", printed: 150, line: "seed 002 line 357" },
    { field: "warmupSec", printed: 60, line: "seed 002 line 88" },
    ...mix(["b", "a"], "maxExecutionTimeSec", 300, "seed 002 line 90"),
    { field: "settle.waitForRebalance", printed: true, line: "seed 002 line 82" },
    { field: "enginePresets.cassandra.presets", printed: ["throughput"], line: "seed 002 line 443" },
    { field: "repeats", printed: 2, line: "seed 002 lines 238-239" },
  ],
  "andor-parv-2019": [
    {
      field: "dataNode.instanceType",
      printed: "Core i7-4770, 16 GB, 500 GB HDD (bare metal)",
      line: "seed 003 lines 234-239",
    },
    { field: "nodeCounts", printed: [1], line: "seed 003 lines 229-231" },
    { field: "clients", printed: { count: 1 }, line: "seed 003 lines 229-231" },
    { field: "records.total", printed: 4_000_000, line: "seed 003 line 242" },
    { field: "records.fieldCount", printed: 10, line: "seed 003 line 243" },
    { field: "records.fieldLengthBytes", printed: 100, line: "seed 003 line 243" },
    { field: "operationCounts", printed: [1_000, 10_000, 100_000, 1_000_000], line: "seed 003 line 251" },
    { field: "threads.sweep", printed: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512], line: "seed 003 line 252" },
    { field: "repeats", printed: 3, line: "seed 003 lines 253-254" },
  ],
  "usa-2015-durability": [
    {
      field: "dataNode.instanceType",
      printed: "2x Xeon X5675, 96 GB, 2x 960 GB SSD (bare metal)",
      line: "seed 004 lines 214-221",
    },
    { field: "nodeCounts", printed: [1], line: "seed 004 line 54" },
    { field: "clients", printed: { count: 1 }, line: "seed 004 line 54" },
    { field: "records.total", printed: 20_000_000, line: "seed 004 line 279" },
    { field: "records.fieldCount", printed: 10, line: "seed 004 line 279" },
    { field: "requestDistribution", printed: "zipfian", line: "seed 004 line 281" },
    {
      field: "properties",
      printed: { readallfields: "true", writeallfields: "false" },
      line: "seed 004 lines 282-283",
    },
    ...mix(["a", "b"], "operationCount", 20_000_000, "seed 004 line 280"),
    // "In some configurations where running 20 million operations would be prohibitively slow".
    ...mix(["a", "b"], "maxExecutionTimeSec", "900 in some configurations", "seed 004 line 284"),
    { field: "presetServer.cassandra.durable.commitlogSync", printed: "batch", line: "seed 004 lines 263-264" },
    { field: "presetServer.cassandra.durable.commitlogSyncGroupWindowMs", printed: 10, line: "seed 004 lines 263-264" },
    { field: "enginePresets.couchbase.presets", printed: ["throughput", "durable"], line: "seed 004 lines 81, 169" },
  ],
};

/** The value at `path` in a scenario (`workloads.<id>` picks the workload of that id); undefined where none is. */
export function scenarioField(spec: ScenarioSpec, path: string): unknown {
  let at: unknown = spec;
  const parts = path.split(".");
  for (let i = 0; i < parts.length; i++) {
    const key = parts[i]!;
    if (at === undefined || at === null) return undefined;
    const byWorkload = i > 0 && parts[i - 1] === "workloads" && Array.isArray(at);
    at = byWorkload
      ? (at as { workload: string }[]).find((w) => w.workload === key)
      : (at as Record<string, unknown>)[key];
  }
  return at;
}
