import type { Source } from "./presets.js";

/**
 * The workload catalogue: YCSB's core workloads A-F and every custom workload of the seeds,
 * each as the exact YCSB properties that define its operation mix. Record shape
 * (fieldcount, fieldlength), record/operation counts and, where a study overrode it, the
 * request distribution belong to the scenario, which layers its properties on top.
 */
export interface Workload {
  /** Stable id used in scenario specs, plans and results. */
  id: string;
  title: string;
  /** YCSB properties exactly as passed with `-P`/`-p` (all values as strings, as YCSB reads them). */
  properties: Record<string, string>;
  source: Source;
}

const CORE = "site.ycsb.workloads.CoreWorkload";

/** The defaults YCSB 0.17.0's workloads/workload[a-f] files set beside the mix. */
function core(mix: Record<string, string>): Record<string, string> {
  return {
    workload: CORE,
    readallfields: "true",
    readproportion: "0",
    updateproportion: "0",
    scanproportion: "0",
    insertproportion: "0",
    readmodifywriteproportion: "0",
    requestdistribution: "zipfian",
    ...mix,
  };
}

const YCSB_CORE_DOC = "https://github.com/brianfrankcooper/YCSB/wiki/Core-Workloads";

export const WORKLOADS = {
  a: {
    id: "a",
    title: "Workload A: update heavy (50% read, 50% update)",
    properties: core({ readproportion: "0.5", updateproportion: "0.5" }),
    source: { doc: YCSB_CORE_DOC, note: "workloads/workloada" },
  },
  b: {
    id: "b",
    title: "Workload B: read mostly (95% read, 5% update)",
    properties: core({ readproportion: "0.95", updateproportion: "0.05" }),
    source: { doc: YCSB_CORE_DOC, note: "workloads/workloadb" },
  },
  c: {
    id: "c",
    title: "Workload C: read only",
    properties: core({ readproportion: "1" }),
    source: { doc: YCSB_CORE_DOC, note: "workloads/workloadc" },
  },
  d: {
    id: "d",
    title: "Workload D: read latest (95% read, 5% insert, latest distribution)",
    properties: core({ readproportion: "0.95", insertproportion: "0.05", requestdistribution: "latest" }),
    source: { doc: YCSB_CORE_DOC, note: "workloads/workloadd" },
  },
  e: {
    id: "e",
    title: "Workload E: short ranges (95% scan, 5% insert)",
    properties: core({
      scanproportion: "0.95",
      insertproportion: "0.05",
      maxscanlength: "100",
      scanlengthdistribution: "uniform",
    }),
    source: { doc: YCSB_CORE_DOC, note: "workloads/workloade" },
  },
  f: {
    id: "f",
    title: "Workload F: read-modify-write (50% read, 50% read-modify-write)",
    properties: core({ readproportion: "0.5", readmodifywriteproportion: "0.5" }),
    source: { doc: YCSB_CORE_DOC, note: "workloads/workloadf" },
  },
  "write-mostly": {
    id: "write-mostly",
    title: "Write-mostly (99% update, 1% read)",
    properties: core({ readproportion: "0.01", updateproportion: "0.99" }),
    source: { seed: "001", note: "Tested workloads, 3: 99% update to 1% read" },
  },
  "read-scan": {
    id: "read-scan",
    title: "Read/scan mix (47% read, 47% scan, 6% update)",
    properties: core({
      readproportion: "0.47",
      scanproportion: "0.47",
      updateproportion: "0.06",
      maxscanlength: "100",
    }),
    source: { seed: "001", note: "Tested workloads, 4; scans limited to 100 records" },
  },
  "write-scan": {
    id: "write-scan",
    title: "Read/write mix with scans (25% read, 25% scan, 25% update, 25% insert)",
    properties: core({
      readproportion: "0.25",
      scanproportion: "0.25",
      updateproportion: "0.25",
      insertproportion: "0.25",
      maxscanlength: "100",
    }),
    source: { seed: "001", note: "Tested workloads, 5; scans limited to 100 records" },
  },
  "read-latest": {
    id: "read-latest",
    title: "Read latest (95% read, 5% insert, latest distribution)",
    properties: core({ readproportion: "0.95", insertproportion: "0.05", requestdistribution: "latest" }),
    source: { seed: "001", note: "Tested workloads, 6: based on workload D, request distribution 'latest'" },
  },
  "mixed-analytical": {
    id: "mixed-analytical",
    title: "Mixed operational and analytical (60% read, 25% update, 10% insert, 5% scan)",
    properties: core({
      readproportion: "0.6",
      updateproportion: "0.25",
      insertproportion: "0.1",
      scanproportion: "0.05",
      maxscanlength: "100",
    }),
    source: { seed: "000", note: "Workload Selection: max scan length 100" },
  },
  "insert-mostly": {
    id: "insert-mostly",
    title: "Insert-mostly combined with read (90% insert, 10% read)",
    properties: core({ insertproportion: "0.9", readproportion: "0.1" }),
    source: { seed: "000", note: "Workload Selection: 90% insert to 10% read" },
  },
} as const satisfies Record<string, Workload>;

