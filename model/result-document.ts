import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { FormatRegistry } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { ENGINES } from "./engine.js";
import { PRESETS } from "./presets.js";
import { decodeHistogram } from "./hdr/histogram.js";
import { statusSeriesProblems } from "./status-series.js";

/**
 * The result document: the one contract between runner, API and dashboard (DESIGN.md).
 * One document per client per phase. Bump SCHEMA_VERSION on any incompatible change and keep
 * readers of older versions in the API.
 */
export const SCHEMA_VERSION = 1 as const;

// TypeBox checks no string format unless one is registered.
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
if (!FormatRegistry.Has("date-time")) FormatRegistry.Set("date-time", (v) => ISO_DATE_TIME.test(v) && !Number.isNaN(Date.parse(v)));

const literalUnion = <T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v)));
const NonNegative = Type.Number({ minimum: 0 });
const Count = Type.Integer({ minimum: 0 });
const Name = Type.String({ minLength: 1, maxLength: 200 });

/** One operation group exactly as YCSB printed it (READ, UPDATE, READ-FAILED, Intended-READ, CLEANUP, ...). */
export const OperationStatsSchema = Type.Object(
  {
    count: Count,
    /** null where YCSB printed no such line (e.g. measurementtype=timeseries prints no min). */
    avgUs: Type.Union([NonNegative, Type.Null()]),
    minUs: Type.Union([NonNegative, Type.Null()]),
    maxUs: Type.Union([NonNegative, Type.Null()]),
    /** Keys as printed: "95", "99", "99.9", "50". */
    percentilesUs: Type.Record(Type.String(), NonNegative),
    /** Return=<STATUS> counts: {"OK": n, "NOT_FOUND": n, "ERROR": n}. */
    returns: Type.Record(Type.String(), Count),
    /** measurementtype=histogram: bucket upper bound in ms (">N" as the overflow bucket) and count. */
    histogramBuckets: Type.Optional(Type.Array(Type.Object({ bucket: Type.String(), count: Count }))),
    /** measurementtype=timeseries: [elapsed ms, average latency us]. */
    timeSeries: Type.Optional(Type.Array(Type.Object({ tMs: NonNegative, avgUs: NonNegative }))),
    /** Any further "[GROUP], Name, value" line this group printed, verbatim. */
    extra: Type.Optional(Type.Record(Type.String(), Type.Union([Type.Number(), Type.String()]))),
  },
  { additionalProperties: false },
);
export type OperationStats = Static<typeof OperationStatsSchema>;

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * One operation group's columns in the status series: index i is status line i. A group first printed on
 * line k holds null before k (never 0), and null wherever a line did not print that value.
 */
