import { type Static, Type } from "@sinclair/typebox";
import { INCLUDE_VALUES } from "./aggregate/rules.js";
import { CapacityPriceSchema, CapacityResultSchema, CapacitySloSchema } from "./capacity-result.js";
import { ENGINES } from "./engine.js";
import { InstanceBillingSchema } from "./instance-billing.js";
import { PRESETS } from "./presets.js";
import { dateTimeOptions, LIMITS } from "./result-limits.js";

const literals = <T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v)));

/** ?format=csv turns any read endpoint into CSV (one row per point). */
export const FormatQuery = Type.Object({
  format: Type.Optional(Type.Union([Type.Literal("json"), Type.Literal("csv")])),
});

export const RunFiltersQuery = Type.Object({
  engine: Type.Optional(literals(ENGINES)),
  version: Type.Optional(Type.String({ maxLength: 100 })),
  preset: Type.Optional(literals(PRESETS)),
  nodes: Type.Optional(Type.Integer({ minimum: 1, maximum: LIMITS.nodes })),
  workload: Type.Optional(Type.String({ maxLength: 100 })),
  instanceType: Type.Optional(Type.String({ maxLength: 100 })),
  scenario: Type.Optional(Type.String({ maxLength: 200 })),
  source: Type.Optional(Type.Union([Type.Literal("measured"), Type.Literal("published")])),
  from: Type.Optional(Type.String(dateTimeOptions("runs started at or after"))),
  to: Type.Optional(Type.String(dateTimeOptions("runs started at or before"))),
  include: Type.Optional(
    Type.Union([Type.Literal(INCLUDE_VALUES[0]), Type.Literal(INCLUDE_VALUES[1])], {
      description:
        "aggregates: valid (default) leaves out phases judged invalid and says how many (leftOut); all counts them too",
    }),
  ),
  format: FormatQuery.properties.format,
});
export type RunFiltersQueryT = Static<typeof RunFiltersQuery>;

export const ErrorResponse = Type.Object({
  statusCode: Type.Integer(),
  error: Type.String(),
  message: Type.String(),
  fields: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
});

const Nullable = <T extends ReturnType<typeof Type.Number>>(t: T) => Type.Union([t, Type.Null()]);
const NumOrNull = Nullable(Type.Number());

/**
 * A run's headline: its first workload at its peak load level, the mean over repeats at each level and the level of
 * the highest mean (model/aggregate/rules.ts peakLevelOverRepeats): the same number the compare view shows for the run.
 */
export const RunPeakSchema = Type.Object({
  workload: Type.String(),
  phase: Type.String({ description: "the peak phase (of the first repeat)" }),
  threads: Type.Integer({ description: "total client threads of the peak phase" }),
  target: NumOrNull,
  throughput: Type.Object({
    n: Type.Integer(),
    mean: NumOrNull,
    stdDev: NumOrNull,
    ci95: Type.Union([Type.Object({ low: Type.Number(), high: Type.Number(), halfWidth: Type.Number() }), Type.Null()]),
  }),
});

export const RunSummary = Type.Object({
  id: Type.String(),
  scenario: Type.String(),
  engine: Type.String(),
  engineVersion: Type.String(),
  preset: Type.String(),
  nodes: Type.Integer(),
  instanceTypes: Type.Object({ data: Type.String(), client: Type.String() }),
  replication: Type.Integer(),
  repeat: Type.Integer(),
  startedAt: Type.String(),
  finishedAt: Type.Union([Type.String(), Type.Null()]),
  standIn: Type.Union([Type.String(), Type.Null()]),
  source: Type.Object({
    kind: Type.String(),
    citation: Type.Union([Type.String(), Type.Null()]),
    seed: Type.Union([Type.String(), Type.Null()]),
    table: Type.Union([Type.String(), Type.Null()]),
  }),
  /** Set by a token holder: the run is listed with its reason and left out of every aggregate view. */
  quarantine: Type.Union([Type.Object({ reason: Type.String(), at: Type.String() }), Type.Null()]),
  phases: Type.Optional(Type.Integer()),
  /** GET /runs: worst client verdict, its reasons, the workloads, and the run's headline throughput (`peak`). */
  verdict: Type.Optional(Type.String()),
  reasons: Type.Optional(Type.Array(Type.String())),
  workloads: Type.Optional(Type.Array(Type.String())),
  throughputOpsSec: Type.Optional(
    Type.Union([Type.Number(), Type.Null()], { description: "peak.throughput.mean: the run's headline throughput" }),
  ),
  peak: Type.Optional(Type.Union([RunPeakSchema, Type.Null()])),
  records: Type.Optional(
    Type.Union([Type.Number(), Type.Null()], {
      description:
        "GET /runs: the most records a phase was given (YCSB recordcount): with the scenario's, the scale the run ran at",
    }),
  ),
});