export type WorkloadId = keyof typeof WORKLOADS;

export function isWorkloadId(value: unknown): value is WorkloadId {
  return typeof value === "string" && Object.hasOwn(WORKLOADS, value);
}

export function workload(id: string): Workload {
  if (!isWorkloadId(id)) {
    throw new Error(`workload: unknown workload "${id}" (known: ${Object.keys(WORKLOADS).join(", ")})`);
  }
  return WORKLOADS[id];
}

/** The operation proportions of a workload; they sum to 1 for every catalogue entry (tested). */
export function operationMix(w: Workload): Record<string, number> {
  const keys = ["read", "update", "scan", "insert", "readmodifywrite"] as const;
  const mix: Record<string, number> = {};
  for (const k of keys) mix[k] = Number(w.properties[`${k}proportion`] ?? "0");
  return mix;
}

/**
 * The workload class every phase of a plan runs: the project's CoreWorkload extension (runner/bindings common,
 * io.ycsblab.workloads.LongKeyWorkload), YCSB 0.17.0's CoreWorkload over the whole long key range. It changes:
 * - counts and key numbers are longs: `insertcount` has no int default, loads and key choices past 2^31 records
 *   stay on the data set's keys (YCSB's own narrows them to ints);
 * - the zipfian key space expects inserts from `keySpaceOperations` operations (default: `operationcount`); a phase
 *   bounded by time only passes 0 (seed 001's scans ran "without an operation count"), not the sentinel count;
 * - a key number k at or above recordcount (a run-phase insert, and the reads YCSB then aims at it) becomes
 *     recordcount + ((k - recordcount) * lanes + lane) * clients + client
 *   so each client of each insert phase since the last load writes keys of its own;
 * - `warmupSeconds`: a warm-up inside the measuring process, unmeasured, on the connections the measurement then
 *   uses (seed 002: "Warm-up for 1 minute", then the run, with the same clients).
 * The operation mix, the distributions, key hashing and everything else stay YCSB 0.17.0's CoreWorkload.
 */
export const PROJECT_WORKLOAD = {
  workloadClass: "io.ycsblab.workloads.LongKeyWorkload",
  /** Operations the zipfian key space expects inserts from ("0" for a phase bounded by time only). */
  keySpaceOperations: "ycsblab.keyspace.operationcount",
  warmupSeconds: "ycsblab.warmup.seconds",
  /** This client's index, 0..clients-1 (per client). */
  client: "ycsblab.insertrange.client",
  clients: "ycsblab.insertrange.clients",
  /** This phase's place among the insert phases since the last load, 0..lanes-1. */
  lane: "ycsblab.insertrange.lane",
  lanes: "ycsblab.insertrange.lanes",
} as const;

/** The class name plans written before LongKeyWorkload gave the per-client insert ranges (the same class now). */
export const CLIENT_KEY_RANGE_WORKLOAD = "io.ycsblab.workloads.ClientKeyRangeWorkload";

/** Whether a phase's workload class is one of the project's (its jar must be on YCSB's classpath). */
export function isProjectWorkload(workloadClass: string | undefined): boolean {
  return workloadClass === PROJECT_WORKLOAD.workloadClass || workloadClass === CLIENT_KEY_RANGE_WORKLOAD;
}
