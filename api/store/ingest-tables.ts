import { documentRepeats } from "../../model/aggregate/repeats.js";
import { phaseWorkload } from "../../model/aggregate/rules.js";
import { phasePreset } from "../../model/presets.js";
import type { ResultDocument } from "../../model/result-document.js";
import { Prisma } from "../../prisma/generated/client.js";
import { phaseGroupIds } from "./aggregates/keys.js";

/**
 * The tables ingest writes, each declared once: its columns with their SQL types and how a row is read from the
 * documents. Ingest's hot path is one bulk statement per table per batch: ~20x faster than row-by-row ORM inserts.
 */
export interface Table<C extends Record<string, string>> {
  name: string;
  /** Column name -> its SQL type (the table's own type, or what casts to it). */
  columns: C;
}

export type Row<T extends Table<Record<string, string>>> = { [K in keyof T["columns"]]: unknown };

/** A table's rows as one JSON array per column, in row order (its text: a json column's values written in it as they are). */
export type ColumnsJson<T extends Table<Record<string, string>>> = { [K in keyof T["columns"]]: string };

export const table = <C extends Record<string, string>>(name: string, columns: C): Table<C> => ({ name, columns });

/** Rows as one JSON array per column (an absent value is null, as in the rows' own JSON). */
export function columnsJson<T extends Table<Record<string, string>>>(t: T, rows: readonly Row<T>[]): ColumnsJson<T> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(t.columns)) {
    const values: unknown[] = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) values[i] = (rows[i] as Record<string, unknown>)[name];
    out[name] = JSON.stringify(values);
  }
  return out as ColumnsJson<T>;
}

/**
 * A column's value from its array's element `x.<name>`: a json or jsonb column takes the element as it is (a JSON null
 * is SQL NULL, as json_to_recordset made it), any other column the element's text read as its type.
 */
function columnValue(name: string, type: string): Prisma.Sql {
  const v = `x.${name}`;
  if (type === "json") return Prisma.raw(`CASE WHEN json_typeof(${v}) = 'null' THEN NULL ELSE ${v} END`);
  if (type === "jsonb") return Prisma.raw(`CASE WHEN json_typeof(${v}) = 'null' THEN NULL ELSE ${v}::jsonb END`);
  return Prisma.raw(`${v}::${type}`);
}

/**
 * INSERT INTO <table> (<columns>) SELECT <each column's value> FROM ROWS FROM (<one JSON array per column>) <tail>:
 * names and types come from the declarations above (never from input), each column one bound parameter, its
 * elements read side by side. A json column's elements are only delimited, each kept as written: json_to_recordset
 * over one JSON array of row objects re-parsed every nested value for its column (a status series' 2.6 KB cost the
 * server about 75 us a row that way, about 45 as an element of its column's array).
 */
export function bulkInsert<T extends Table<Record<string, string>>>(
  t: T,
  rows: readonly Row<T>[],
  tail: Prisma.Sql = Prisma.empty,
): Prisma.Sql {
  return bulkInsertColumns(t, columnsJson(t, rows), tail);
}

/** bulkInsert with the rows given as their columns' JSON arrays (a series' text written once, for its hash and row). */
export function bulkInsertColumns<T extends Table<Record<string, string>>>(
  t: T,
  columns: ColumnsJson<T>,
  tail: Prisma.Sql = Prisma.empty,
): Prisma.Sql {
  const entries = Object.entries(t.columns);
  const cols = Prisma.raw(entries.map(([n]) => n).join(", "));
  const elements = entries.map(([n, type]) => {
    const json = (columns as Record<string, string>)[n]!;
    return type === "json" || type === "jsonb"
      ? Prisma.sql`json_array_elements(${json}::json)`
      : Prisma.sql`json_array_elements_text(${json}::json)`;
  });
  const values = Prisma.join(entries.map(([n, type]) => columnValue(n, type)));
  return Prisma.sql`INSERT INTO ${Prisma.raw(t.name)} (${cols}) SELECT ${values} FROM ROWS FROM (${Prisma.join(elements)}) AS x(${cols}) ${tail}`;
}

export const SOURCES = table("sources", { id: "text", kind: "text", citation: "text", seed: "text" });