export const OperationAggregate = Type.Object({
  count: Type.Number(),
  avgUs: NumOrNull,
  minUs: NumOrNull,
  maxUs: NumOrNull,
  percentilesUs: Type.Record(Type.String(), NumOrNull),
  percentileMethod: Type.Union(
    [Type.Literal("merged-hdr"), Type.Literal("single-client"), Type.Literal("max-of-clients")],
    {
      description:
        "merged-hdr: from the clients' merged HDR histograms; single-client: as printed; max-of-clients: an upper bound, no histograms stored",
    },
  ),
  averageOfClientAveragesUs: Type.Union([Type.Number(), Type.Null()], {
    description: "the seeds' average of client averages, for comparison only",
  }),
});

export const PhaseResult = Type.Object({
  runId: Type.String(),
  phase: Type.Object({
    name: Type.String(),
    index: Type.Integer(),
    kind: Type.String(),
    workload: Type.Union([Type.String(), Type.Null()]),
    threadsPerClient: Type.Integer(),
    clients: Type.Integer(),
    target: NumOrNull,
    repeat: Type.Integer({ description: "which repeat of its configuration the phase is" }),
    operationCount: Type.Union([Type.Integer(), Type.Null()]),
  }),
  verdict: Type.String(),
  reasons: Type.Array(Type.String(), {
    description: "the reasons of the phase's client verdicts (runner/validity.ts)",
  }),
  aggregate: Type.Object({
    clients: Type.Integer(),
    expectedClients: Type.Integer(),
    complete: Type.Boolean(),
    throughputOpsSec: Type.Number({ description: "summed over clients" }),
    runtimeMs: Type.Number(),
    operations: Type.Record(Type.String(), OperationAggregate),
  }),
});

/** A run's realized cost from its instances' boot status markers (model/run-cost.ts runCost), or why it has none. */
export const RunCostSchema = Type.Union(
  [
    Type.Object({
      priced: Type.Literal(true),
      basis: Type.Literal("realized"),
      usd: Type.Number({ description: "every instance billed from its boot to its last word, 60 s at least" }),
      configurationUsdPerHour: Type.Union([Type.Number(), Type.Null()], {
        description: "the data instances' bill over the hours they stood",
      }),
      instances: Type.Array(
        Type.Object({
          instance: Type.String(),
          role: Type.Union([Type.Literal("data"), Type.Literal("client")]),
          instanceType: Type.Union([Type.String(), Type.Null()]),
          startedAt: Type.String(),
          endedAt: Type.String(),
          billing: Type.Union([InstanceBillingSchema, Type.Null()], {
            description: "its EBS volumes and public IPv4 address as its markers recorded them; null when they did not",
          }),
          billedSeconds: Type.Number(),
          usdPerHour: Type.Number({ description: "the instance, and its volumes and address when recorded" }),
          usd: Type.Number(),
          parts: Type.Object(
            {
              instance: Type.Number(),
              volumes: Type.Union([Type.Number(), Type.Null()]),
              publicIpv4: Type.Union([Type.Number(), Type.Null()]),
            },
            { description: "its dollars by what they pay for; null for what its markers did not record" },
          ),
        }),
      ),
      covers: Type.String({
        description: "what the figure counts and what it leaves out (the instances whose volumes it could not count)",
      }),
      pricesAsOf: Type.String(),
      source: Type.String(),
    }),
    Type.Object({ priced: Type.Literal(false), statement: Type.String() }),
  ],
  { description: "the run's realized cost, or why it has none (a local run rents nothing)" },
);

export const RunWithPhases = Type.Object({ run: RunSummary, phases: Type.Array(PhaseResult), cost: RunCostSchema });

/** An aggregate over repeats (model/aggregate/rules.ts overRepeats): the mean, its 95% CI (Student t) and n. */
export const OverRepeatsSchema = Type.Object(
  {
    n: Type.Integer({ description: "repeats counted" }),
    mean: NumOrNull,
    stdDev: NumOrNull,
    ci95: Type.Union([Type.Object({ low: Type.Number(), high: Type.Number(), halfWidth: Type.Number() }), Type.Null()]),
  },
  { description: "mean over repeats with its 95% confidence interval and n; never the best repeat" },
);

