import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { CapacityStepSchema } from "./capacity-schema.js";
import { ENGINES } from "./engine.js";
import { PRESETS } from "./presets.js";
import { dateTimeOptions, LIMITS } from "./result-limits.js";
import { VERDICTS } from "./verdicts.js";

/**
 * The result document: the one contract between runner, API and dashboard (DESIGN.md).
 * One document per client per phase. Bump SCHEMA_VERSION on any incompatible change and keep
 * readers of older versions in the API.
 */
export const SCHEMA_VERSION = 1 as const;

export { isDateTime, LIMITS } from "./result-limits.js";

const literalUnion = <T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v)));
const NonNegative = Type.Number({ minimum: 0 });
const Count = Type.Integer({ minimum: 0, maximum: LIMITS.count });
const LatencyUs = Type.Number({ minimum: 0, maximum: LIMITS.latencyUs });
const Throughput = Type.Number({ minimum: 0, maximum: LIMITS.throughputOpsSec });
const ElapsedSec = Type.Number({ minimum: 0, maximum: LIMITS.elapsedSec });
const Name = Type.String({ minLength: 1, maxLength: 200 });
const Text = Type.String({ maxLength: LIMITS.textLength });
/** A map keyed by names (the keys' length and text are checked by textProblems: JSON Schema cannot bound a record key). */
const NamedMap = <T extends TSchema>(value: T) =>
  Type.Record(Type.String(), value, { maxProperties: LIMITS.mapEntries });

/** One operation group exactly as YCSB printed it (READ, UPDATE, READ-FAILED, Intended-READ, CLEANUP, ...). */
export const OperationStatsSchema = Type.Object(
  {
    count: Count,
    /** null where YCSB printed no such line (e.g. measurementtype=timeseries prints no min). */
    avgUs: Type.Union([LatencyUs, Type.Null()]),
    minUs: Type.Union([LatencyUs, Type.Null()]),
    maxUs: Type.Union([LatencyUs, Type.Null()]),
    /** Keys as printed: "95", "99", "99.9", "50" (a percentile in (0, 100], non-decreasing values: result-checks.ts). */
    percentilesUs: NamedMap(LatencyUs),
    /** Return=<STATUS> counts: {"OK": n, "NOT_FOUND": n, "ERROR": n}. */
    returns: NamedMap(Count),
    /** measurementtype=histogram: bucket upper bound in ms (">N" as the overflow bucket) and count. */
    histogramBuckets: Type.Optional(
      Type.Array(
        Type.Object({ bucket: Type.String({ maxLength: 50 }), count: Count }, { additionalProperties: false }),
        { maxItems: 1_000_000 },
      ),
    ),
    /** measurementtype=timeseries: [elapsed ms, average latency us]. */
    timeSeries: Type.Optional(
      Type.Array(
        Type.Object(
          { tMs: Type.Number({ minimum: 0, maximum: LIMITS.runtimeMs }), avgUs: LatencyUs },
          { additionalProperties: false },
        ),
        { maxItems: 1_000_000 },
      ),
    ),
    /** Any further "[GROUP], Name, value" line this group printed, verbatim. */
    extra: Type.Optional(NamedMap(Type.Union([Type.Number(), Text]))),
  },
  { additionalProperties: false },
);
export type OperationStats = Static<typeof OperationStatsSchema>;

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
/** A status-series column: one entry per status line; a day at one line per second is 86,400. */
const Column = <T extends TSchema>(schema: T) => Type.Array(schema, { maxItems: 10_000_000 });

/**
 * One operation group's columns in the status series: index i is status line i. A group first printed on
 * line k holds null before k (never 0), and null wherever a line did not print that value.
 */
export const StatusGroupColumnsSchema = Type.Object(
  {
    /** null where the line printed no count (measurementtype=histogram/timeseries print only the average). */
    count: Column(Nullable(Count)),
    /** null for an empty window (YCSB prints Avg=NaN) and where the group was not printed. */
    avgUs: Column(Nullable(LatencyUs)),
    minUs: Column(Nullable(LatencyUs)),
    maxUs: Column(Nullable(LatencyUs)),
    /** Keys as printed: "90", "99", "99.9", "99.99". */
    percentilesUs: NamedMap(Column(Nullable(LatencyUs))),
  },
  { additionalProperties: false },
);
export type StatusGroupColumns = Static<typeof StatusGroupColumnsSchema>;

