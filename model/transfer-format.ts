import { type Static, type TSchema, Type } from "@sinclair/typebox";

/**
 * The lines of `ycsb-lab export` (api/store/transfer.ts), one JSON object per line, checked line by line by
 * `ycsb-lab import` before it writes anything. A row as the store holds it (prisma/schema.prisma): dates as ISO
 * text, 64-bit counts as decimal text, JSON columns as given, no row numbers of the store's own.
 */
export const TRANSFER_FORMAT = "ycsb-lab-export/1";

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
/** The patterns of a date and a 64-bit count as text: the import turns them back into a Date and a BigInt. */
export const TRANSFER_DATE_PATTERN = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$";
export const TRANSFER_COUNT_PATTERN = "^[0-9]{1,19}$";
const IsoDate = Type.String({ pattern: TRANSFER_DATE_PATTERN });
const Id = Type.String({ minLength: 1, maxLength: 500 });
const Int = Type.Integer();
const Json = Type.Unknown();

export const TransferSourceSchema = Type.Object({
  id: Id,
  kind: Type.String({ minLength: 1 }),
  citation: Nullable(Type.String()),
  seed: Nullable(Type.String()),
  title: Nullable(Type.String()),
  authors: Nullable(Type.String()),
  year: Nullable(Int),
});

export const TransferReferenceTableSchema = Type.Object({
  id: Id,
  seed: Type.String(),
  tableRef: Type.String(),
  title: Type.String(),
  citation: Type.String(),
  unit: Nullable(Type.String()),
  columns: Json,
  rows: Json,
  notes: Nullable(Type.String()),
  derive: Type.Optional(Json),
});

export const TransferOperationSchema = Type.Object({
  operation: Type.String({ minLength: 1 }),
  count: Type.String({ pattern: TRANSFER_COUNT_PATTERN }),
  avgUs: Nullable(Type.Number()),
  minUs: Nullable(Type.Number()),
  maxUs: Nullable(Type.Number()),
  percentilesUs: Json,
  returns: Json,
  histogramBuckets: Type.Optional(Json),
  timeSeries: Type.Optional(Json),
  extra: Type.Optional(Json),
  hdrHistogram: Nullable(Type.String()),
});

export const TransferStatusSeriesSchema = Type.Object({ points: Json });
export const TransferHdrLogSchema = Type.Object({ operation: Type.String(), uri: Type.String() });
export const TransferValiditySchema = Type.Object({ verdict: Type.String(), reasons: Json });

export const TransferClientResultSchema = Type.Object({
  clientIndex: Int,
  clientCount: Int,
  host: Nullable(Type.String()),
  startedAt: IsoDate,
  finishedAt: IsoDate,
  runtimeMs: Type.Number(),
  throughputOpsSec: Type.Number(),
  measurementType: Nullable(Type.String()),
  gc: Json,
  resources: Json,
  unknownLines: Json,
  warnings: Json,
  documentHash: Type.String({ minLength: 1 }),
  createdAt: IsoDate,
  operations: Type.Array(TransferOperationSchema),
  statusSeries: Nullable(TransferStatusSeriesSchema),
  hdrLogs: Type.Array(TransferHdrLogSchema),
  validity: Nullable(TransferValiditySchema),
});

export const TransferPhaseSchema = Type.Object({
  name: Type.String({ minLength: 1 }),
  index: Int,
  kind: Type.String(),
  workload: Nullable(Type.String()),
  properties: Json,
  threadsPerClient: Int,
  target: Nullable(Type.Number()),
  clients: Int,
  repeat: Int,
  preset: Type.String(),
  operationCount: Nullable(Int),
  operationCountPer: Nullable(Type.String()),
  /** A capacity search's step (model/capacity-schema.ts CapacityStepSchema); absent or null for other phases. */
  capacity: Type.Optional(Nullable(Json)),
  throughputSum: Type.Number(),
  clientsReported: Int,
  runtimeMs: Type.Number(),
  verdict: Type.String(),
  clientResults: Type.Array(TransferClientResultSchema),
});

/** An instance's span from its boot status markers (prisma InstanceSpan): what the run's realized cost bills. */
export const TransferInstanceSpanSchema = Type.Object({
  instance: Type.String({ minLength: 1 }),
  role: Type.Union([Type.Literal("data"), Type.Literal("client")]),
  instanceType: Nullable(Type.String()),
  startedAt: IsoDate,
  endedAt: IsoDate,
  /** What its markers said it is billed for beside its hours; absent in exports made before spans kept them. */
  volumes: Type.Optional(Json),
  publicIpv4: Type.Optional(Nullable(Type.Boolean())),
});

export const TransferRunSchema = Type.Object({
  id: Id,
  scenario: Type.String(),
  engine: Type.String(),
  engineVersion: Type.String(),
  preset: Type.String(),
  nodes: Int,
  dataInstanceType: Type.String(),
  clientInstanceType: Type.String(),
  storage: Nullable(Type.String()),
  region: Nullable(Type.String()),
  replication: Int,
  ycsbVersion: Type.String(),
  bindingsVersion: Nullable(Type.String()),
  ycsbLabVersion: Type.String(),
  provenance: Type.Optional(Json),
  repeat: Int,
  startedAt: IsoDate,
  finishedAt: Nullable(IsoDate),
  standIn: Nullable(Type.String()),
  verdict: Type.String(),
  sourceId: Id,
  referenceTable: Nullable(Type.String()),
  quarantineReason: Nullable(Type.String()),
  quarantinedAt: Nullable(IsoDate),
  createdAt: IsoDate,
  phases: Type.Array(TransferPhaseSchema),
  /** Absent in exports made before spans were stored: the run then has none. */
  instanceSpans: Type.Optional(Type.Array(TransferInstanceSpanSchema)),
});

export const TransferBaselineSchema = Type.Object({
  configuration: Type.String({ minLength: 1 }),
  runId: Id,
  note: Nullable(Type.String()),
  pinnedAt: IsoDate,
});

export const TransferLineSchema = Type.Union([
  Type.Object({ kind: Type.Literal("header"), format: Type.Literal(TRANSFER_FORMAT), exportedAt: IsoDate }),
  Type.Object({ kind: Type.Literal("source"), source: TransferSourceSchema }),
  Type.Object({ kind: Type.Literal("reference-table"), table: TransferReferenceTableSchema }),
  Type.Object({ kind: Type.Literal("run"), run: TransferRunSchema }),
  Type.Object({ kind: Type.Literal("baseline"), baseline: TransferBaselineSchema }),
]);

export type TransferLine = Static<typeof TransferLineSchema>;
export type TransferRun = Static<typeof TransferRunSchema>;

/** The schema of one kind of line: errors then name the fields of that kind, not of the union's every branch. */
export const TRANSFER_LINE_KINDS: Record<TransferLine["kind"], TSchema> = Object.fromEntries(
  TransferLineSchema.anyOf.map((s) => [s.properties.kind.const, s]),
) as unknown as Record<TransferLine["kind"], TSchema>;