/** Phases an aggregate left out (model/aggregate/rules.ts selectPhases). */
export const LeftOutSchema = Type.Object(
  {
    invalid: Type.Integer({ description: "phases judged invalid, left out (include=all counts them)" }),
    incomplete: Type.Integer({ description: "phases some client never reported" }),
  },
  { description: "phases left out of the aggregate" },
);

/** The stand-in that served instead of the engine and the machines: measurements of another never share a series. */
const StandIn = Type.Union([Type.String(), Type.Null()], {
  description: "the stand-in that served instead of the engine (site.ycsb.BasicDB, FerretDB, CouchbaseMock), or null",
});
const InstanceTypes = Type.Object(
  { data: Type.String(), client: Type.String() },
  { description: 'the machines ("local" for a run on one machine)' },
);

export const ScalingSeriesSchema = Type.Object({
  engine: Type.String(),
  workload: Type.Union([Type.String(), Type.Null()]),
  preset: Type.String(),
  scenario: Type.String(),
  sourceKind: Type.String(),
  sourceId: Type.String({
    description: "one series per source: a published study's figures never merge with another's",
  }),
  citation: Type.Union([Type.String(), Type.Null()]),
  standIn: StandIn,
  instanceTypes: InstanceTypes,
  operationCount: Type.Union([Type.Integer(), Type.Null()], {
    description: "the scenario's operation count (seed 003: one series per count)",
  }),
  operationCountPer: Type.Union([Type.String(), Type.Null()], {
    description: "client or total: how the scenario stated the count",
  }),
  points: Type.Array(
    Type.Object({
      nodes: Type.Integer(),
      throughputOpsSec: Type.Number({ description: "mean over repeats at the load level of the highest mean" }),
      throughput: OverRepeatsSchema,
      runs: Type.Integer(),
      phases: Type.Integer({ description: "phases counted" }),
      leftOut: LeftOutSchema,
      verdict: Type.String({
        description: "the worst verdict of the phases the value stands on (valid, warning, invalid)",
      }),
      reasons: Type.Array(Type.String(), { description: "their reasons (a few), for a warning or invalid verdict" }),
    }),
  ),
  leftOut: LeftOutSchema,
  analysis: Type.Object({
    baseNodes: Type.Union([Type.Integer(), Type.Null()]),
    steps: Type.Array(
      Type.Object({
        fromNodes: Type.Integer(),
        toNodes: Type.Integer(),
        gain: Type.Number(),
        linearGain: Type.Number(),
        efficiency: Type.Number(),
      }),
    ),
    score: Type.Union([Type.Number(), Type.Null()], {
      description:
        "seed 002 scalability score: mean efficiency of 4 -> 6 and 4 -> 8 nodes; null unless the series has 4, 6 and 8 nodes (steps give each 1 -> k efficiency)",
    }),
    idealLinear: Type.Array(Type.Object({ nodes: Type.Integer(), throughputOpsSec: Type.Number() })),
  }),
});

/** p99 from the clients' merged HDR histograms where every client has one, else the max of theirs: `p99Method` says which. */
const P99Method = Type.Union([
  Type.Literal("merged-hdr"),
  Type.Literal("max-of-clients"),
  Type.Literal("single-client"),
]);
const PhaseLatency = Type.Record(
  Type.String(),
  Type.Object({ count: Type.Number(), avgUs: NumOrNull, p99Us: NumOrNull, p99Method: P99Method }),
);