/**
 * The `-s` status lines (site.ycsb.StatusThread) as columns, one entry per status line in every column
 * (model/status-series.ts reads a line back as a StatusPoint). Columns, not one object per line: a 24 h run
 * prints 86,400 lines and per-line objects made parsing them slower than the I/O (bench/parse.ts).
 */
export const StatusSeriesSchema = Type.Object(
  {
    /** The wall-clock time YCSB printed before the elapsed seconds ("2024-05-01 10:00:00:123"), null where not printed. */
    at: Column(Nullable(Type.String({ maxLength: 40 }))),
    elapsedSec: Column(ElapsedSec),
    operations: Column(Count),
    /** null when YCSB printed no current ops/sec (the first line prints "∞"). */
    opsPerSec: Column(Nullable(Throughput)),
    /** Estimated time to completion in seconds, null where not printed. */
    estCompletionSec: Column(Nullable(NonNegative)),
    /** Per group as printed (READ, UPDATE, ...): count, average/min/max and percentiles in us. */
    perOperation: NamedMap(StatusGroupColumnsSchema),
  },
  { additionalProperties: false },
);
export type StatusSeries = Static<typeof StatusSeriesSchema>;

/** One status line read back from the columns (statusPoint in model/status-series.ts); not stored as such. */
export const StatusPointSchema = Type.Object(
  {
    elapsedSec: NonNegative,
    at: Type.Optional(Type.String()),
    operations: Count,
    opsPerSec: Type.Union([NonNegative, Type.Null()]),
    /** The groups with at least one value on this line. */
    perOperation: Type.Record(
      Type.String(),
      Type.Object({
        count: Type.Union([Count, Type.Null()]),
        avgUs: Type.Union([NonNegative, Type.Null()]),
        minUs: Type.Optional(NonNegative),
        maxUs: Type.Optional(NonNegative),
        percentilesUs: Type.Optional(Type.Record(Type.String(), NonNegative)),
      }),
    ),
    estCompletionSec: Type.Optional(NonNegative),
  },
  { additionalProperties: false },
);
export type StatusPoint = Static<typeof StatusPointSchema>;

/** What one YCSB invocation printed, parsed (runner/ycsb-output). */
export const ClientOutputSchema = Type.Object(
  {
    overall: Type.Object(
      { runtimeMs: Type.Number({ minimum: 0, maximum: LIMITS.runtimeMs }), throughputOpsSec: Throughput },
      { additionalProperties: false },
    ),
    operations: NamedMap(OperationStatsSchema),
    /** TOTAL_GCS_*, TOTAL_GC_TIME_*, TOTAL_GC_TIME_%_* per collector ("" = all collectors). */
    gc: NamedMap(
      Type.Object(
        {
          count: Type.Optional(Count),
          timeMs: Type.Optional(Type.Number({ minimum: 0, maximum: LIMITS.runtimeMs })),
          timePct: Type.Optional(Type.Number({ minimum: 0, maximum: 100_000 })),
        },
        { additionalProperties: false },
      ),
    ),
    statusSeries: StatusSeriesSchema,
    measurementType: Type.Union([Type.String({ maxLength: 50 }), Type.Null()]),
    /** Which exporter printed the summary: TextMeasurementsExporter (default) or JSONArrayMeasurementsExporter. */
    exporter: Type.Optional(Type.Union([Type.Literal("text"), Type.Literal("json-array")])),
    /** measurementtype=raw: the points printed to stdout, summarised per group (count, time span, latency). */
    rawPoints: Type.Optional(
      NamedMap(
        Type.Object(
          {
            count: Count,
            firstMs: NonNegative,
            lastMs: NonNegative,
            minUs: LatencyUs,
            maxUs: LatencyUs,
            avgUs: LatencyUs,
          },
          { additionalProperties: false },
        ),
      ),
    ),
    /** measurementtype=raw with measurement.raw.output_file: the file YCSB said it writes the points to. */
    rawOutputFile: Type.Optional(Type.String({ maxLength: 4096 })),
    /** Lines the parser did not recognise, kept verbatim (never dropped, never a silent zero). */
    unknownLines: Type.Array(Text, { maxItems: 100_000 }),
    warnings: Type.Array(Text, { maxItems: 100_000 }),
  },
  // Unknown fields are an error, never silently dropped: a field the parser adds is added here first.
  { additionalProperties: false },
);
export type ClientOutput = Static<typeof ClientOutputSchema>;