export const StatusGroupColumnsSchema = Type.Object(
  {
    /** null where the line printed no count (measurementtype=histogram/timeseries print only the average). */
    count: Type.Array(Nullable(Count)),
    /** null for an empty window (YCSB prints Avg=NaN) and where the group was not printed. */
    avgUs: Type.Array(Nullable(NonNegative)),
    minUs: Type.Array(Nullable(NonNegative)),
    maxUs: Type.Array(Nullable(NonNegative)),
    /** Keys as printed: "90", "99", "99.9", "99.99". */
    percentilesUs: Type.Record(Type.String(), Type.Array(Nullable(NonNegative))),
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
    at: Type.Array(Nullable(Type.String())),
    elapsedSec: Type.Array(NonNegative),
    operations: Type.Array(Count),
    /** null when YCSB printed no current ops/sec (the first line prints "∞"). */
    opsPerSec: Type.Array(Nullable(NonNegative)),
    /** Estimated time to completion in seconds, null where not printed. */
    estCompletionSec: Type.Array(Nullable(NonNegative)),
    /** Per group as printed (READ, UPDATE, ...): count, average/min/max and percentiles in us. */
    perOperation: Type.Record(Type.String(), StatusGroupColumnsSchema),
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
    overall: Type.Object({ runtimeMs: NonNegative, throughputOpsSec: NonNegative }),
    operations: Type.Record(Type.String(), OperationStatsSchema),
    /** TOTAL_GCS_*, TOTAL_GC_TIME_*, TOTAL_GC_TIME_%_* per collector ("" = all collectors). */
    gc: Type.Record(
      Type.String(),
      Type.Object({ count: Type.Optional(Count), timeMs: Type.Optional(NonNegative), timePct: Type.Optional(NonNegative) }),
    ),
    statusSeries: StatusSeriesSchema,
    measurementType: Type.Union([Type.String(), Type.Null()]),
    /** Which exporter printed the summary: TextMeasurementsExporter (default) or JSONArrayMeasurementsExporter. */
    exporter: Type.Optional(Type.Union([Type.Literal("text"), Type.Literal("json-array")])),
    /** measurementtype=raw: the points printed to stdout, summarised per group (count, time span, latency). */
    rawPoints: Type.Optional(
      Type.Record(
        Type.String(),
        Type.Object({
          count: Count,
          firstMs: NonNegative,
          lastMs: NonNegative,
          minUs: NonNegative,
          maxUs: NonNegative,
          avgUs: NonNegative,
        }),
      ),
    ),
    /** measurementtype=raw with measurement.raw.output_file: the file YCSB said it writes the points to. */
    rawOutputFile: Type.Optional(Type.String()),
    /** Lines the parser did not recognise, kept verbatim (never dropped, never a silent zero). */
    unknownLines: Type.Array(Type.String()),
    warnings: Type.Array(Type.String()),
  },
  { additionalProperties: true },
);
export type ClientOutput = Static<typeof ClientOutputSchema>;

export const SourceSchema = Type.Union([
  Type.Object({ kind: Type.Literal("measured") }),
  Type.Object({ kind: Type.Literal("published"), citation: Type.String({ minLength: 1 }), seed: Type.Optional(Type.String()) }),
]);

export const RunSchema = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 200, pattern: "^[A-Za-z0-9._:-]+$" }),
    scenario: Name,
    engine: literalUnion(ENGINES),
    engineVersion: Type.String({ maxLength: 100 }),
    preset: literalUnion(PRESETS),
    nodes: Type.Integer({ minimum: 1, maximum: 10_000 }),
    instanceTypes: Type.Object({ data: Type.String({ maxLength: 100 }), client: Type.String({ maxLength: 100 }) }),
    storage: Type.Optional(Type.String({ maxLength: 200 })),
    region: Type.Optional(Type.String({ maxLength: 100 })),
    replication: Type.Integer({ minimum: 1, maximum: 100 }),
    ycsbVersion: Type.String({ maxLength: 50 }),
    bindingsVersion: Type.Optional(Type.String({ maxLength: 50 })),
    ycsbLabVersion: Type.String({ maxLength: 50 }),
    provenance: Type.Optional(
      Type.Object({
        stack: Type.Optional(Type.String({ maxLength: 200 })),
        configHash: Type.Optional(Type.String({ maxLength: 200 })),
        ami: Type.Optional(Type.String({ maxLength: 200 })),
      }),
    ),
    /**
     * The run's own repeat index when a whole run is a repeat of another (a study run again on a new deployment):
     * 0 for the first. A plan's repeats are phases of one run (`phase.repeat`); documents written before
     * `phase.repeat` existed carried the phase's repeat here (model/aggregate/repeats.ts documentRepeats).
     */
    repeat: Type.Integer({ minimum: 0 }),
    startedAt: Type.String({ format: "date-time" }),
    finishedAt: Type.Optional(Type.String({ format: "date-time" })),
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
    index: Type.Integer({ minimum: 0 }),
    kind: literalUnion(PHASE_KINDS),
    workload: Type.Optional(Type.String({ maxLength: 100 })),
    /** The exact YCSB properties used (after the scenario and preset were applied). */
    properties: Type.Record(Type.String(), Type.String()),
    threadsPerClient: Type.Integer({ minimum: 1 }),
    target: Type.Optional(Type.Number({ minimum: 0 })),
    clients: Type.Integer({ minimum: 1 }),
    /** Which repeat of its configuration this phase is (the plan's "-r<N>" phases, 0-based). Additive to schema 1. */
    repeat: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
  },
  { additionalProperties: false },
);
export type Phase = Static<typeof PhaseSchema>;