export const DurabilityRow = Type.Object({
  engine: Type.String(),
  workload: Type.Union([Type.String(), Type.Null()]),
  preset: Type.String(),
  nodes: Type.Integer({ description: "data nodes: presets are compared at one cluster size" }),
  operationCount: Type.Union([Type.Integer(), Type.Null()]),
  operationCountPer: Type.Union([Type.String(), Type.Null()], {
    description: "client or total: how the scenario stated the count",
  }),
  scenario: Type.String(),
  sourceKind: Type.String(),
  sourceId: Type.String(),
  citation: Type.Union([Type.String(), Type.Null()]),
  standIn: StandIn,
  instanceTypes: InstanceTypes,
  phases: Type.Integer({ description: "workload phases of the cell's runs, every load level" }),
  runs: Type.Integer({ description: "runs whose repeats were counted at the peak load level" }),
  peakThreads: Type.Array(Type.Integer(), { description: "total client threads of the peak load level" }),
  throughputOpsSec: Type.Union([Type.Number(), Type.Null()], {
    description: "mean over repeats at the load level of the highest mean (seed 004: maximum throughput)",
  }),
  throughput: OverRepeatsSchema,
  leftOut: LeftOutSchema,
  verdict: Type.String({ description: "the worst verdict of the peak phases the cell stands on" }),
  reasons: Type.Array(Type.String(), { description: "their reasons (a few), for a warning or invalid verdict" }),
  operations: Type.Record(
    Type.String(),
    Type.Object({
      count: Type.Number(),
      avgUs: NumOrNull,
      p99Us: NumOrNull,
      p99Method: P99Method,
    }),
  ),
});

export const SweepSeries = Type.Object({
  runId: Type.String({ description: "the first run of the series" }),
  runCount: Type.Integer({ description: "how many runs the series' phases come from" }),
  scenario: Type.String(),
  engine: Type.String(),
  preset: Type.String(),
  nodes: Type.Integer(),
  workload: Type.Union([Type.String(), Type.Null()]),
  operationCount: Type.Union([Type.Integer(), Type.Null()], {
    description: "seed 003: one series per operation count",
  }),
  operationCountPer: Type.Union([Type.String(), Type.Null()]),
  sourceKind: Type.String(),
  sourceId: Type.String({ description: "the source: measured, or one published study" }),
  standIn: StandIn,
  instanceTypes: InstanceTypes,
  engineVersion: Type.String(),
  leftOut: LeftOutSchema,
  points: Type.Array(
    Type.Object({
      phase: Type.String({ description: "the phase name without its repeat suffix" }),
      phases: Type.Array(Type.String(), { description: "the phases of this load level counted: its repeats" }),
      threads: Type.Integer(),
      target: NumOrNull,
      complete: Type.Boolean({ description: "no phase of the level was left out as incomplete" }),
      throughputOpsSec: Type.Number({
        description: "mean over the repeats of each phase's throughput summed over clients",
      }),
      throughput: OverRepeatsSchema,
      runtimeMs: Type.Union([Type.Number(), Type.Null()], {
        description: "mean over the repeats of each phase's slowest client's runtime",
      }),
      runtime: OverRepeatsSchema,
      leftOut: LeftOutSchema,
      verdict: Type.String({
        description: "the worst verdict of the phases the value stands on (valid, warning, invalid)",
      }),
      reasons: Type.Array(Type.String(), { description: "their reasons (a few), for a warning or invalid verdict" }),
      latency: PhaseLatency,
    }),
  ),
});

export const RepeatGroupSchema = Type.Object({
  scenario: Type.String(),
  engine: Type.String(),
  engineVersion: Type.String(),
  preset: Type.String(),
  nodes: Type.Integer(),
  workload: Type.Union([Type.String(), Type.Null()]),
  phase: Type.String({ description: "the phase name without its repeat suffix" }),
  threadsPerClient: Type.Integer(),
  clients: Type.Integer(),
  target: NumOrNull,
  operationCount: Type.Union([Type.Integer(), Type.Null()]),
  sourceKind: Type.String(),
  sourceId: Type.String({ description: "the source: measured, or one published study" }),
  standIn: StandIn,
  instanceTypes: InstanceTypes,
  repeatCount: Type.Integer({ description: "how many repeats the configuration has (repeats lists at most ?repeats)" }),
  runCount: Type.Integer({ description: "how many runs its repeats come from" }),
  verdicts: Type.Record(Type.String(), Type.Integer(), { description: "how many of its repeats have each verdict" }),
  runs: Type.Array(Type.String(), { description: "the runs of the repeats listed" }),
  repeats: Type.Array(
    Type.Object({
      runId: Type.String(),
      phase: Type.String(),
      runRepeat: Type.Integer(),
      repeat: Type.Integer(),
      throughputOpsSec: Type.Number(),
      verdict: Type.String(),
    }),
  ),
  leftOut: LeftOutSchema,
  throughput: Type.Object({
    n: Type.Integer(),
    mean: NumOrNull,
    stdDev: NumOrNull,
    ci95: Type.Union([Type.Object({ low: Type.Number(), high: Type.Number(), halfWidth: Type.Number() }), Type.Null()]),
    coefficientOfVariation: NumOrNull,
    maxDifference: NumOrNull,
    min: NumOrNull,
    max: NumOrNull,
  }),
});