export const RUNS = table("runs", {
  id: "text",
  scenario: "text",
  engine: "text",
  engine_version: "text",
  preset: "text",
  nodes: "int",
  data_instance_type: "text",
  client_instance_type: "text",
  storage: "text",
  region: "text",
  replication: "int",
  ycsb_version: "text",
  bindings_version: "text",
  ycsb_lab_version: "text",
  provenance: "jsonb",
  repeat: "int",
  started_at: "timestamp(3)",
  finished_at: "timestamp(3)",
  stand_in: "text",
  source_id: "text",
});

export const PHASES = table("phases", {
  run_id: "text",
  name: "text",
  index: "int",
  kind: "text",
  workload: "text",
  properties: "jsonb",
  threads_per_client: "int",
  target: "float8",
  clients: "int",
  repeat: "int",
  operation_count: "int",
  operation_count_per: "text",
  preset: "text",
  configuration_id: "text",
  peak_id: "text",
  capacity: "jsonb",
});

export const CLIENT_RESULTS = table("client_results", {
  phase_id: "int",
  run_id: "text",
  client_index: "int",
  client_count: "int",
  host: "text",
  started_at: "timestamp(3)",
  finished_at: "timestamp(3)",
  runtime_ms: "float8",
  throughput_ops_sec: "float8",
  measurement_type: "text",
  // json, kept as written, like the other JSON parts of a client's result (migration 20261217000000_operation_and_client_json).
  gc: "json",
  resources: "json",
  unknown_lines: "json",
  warnings: "json",
  document_hash: "text",
  // Its HDR logs' references (storedHdrLogs), a column of the row (migration 20261219000000_hdr_logs_column).
  hdr_logs: "json",
});

export const OPERATION_STATS = table("operation_stats", {
  client_result_id: "int",
  operation: "text",
  count: "bigint",
  avg_us: "float8",
  min_us: "float8",
  max_us: "float8",
  percentiles_us: "json",
  returns: "json",
  histogram_buckets: "json",
  time_series: "json",
  extra: "json",
  hdr_histogram: "text",
});

/** The series is json (kept as written: migration 20261216000000_status_series_json). */
export const STATUS_SERIES = table("status_series", { client_result_id: "int", points: "json" });

export const VALIDITY_VERDICTS = table("validity_verdicts", {
  client_result_id: "int",
  verdict: "text",
  reasons: "jsonb",
});

/** A run as ingest stores it: the document's run, its own repeat, and its source's id. */
export type RunFacts = ResultDocument["run"] & { sourceId: string };

export function runRow(r: RunFacts): Row<typeof RUNS> {
  return {
    id: r.id,
    scenario: r.scenario,
    engine: r.engine,
    engine_version: r.engineVersion,
    preset: r.preset,
    nodes: r.nodes,
    data_instance_type: r.instanceTypes.data,
    client_instance_type: r.instanceTypes.client,
    storage: r.storage ?? null,
    region: r.region ?? null,
    replication: r.replication,
    ycsb_version: r.ycsbVersion,
    bindings_version: r.bindingsVersion ?? null,
    ycsb_lab_version: r.ycsbLabVersion,
    provenance: r.provenance ?? null,
    repeat: r.repeat,
    // timestamp(3) columns hold UTC: normalise any offset first.
    started_at: new Date(r.startedAt).toISOString(),
    finished_at: r.finishedAt ? new Date(r.finishedAt).toISOString() : null,
    stand_in: r.standIn ?? null,
    source_id: r.sourceId,
  };
}

/** A phase as stored: a load's workload is "load", the phase's repeat as documentRepeats reads it, its preset. */
export type PhaseFacts = ResultDocument["phase"] & {
  runId: string;
  repeat: number;
  preset: string;
  configurationId: string | null;
  peakId: string | null;
};