export const SourceSchema = Type.Union([
  Type.Object({ kind: Type.Literal("measured") }, { additionalProperties: false }),
  // Published figures enter only through the reference loader (prisma/reference): result-checks.ts refuses them elsewhere.
  Type.Object(
    {
      kind: Type.Literal("published"),
      citation: Type.String({ minLength: 1, maxLength: 2000 }),
      seed: Type.Optional(Type.String({ maxLength: 20 })),
    },
    { additionalProperties: false },
  ),
]);

/** The characters of a run's id (it is an S3 key segment and a URL path segment as written). */
export const RUN_ID_CLASS = "[A-Za-z0-9._:-]";

export const RunSchema = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 200, pattern: `^${RUN_ID_CLASS}+$` }),
    scenario: Name,
    engine: literalUnion(ENGINES),
    engineVersion: Type.String({ maxLength: 100 }),
    preset: literalUnion(PRESETS),
    nodes: Type.Integer({ minimum: 1, maximum: LIMITS.nodes }),
    instanceTypes: Type.Object(
      { data: Type.String({ maxLength: 100 }), client: Type.String({ maxLength: 100 }) },
      { additionalProperties: false },
    ),
    storage: Type.Optional(Type.String({ maxLength: 200 })),
    region: Type.Optional(Type.String({ maxLength: 100 })),
    replication: Type.Integer({ minimum: 1, maximum: LIMITS.replication }),
    ycsbVersion: Type.String({ maxLength: 50 }),
    bindingsVersion: Type.Optional(Type.String({ maxLength: 50 })),
    ycsbLabVersion: Type.String({ maxLength: 50 }),
    provenance: Type.Optional(
      Type.Object(
        {
          stack: Type.Optional(Type.String({ maxLength: 200 })),
          configHash: Type.Optional(Type.String({ maxLength: 200 })),
          ami: Type.Optional(Type.String({ maxLength: 200 })),
          /** The kit the instances ran (kit/build.ts): its archive's SHA-256 and the ycsb-lab version inside. */
          kit: Type.Optional(
            Type.Object(
              { sha256: Type.String({ pattern: "^[0-9a-f]{64}$" }), version: Type.String({ maxLength: 50 }) },
              { additionalProperties: false },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    /**
     * The run's own repeat index when a whole run is a repeat of another (a study run again on a new deployment):
     * 0 for the first. A plan's repeats are phases of one run (`phase.repeat`); documents written before
     * `phase.repeat` existed carried the phase's repeat here (model/aggregate/repeats.ts documentRepeats).
     */
    repeat: Type.Integer({ minimum: 0, maximum: LIMITS.repeat }),
    startedAt: Type.String(dateTimeOptions("the run's start")),
    finishedAt: Type.Optional(Type.String(dateTimeOptions("the run's end"))),
    source: SourceSchema,
    /** Set when the engine was a stand-in (FerretDB for MongoDB, CouchbaseMock for Couchbase). */
    standIn: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type Run = Static<typeof RunSchema>;

export const PHASE_KINDS = ["load", "warmup", "workload"] as const;

export const PhaseSchema = Type.Object(
  {
    /** Unique within the run, e.g. "load", "a-t64", "b-t128-r1". */
    name: Name,
    index: Type.Integer({ minimum: 0, maximum: LIMITS.phaseIndex }),
    kind: literalUnion(PHASE_KINDS),
    workload: Type.Optional(Type.String({ maxLength: 100 })),
    /** The exact YCSB properties used (after the scenario and preset were applied). */
    properties: NamedMap(Text),
    threadsPerClient: Type.Integer({ minimum: 1, maximum: LIMITS.threadsPerClient }),
    target: Type.Optional(Type.Number({ minimum: 0, maximum: LIMITS.throughputOpsSec })),
    /** How many clients run the phase; their documents carry client indexes 0..clients-1. */
    clients: Type.Integer({ minimum: 1, maximum: LIMITS.clients }),
    /** Which repeat of its configuration this phase is (the plan's "-r<N>" phases, 0-based). Additive to schema 1. */
    repeat: Type.Optional(Type.Integer({ minimum: 0, maximum: LIMITS.repeat })),
    /**
     * The operation count the scenario set for this phase, as the scenario stated it (`operationCountPer`: each
     * client's YCSB operationcount, or the total over all clients); absent for a phase bounded by time only.
     * Seed 003's counts (1k..1M) are a factor of its study: each is its own series. Additive to schema 1.
     * YCSB reads operationcount as a Java int (and the column is int4): at most 2^31 - 1.
     */
    operationCount: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 })),
    operationCountPer: Type.Optional(Type.Union([Type.Literal("client"), Type.Literal("total")])),
    /** A capacity search's step (model/capacity-search.ts): its search, and its role as decided. Additive to schema 1. */
    capacity: Type.Optional(CapacityStepSchema),
  },
  { additionalProperties: false },
);
export type Phase = Static<typeof PhaseSchema>;

export const ResourceSampleSchema = Type.Object(
  {
    tSec: ElapsedSec,
    /** Percent of one core, summed over cores (top's convention): up to 100 x cores. */
    cpuPct: Type.Number({ minimum: 0, maximum: 100_000 }),
    stealPct: Type.Number({ minimum: 0, maximum: 100 }),
    load1: Type.Optional(Type.Number({ minimum: 0, maximum: 1_000_000 })),
  },
  { additionalProperties: false },
);

// Kept in its own module so the dashboard can use the rules that read verdicts without the document's checks (node: imports).
export { VERDICTS } from "./verdicts.js";
export const ValiditySchema = Type.Object(
  {
    verdict: literalUnion(VERDICTS),
    reasons: Type.Array(
      Type.Object({ code: Type.String({ maxLength: 100 }), message: Text }, { additionalProperties: false }),
      { maxItems: 1_000 },
    ),
  },
  { additionalProperties: false },
);
export type Validity = Static<typeof ValiditySchema>;

export const HdrLogRefSchema = Type.Object(
  {
    operation: Type.String({ maxLength: LIMITS.keyLength }),
    /** Where the interval log is kept: an S3 URI or a path relative to the results root. */
    uri: Type.String({ maxLength: 2000 }),
  },
  { additionalProperties: false },
);

export const ResultDocumentSchema = Type.Object(
  {
    schemaVersion: Type.Literal(SCHEMA_VERSION),
    run: RunSchema,
    phase: PhaseSchema,
    client: Type.Object(
      {
        /** 0..count-1 (result-checks.ts): a phase is complete when every index of 0..clients-1 reported. */
        index: Type.Integer({ minimum: 0, maximum: LIMITS.clients - 1 }),
        /** The phase's clients (equal to phase.clients, result-checks.ts). */
        count: Type.Integer({ minimum: 1, maximum: LIMITS.clients }),
        host: Type.Optional(Type.String({ maxLength: 255 })),
      },
      { additionalProperties: false },
    ),
    startedAt: Type.String(dateTimeOptions("this client's phase started")),
    finishedAt: Type.String(dateTimeOptions("this client's phase finished, not before startedAt")),
    result: ClientOutputSchema,
    hdrLogs: Type.Array(HdrLogRefSchema, { maxItems: LIMITS.mapEntries }),
    /**
     * Each operation's histogram of this client over the whole phase (compressed base64, model/hdr
     * clientHistograms), written by the runner from its own interval logs: the API merges them across clients into
     * the phase's percentiles. Optional (additive to schema 1): without it the S3 import merges the hdrLogs itself,
     * and a POSTed document's multi-client percentiles are labelled max-of-clients. Decoding is bounded
     * (model/hdr/histogram-bounds.ts).
     */
    hdrHistograms: Type.Optional(
      Type.Record(
        Type.String({ minLength: 1, maxLength: LIMITS.keyLength }),
        Type.String({ minLength: 1, maxLength: 4_000_000 }),
        { maxProperties: 64 },
      ),
    ),
    resources: Type.Array(ResourceSampleSchema, { maxItems: 1_000_000 }),
    validity: ValiditySchema,
  },
  { additionalProperties: false },
);
export type ResultDocument = Static<typeof ResultDocumentSchema>;

/**
 * A document a writer may send (POST /results, the S3 import): a measured run's. The contract states the rule that
 * result-checks.ts enforces, so a client (or a generated test) sees in the schema that a published source is refused.
 */
export const MeasuredResultDocumentSchema = Type.Object(
  {
    ...ResultDocumentSchema.properties,
    run: Type.Object({ ...RunSchema.properties, source: SourceSchema.anyOf[0] }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);