const AnovaTableSchema = Type.Object({
  threadsAs: Type.Union([Type.Literal("numeric"), Type.Literal("levels")]),
  rows: Type.Array(
    Type.Object({
      term: Type.Union([Type.Literal("DB"), Type.Literal("NT"), Type.Literal("DB:NT"), Type.Literal("Residuals")]),
      df: Type.Integer(),
      sumSq: Type.Number(),
      meanSq: Type.Union([Type.Number(), Type.Null()]),
      F: NumOrNull,
      p: NumOrNull,
      significance: Type.String({ description: "R's codes: *** <= 0.001, ** <= 0.01, * <= 0.05, . <= 0.1" }),
    }),
  ),
  observations: Type.Integer(),
  withinKnown: Type.Boolean({
    description: "false where only cell means are known (a published table): each F is an upper bound",
  }),
  note: Type.Optional(Type.String()),
});

export const AnovaAnalysisSchema = Type.Object({
  scenario: Type.String(),
  sourceKind: Type.String(),
  sourceId: Type.String(),
  citation: Type.Union([Type.String(), Type.Null()]),
  workload: Type.Union([Type.String(), Type.Null()]),
  operationCount: Type.Union([Type.Integer(), Type.Null()]),
  preset: Type.String(),
  nodes: Type.Integer(),
  cells: Type.Array(
    Type.Object({ database: Type.String(), threads: Type.Integer(), n: Type.Integer(), meanRuntimeMs: Type.Number() }),
  ),
  threadsNumeric: AnovaTableSchema,
  threadsLevels: AnovaTableSchema,
  published: Type.Union([
    Type.Object({
      table: Type.String(),
      F: Type.Array(NumOrNull),
      p: Type.Array(Type.Union([Type.String(), Type.Null()])),
      significance: Type.Array(Type.String()),
    }),
    Type.Null(),
  ]),
  leftOut: LeftOutSchema,
});

export const RunsPage = Type.Object({ total: Type.Integer(), runs: Type.Array(RunSummary) });
export const CompareResponse = Type.Object({ missing: Type.Array(Type.String()), runs: Type.Array(RunWithPhases) });
export const ScalingResponse = Type.Object({ series: Type.Array(ScalingSeriesSchema), leftOut: LeftOutSchema });
export const DurabilityResponse = Type.Object({ rows: Type.Array(DurabilityRow), leftOut: LeftOutSchema });
export const SweepsResponse = Type.Object({ series: Type.Array(SweepSeries), leftOut: LeftOutSchema });
export const RepeatabilityResponse = Type.Object({ groups: Type.Array(RepeatGroupSchema), leftOut: LeftOutSchema });

/**
 * The repeats a /repeatability group lists unless asked for another number: a chart's worth (the seeds ran 3 to 5),
 * not every one; its mean, CI and counts cover them all.
 */
export const REPEATS_LISTED = 20;
export const RepeatabilityQuery = Type.Object({
  ...RunFiltersQuery.properties,
  repeats: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 10_000,
      description: `at most this many repeats listed per configuration, in run then phase order (default ${REPEATS_LISTED}); the statistics always count them all`,
    }),
  ),
});
export type RepeatabilityQueryT = Static<typeof RepeatabilityQuery>;
export const AnovaResponse = Type.Object({ analyses: Type.Array(AnovaAnalysisSchema), leftOut: LeftOutSchema });

/** One phase's status-line series and latency histogram buckets, per client (the time series and latency views). */
export const PhaseSeriesResponse = Type.Object({
  runId: Type.String(),
  phase: Type.String(),
  clients: Type.Array(
    Type.Object({
      clientIndex: Type.Integer(),
      /** Two columns of the status series, one entry per status line. */
      status: Type.Object({
        elapsedSec: Type.Array(Type.Number()),
        opsPerSec: Type.Array(Type.Union([Type.Number(), Type.Null()])),
      }),
      histograms: Type.Record(Type.String(), Type.Array(Type.Object({ bucket: Type.String(), count: Type.Number() }))),
    }),
  ),
  /** Per operation, from every client's merged HDR histogram: the percentile spectrum and 1 ms buckets. */
  latency: Type.Record(
    Type.String(),
    Type.Object({
      method: Type.Literal("merged-hdr"),
      clients: Type.Integer(),
      count: Type.Number(),
      spectrum: Type.Array(Type.Object({ percentile: Type.Number(), valueUs: Type.Number() })),
      buckets: Type.Array(Type.Object({ bucket: Type.String(), count: Type.Number() })),
    }),
  ),
});