/** A document's phase as stored, with the groups ingest keeps it in (its run's source id given). */
export function phaseFactsOf(d: ResultDocument, sourceId: string): PhaseFacts {
  const workload = phaseWorkload(d.phase);
  const preset = phasePreset(d.run.preset, d.phase.properties);
  const groups = phaseGroupIds({
    ...d.phase,
    ...d.run,
    preset,
    sourceId,
    standIn: d.run.standIn ?? null,
    dataInstanceType: d.run.instanceTypes.data,
    clientInstanceType: d.run.instanceTypes.client,
    workload,
    target: d.phase.target ?? null,
    operationCount: d.phase.operationCount ?? null,
    operationCountPer: d.phase.operationCountPer ?? null,
  });
  return {
    ...d.phase,
    workload: workload ?? undefined,
    runId: d.run.id,
    repeat: documentRepeats(d).phase,
    preset,
    ...groups,
  };
}

export function phaseRow(p: PhaseFacts): Row<typeof PHASES> {
  return {
    run_id: p.runId,
    name: p.name,
    index: p.index,
    kind: p.kind,
    workload: p.workload ?? null,
    properties: p.properties,
    threads_per_client: p.threadsPerClient,
    target: p.target ?? null,
    clients: p.clients,
    repeat: p.repeat,
    operation_count: p.operationCount ?? null,
    operation_count_per: p.operationCountPer ?? null,
    preset: p.preset,
    configuration_id: p.configurationId,
    peak_id: p.peakId,
    capacity: p.capacity ?? null,
  };
}

export function clientResultRow(d: ResultDocument, phaseId: number, documentHash: string): Row<typeof CLIENT_RESULTS> {
  return {
    phase_id: phaseId,
    run_id: d.run.id,
    client_index: d.client.index,
    client_count: d.client.count,
    host: d.client.host ?? null,
    started_at: new Date(d.startedAt).toISOString(),
    finished_at: new Date(d.finishedAt).toISOString(),
    runtime_ms: d.result.overall.runtimeMs,
    throughput_ops_sec: d.result.overall.throughputOpsSec,
    measurement_type: d.result.measurementType,
    gc: d.result.gc,
    resources: d.resources,
    unknown_lines: d.result.unknownLines,
    warnings: d.result.warnings,
    document_hash: documentHash,
    hdr_logs: storedHdrLogs(d.hdrLogs),
  };
}

/** An HDR log's reference as a client result keeps it. */
export interface HdrLogRef {
  operation: string;
  uri: string;
}

/**
 * A client result's HDR log references as stored, by ingest and by import alike: by operation, then URI, in code point
 * order (the migration's COLLATE "C"), each once (a log named twice in a document is one reference, as the table's
 * unique key kept them before migration 20261219000000_hdr_logs_column).
 */
export function storedHdrLogs(refs: readonly HdrLogRef[]): HdrLogRef[] {
  const unique = new Map<string, HdrLogRef>();
  // Keyed by both fields joined with U+0000, which no stored string holds (model/result-checks.ts textProblem).
  for (const r of refs) unique.set(`${r.operation}\u0000${r.uri}`, { operation: r.operation, uri: r.uri });
  return [...unique.values()].sort((a, b) => byCodePoint(a.operation, b.operation) || byCodePoint(a.uri, b.uri));
}

/**
 * Code point order, as Postgres' "C" collation compares UTF-8 bytes. UTF-16 code units agree with it except where the
 * first difference is a surrogate (a character past U+FFFF) against U+E000-U+FFFF: each unit is ranked so surrogates
 * come after that range. One pass over the units, no copies (it runs for every document ingested).
 */
function byCodePoint(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

const codePointRank = (unit: number) =>
  unit >= 0xd800 && unit <= 0xdfff ? unit + 0x2000 : unit >= 0xe000 ? unit - 0x800 : unit;

/** One row per operation group, with its merged HDR histogram where the importer or the runner gave one. */
export function operationRows(
  d: ResultDocument,
  clientResultId: number,
  hdr: Record<string, string>,
): Row<typeof OPERATION_STATS>[] {
  return Object.entries(d.result.operations).map(([operation, o]) => ({
    client_result_id: clientResultId,
    operation,
    count: o.count,
    avg_us: o.avgUs,
    min_us: o.minUs,
    max_us: o.maxUs,
    percentiles_us: o.percentilesUs,
    returns: o.returns,
    histogram_buckets: o.histogramBuckets ?? null,
    time_series: o.timeSeries ?? null,
    extra: o.extra ?? null,
    hdr_histogram: hdr[operation] ?? null,
  }));
}