export const ResourceSampleSchema = Type.Object({
  tSec: NonNegative,
  cpuPct: NonNegative,
  stealPct: NonNegative,
  load1: Type.Optional(NonNegative),
});

export const VERDICTS = ["valid", "warning", "invalid"] as const;
export const ValiditySchema = Type.Object({
  verdict: literalUnion(VERDICTS),
  reasons: Type.Array(Type.Object({ code: Type.String(), message: Type.String() })),
});
export type Validity = Static<typeof ValiditySchema>;

export const HdrLogRefSchema = Type.Object({
  operation: Type.String(),
  /** Where the interval log is kept: an S3 URI or a path relative to the results root. */
  uri: Type.String({ maxLength: 2000 }),
});

export const ResultDocumentSchema = Type.Object(
  {
    schemaVersion: Type.Literal(SCHEMA_VERSION),
    run: RunSchema,
    phase: PhaseSchema,
    client: Type.Object({ index: Type.Integer({ minimum: 0 }), count: Type.Integer({ minimum: 1 }), host: Type.Optional(Type.String()) }),
    startedAt: Type.String({ format: "date-time" }),
    finishedAt: Type.String({ format: "date-time" }),
    result: ClientOutputSchema,
    hdrLogs: Type.Array(HdrLogRefSchema),
    /**
     * Each operation's histogram of this client over the whole phase (compressed base64, model/hdr
     * clientHistograms), written by the runner from its own interval logs: the API merges them across clients into
     * the phase's percentiles. Optional (additive to schema 1): without it the S3 import merges the hdrLogs itself,
     * and a POSTed document's multi-client percentiles are labelled max-of-clients.
     */
    hdrHistograms: Type.Optional(Type.Record(Type.String({ minLength: 1, maxLength: 200 }), Type.String({ minLength: 1, maxLength: 4_000_000 }))),
    resources: Type.Array(ResourceSampleSchema),
    validity: ValiditySchema,
  },
  { additionalProperties: false },
);
export type ResultDocument = Static<typeof ResultDocumentSchema>;

export interface FieldError {
  /** JSON pointer of the offending field, e.g. "/run/nodes". */
  path: string;
  message: string;
}

/** Validate without throwing: every error names its field. */
export function checkAgainst(schema: TSchema, value: unknown): FieldError[] {
  const errors = [...Value.Errors(schema, value)].slice(0, 20).map((e) => ({ path: e.path || "/", message: e.message }));
  if (errors.length > 0) return errors;
  // Equal column lengths are beyond JSON Schema: checked here for the two schemas that hold a status series.
  if (schema === ClientOutputSchema) return statusSeriesProblems((value as ClientOutput).statusSeries);
  if (schema === ResultDocumentSchema) return documentProblems(value as ResultDocument);
  return errors;
}

/** What JSON Schema cannot say about a document that passed it: status-series columns of equal length, histograms that decode. */
export function documentProblems(doc: ResultDocument): FieldError[] {
  return [...statusSeriesProblems(doc.result.statusSeries, "/result/statusSeries"), ...histogramProblems(doc.hdrHistograms ?? {})];
}

/** Every histogram must decode: one that does not would fail each later query of its phase, not this ingest. */
function histogramProblems(histograms: Record<string, string>): FieldError[] {
  const problems: FieldError[] = [];
  for (const [operation, encoded] of Object.entries(histograms)) {
    try {
      decodeHistogram(encoded);
    } catch (err) {
      problems.push({ path: `/hdrHistograms/${operation.replaceAll("~", "~0").replaceAll("/", "~1")}`, message: `not an HDR histogram: ${(err as Error).message}` });
    }
  }
  return problems;
}

export function validateResultDocument(value: unknown): { ok: true; value: ResultDocument } | { ok: false; errors: FieldError[] } {
  const errors = checkAgainst(ResultDocumentSchema, value);
  return errors.length === 0 ? { ok: true, value: value as ResultDocument } : { ok: false, errors };
}