export const ReferenceTableSchema = Type.Object({
  id: Type.String(),
  seed: Type.String(),
  tableRef: Type.String(),
  title: Type.String(),
  citation: Type.String(),
  unit: Type.Union([Type.String(), Type.Null()]),
  columns: Type.Array(Type.String()),
  rows: Type.Array(Type.Array(Type.Union([Type.String(), Type.Number(), Type.Null()]))),
  notes: Type.Union([Type.String(), Type.Null()]),
  /** How the table reads as results (api/store/reference-data.ts RunsDerive / LatencyDerive); null for tables kept as text only. */
  derive: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  /** A latency table (derive metric "mean-latency") as one series per engine, in microseconds (model/reference-series.ts). */
  series: Type.Array(
    Type.Object({
      engine: Type.String(),
      metric: Type.Literal("mean-latency"),
      workload: Type.Union([Type.String(), Type.Null()]),
      operation: Type.Union([Type.String(), Type.Null()]),
      points: Type.Array(Type.Object({ nodes: Type.Integer(), valueUs: Type.Number() })),
    }),
  ),
});

export const ReferenceTablesResponse = Type.Object({ tables: Type.Array(ReferenceTableSchema) });

const Facet = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(value: T) =>
  Type.Array(Type.Object({ value, runs: Type.Integer() }));

/** What each filter can be set to, with the number of runs of each value: the dashboard's options without its runs. */
export const FacetsResponse = Type.Object({
  runs: Type.Integer(),
  measured: Type.Integer(),
  published: Type.Integer(),
  engines: Facet(Type.String()),
  versions: Type.Array(Type.Object({ engine: Type.String(), value: Type.String(), runs: Type.Integer() })),
  presets: Facet(Type.String()),
  nodes: Facet(Type.Integer()),
  scenarios: Facet(Type.String()),
  scenarioPresets: Type.Array(Type.Object({ scenario: Type.String(), presets: Type.Array(Type.String()) }), {
    description: "the presets each scenario's runs ran under",
  }),
  workloads: Type.Array(Type.Object({ value: Type.String(), phases: Type.Integer() })),
  instanceTypes: Facet(Type.String()),
  verdicts: Facet(Type.String()),
  sources: Type.Array(
    Type.Object({
      id: Type.String(),
      kind: Type.String(),
      citation: Type.Union([Type.String(), Type.Null()]),
      seed: Type.Union([Type.String(), Type.Null()]),
      scenarios: Type.Array(Type.String()),
      runs: Type.Integer(),
    }),
  ),
});

/** The landing chart: the latest measured runs' headline throughput over their start time (published runs have study pages). */
export const TimelineResponse = Type.Object({
  more: Type.Boolean({ description: "more measured runs match than the limit: these are the latest" }),
  runs: Type.Array(
    Type.Object({
      id: Type.String(),
      engine: Type.String(),
      engineVersion: Type.String(),
      preset: Type.String(),
      nodes: Type.Integer(),
      scenario: Type.String(),
      verdict: Type.String(),
      startedAt: Type.String(),
      peak: Type.Union([RunPeakSchema, Type.Null()]),
    }),
  ),
});

const ConfigurationSchema = Type.Object({
  scenario: Type.String(),
  engine: Type.String(),
  preset: Type.String(),
  nodes: Type.Integer(),
  instanceType: Type.String(),
});

