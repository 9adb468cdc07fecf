/** The types the views use: the API's TypeBox schemas where the shape is the API's own, mapped shapes otherwise. */
import type { Static } from "@sinclair/typebox";
import type {
  AnovaResponse,
  BaselinesResponse,
  FacetsResponse,
  ReferenceTablesResponse,
  RegressionsResponse,
  RunPeakSchema,
  TimelineResponse,
} from "../../../model/api-schemas.js";
import type { Validity } from "../../../model/result-document.js";
import type { PointVerdict } from "../verdicts.js";

export type Verdict = Validity["verdict"];

export interface RunSource {
  kind: "measured" | "published" | string;
  citation?: string;
  seed?: string;
  /** Measured on a stand-in instead of the engine (site.ycsb.BasicDB, FerretDB, CouchbaseMock): drawn as such. */
  standIn?: string;
}

export interface RunRow {
  id: string;
  scenario: string;
  engine: string;
  engineVersion: string;
  preset: string;
  nodes: number;
  dataInstanceType: string;
  clientInstanceType: string;
  replication: number;
  repeat: number;
  startedAt: string;
  source: RunSource;
  standIn?: string;
  /** Worst verdict over the run's client results. */
  verdict: string;
  reasons: string[];
  workloads: string[];
  /** The run's headline: its first workload at its peak load level, mean over repeats (null when it has none). */
  throughputOpsSec: number | null;
  peak: RunPeak | null;
  /** The most records a phase of the run was given (its recordcount), null when none says: the run's scale. */
  records: number | null;
  finishedAt: string | null;
}

export type RunPeak = Static<typeof RunPeakSchema>;
export type Facets = Static<typeof FacetsResponse>;
export type Timeline = Static<typeof TimelineResponse>;
export type Baselines = Static<typeof BaselinesResponse>;
export type Regressions = Static<typeof RegressionsResponse>;
export type ReferenceTable = Static<typeof ReferenceTablesResponse>["tables"][number];
export type Anova = Static<typeof AnovaResponse>;

export interface RunPage {
  total: number;
  runs: RunRow[];
}

export interface OperationAggregate {
  count: number;
  avgUs: number | null;
  /** Merged across clients where the API has HDR histograms, keys as printed ("95", "99", "99.9"). */
  percentilesUs: Record<string, number>;
  /** merged-hdr, single-client or max-of-clients (an upper bound): model/aggregate/phase.ts. */
  percentileMethod: string;
}

/** Two columns of a client's status series (model/status-series.ts), one entry per status line. */
export interface StatusColumnsView {
  elapsedSec: number[];
  opsPerSec: (number | null)[];
}

export interface PhaseView {
  name: string;
  kind: string;
  workload?: string;
  threadsPerClient: number;
  clients: number;
  throughputOpsSec: number;
  runtimeMs: number;
  operations: Record<string, OperationAggregate>;
  verdict: string;
  /** The reasons of its clients' verdicts. */
  reasons: string[];
  runId: string;
  /** Which repeat of its load level the phase is, and whether every client reported. */
  repeat: number;
  target: number | null;
  clientsReported: number;
}

export interface PhaseSeries {
  /** One status-line series per client. */
  status: ({ clientIndex: number } & StatusColumnsView)[];
  /** Latency histogram buckets per operation, summed over clients (same bucket bounds, so the sum is exact). */
  histograms: Record<string, { bucket: string; count: number }[]>;
  /** Per operation, from every client's merged HDR histogram (the API's merge): percentile spectrum and 1 ms buckets. */
  latency: Record<string, PhaseDistribution>;
}

export interface PhaseDistribution {
  clients: number;
  count: number;
  spectrum: { percentile: number; valueUs: number }[];
  buckets: { bucket: string; count: number }[];
}

export interface RunDetail {
  run: RunRow;
  phases: PhaseView[];
}

export interface ScalingSeries {
  engine: string;
  workload: string;
  preset: string;
  scenario: string;
  source: RunSource;
  /** Mean over repeats of each repeat's peak, with its 95% CI (null for one repeat) and n, and the peaks' verdict. */
  points: {
    nodes: number;
    throughputOpsSec: number;
    ci: { low: number; high: number } | null;
    n: number;
    verdict: PointVerdict;
  }[];
  ideal: { nodes: number; throughputOpsSec: number }[];
  /** Each 1 -> k step: throughput gain over the smallest cluster divided by the linear gain (1 = linear). */
  steps: { fromNodes: number; toNodes: number; efficiency: number }[];
  /** Seed 002's scalability score in percent (4 -> 6 and 4 -> 8 nodes), null unless the series has 4, 6 and 8 nodes. */
  scalabilityScore: number | null;
  /** Phases left out of the means (invalid by default, incomplete always). */
  leftOut: { invalid: number; incomplete: number };
}

export interface DurabilityCell {
  engine: string;
  preset: string;
  workload: string;
  /** Data nodes: presets are compared at one cluster size. */
  nodes: number;
  scenario: string;
  source: RunSource;
  /** Mean over runs of each run's peak phase (the API's rule, seed 004's "maximum throughput"). */
  throughputOpsSec: number | null;
  /** Its 95% CI over repeats (null for one repeat) and the repeats counted. */
  ci: { low: number; high: number } | null;
  n: number;
  /** Runs averaged and the total client threads of their peak phases. */
  runs: number;
  peakThreads: number[];
  p99Us: Record<string, number>;
  /** The verdict of the peak phases the cell stands on, with their reasons. */
  verdict: PointVerdict;
  /** Per operation: the count and mean latency of the peak phases (count-weighted over clients). */
  latency: Record<string, { count: number; avgUs: number | null }>;
  leftOut: { invalid: number; incomplete: number };
}

export interface SweepSeries {
  engine: string;
  engineVersion: string;
  workload: string;
  preset: string;
  nodes: number;
  scenario: string;
  operationCount: number | null;
  label: string;
  source: RunSource;
  /**
   * A load level's repeats are one point: throughput and runtime as mean with 95% CI (null for one repeat) and n.
   * p99 is the worst operation's (CLEANUP excluded), p99ByOp each operation's, from the clients' merged histograms where the API has them.
   */
  points: {
    threads: number;
    target: number | null;
    phase: string;
    n: number;
    throughputOpsSec: number | null;
    throughputCi: { low: number; high: number } | null;
    runtimeMs: number | null;
    runtimeCi: { low: number; high: number } | null;
    p99Us: number | null;
    p99ByOp: Record<string, number>;
    verdict: PointVerdict;
  }[];
}

export interface RepeatGroup {
  label: string;
  engine: string;
  source: RunSource;
  /** In order; `repeat` numbers them 0.. within the group (runs of several repeat indexes, or repeat phases of one run). */
  repeats: { repeat: number; runId: string; phase: string; throughputOpsSec: number; verdict: string }[];
  mean: number | null;
  /** The mean's 95% CI over the repeats (Student t). */
  ci: { low: number; high: number; halfWidth: number } | null;
  stdDev: number | null;
  cvPct: number | null;
  /** (max - min) / min in percent, seed 002's "maximum difference". */
  maxDiffPct: number | null;
}