/** GET /regressions: each configuration's history per workload, its change points, and the difference to its baseline. */
export const RegressionsResponse = Type.Object({
  order: Type.Union([Type.Literal("time"), Type.Literal("version")]),
  method: Type.String({ description: "how change points are found" }),
  histories: Type.Array(
    Type.Object({
      configuration: ConfigurationSchema,
      configurationId: Type.String(),
      workload: Type.String(),
      runs: Type.Array(
        Type.Object({
          id: Type.String(),
          startedAt: Type.String(),
          engineVersion: Type.String(),
          verdict: Type.String(),
          phase: Type.String({ description: "the peak phase" }),
          threads: Type.Integer(),
          throughput: OverRepeatsSchema,
          changeFromBaseline: Type.Union([Type.Number(), Type.Null()], {
            description: "fraction: -0.12 is 12 % below the baseline",
          }),
          againstBaseline: Type.Union([
            Type.Literal("exceeds noise"),
            Type.Literal("within noise"),
            Type.Literal("noise unknown"),
            Type.Null(),
          ]),
        }),
      ),
      changes: Type.Array(
        Type.Object({
          index: Type.Integer({ description: "the first run after the change" }),
          runId: Type.String(),
          previousRunId: Type.String(),
          fromVersion: Type.String(),
          toVersion: Type.String(),
          meanBefore: Type.Number(),
          meanAfter: Type.Number(),
          change: Type.Union([Type.Number(), Type.Null()]),
          pValue: Type.Number(),
          kind: Type.Union([Type.Literal("regression"), Type.Literal("improvement")]),
        }),
      ),
      baseline: Type.Union([
        Type.Object({ runId: Type.String(), throughputOpsSec: Type.Union([Type.Number(), Type.Null()]) }),
        Type.Null(),
      ]),
    }),
  ),
});

/** GET /baselines: the runs pinned as their configurations' baselines, with each workload's peak. */
export const BaselinesResponse = Type.Object({
  baselines: Type.Array(
    Type.Object({
      configurationId: Type.String(),
      configuration: ConfigurationSchema,
      runId: Type.String(),
      note: Type.Union([Type.String(), Type.Null()]),
      pinnedAt: Type.String(),
      engineVersion: Type.String(),
      startedAt: Type.String(),
      workloads: Type.Array(
        Type.Object({
          workload: Type.String(),
          phase: Type.String(),
          threads: Type.Integer(),
          throughput: OverRepeatsSchema,
        }),
      ),
    }),
  ),
});

export const PinResponse = Type.Object({
  configurationId: Type.String(),
  runId: Type.String(),
  replaced: Type.Union([Type.String(), Type.Null()]),
});

/** GET /runs/:id/audit: every action on the run by a token holder, oldest first (kept after a delete). */
export const RunAuditResponse = Type.Object({
  runId: Type.String(),
  exists: Type.Boolean({ description: "false once the run is deleted" }),
  entries: Type.Array(
    Type.Object({
      action: Type.Union([Type.Literal("quarantine"), Type.Literal("release"), Type.Literal("delete")]),
      actor: Type.String({ description: "the name of the write token that acted" }),
      at: Type.String(),
      reason: Type.Union([Type.String(), Type.Null()], {
        description: "free text: isolate it where it is shown (it may hold bidirectional controls)",
      }),
      previous: Type.Unknown({
        description:
          "the run's state before: its quarantine, and for a delete its facts and how many phases and results it held",
      }),
    }),
  ),
});

/**
 * GET /capacity: per configuration (deployment, workload, search, SLO) the sustainable throughput under the SLO as
 * the mean over repeats with its CI and n, its price (model/capacity-result.ts), and each repeat's search with its
 * step ladder and the step that broke and why.
 */
export const CapacityConfigurationSchema = Type.Object({
  engine: Type.String(),
  engineVersion: Type.String(),
  preset: Type.String(),
  nodes: Type.Integer(),
  scenario: Type.String(),
  workload: Type.Union([Type.String(), Type.Null()]),
  sourceKind: Type.String(),
  sourceId: Type.String(),
  standIn: StandIn,
  instanceTypes: InstanceTypes,
  clients: Type.Integer(),
  search: Type.String({ description: "the search's name without its repeat suffix (the plan's <test>-cap)" }),
  slo: CapacitySloSchema,
  sustainable: OverRepeatsSchema,
  price: CapacityPriceSchema,
  verdict: Type.String({ description: "the worst verdict of the steps that held, over the repeats counted" }),
  reasons: Type.Array(Type.String()),
  leftOut: Type.Object(LeftOutSchema.properties, {
    description: "searches left out: invalid held steps, or a step some client never reported",
  }),
  runs: Type.Array(
    Type.Object({
      runId: Type.String(),
      runRepeat: Type.Integer(),
      repeat: Type.Integer(),
      verdict: Type.String(),
      reasons: Type.Array(Type.String()),
      result: CapacityResultSchema,
    }),
  ),
});
export const CapacityResponse = Type.Object({
  configurations: Type.Array(CapacityConfigurationSchema),
  leftOut: LeftOutSchema,
});
