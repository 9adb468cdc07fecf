import { type CassandraServerSide, type Preset, presetFor } from "../../model/presets.js";

/** The YCSB keyspace and table, as seed 000 created them (keyspace `ycsb`, table `usertable`, key `y_id`, blob fields). */
export interface CassandraSchemaOptions {
  preset: Preset;
  replicationFactor: number;
  /** @default "ycsb" (seed 000) */
  keyspace?: string;
  /** @default "usertable" (YCSB's default `table`) */
  table?: string;
  /** YCSB `fieldcount`. @default 10 (YCSB's default) */
  fieldCount?: number;
  /** YCSB `fieldnameprefix`. @default "field" */
  fieldPrefix?: string;
  /** With a datacenter name, NetworkTopologyStrategy with the factor there; otherwise SimpleStrategy (seed 000). */
  datacenter?: string;
  /** Seed 000 turned compression off (`'sstable_compression': ''`). @default false */
  compression?: boolean;
  /** A study's own values over the preset's server side (seed 004 throughput: LeveledCompactionStrategy). */
  study?: Partial<CassandraServerSide>;
  /**
   * The keyspace's durable_writes while loading, when the load runs under its own preset (seed 000): the plan's
   * settle after the load switches it to the run's preset. @default the preset's
   */
  durableWrites?: boolean;
}

const IDENTIFIER = /^[a-z][a-z0-9_]{0,47}$/;

function identifier(field: string, value: string): string {
  if (!IDENTIFIER.test(value))
    throw new Error(`cassandra schema: ${field} must be a lower-case CQL identifier, got "${value}"`);
  return value;
}

const literal = (value: string): string => `'${value.replaceAll("'", "''")}'`;

/**
 * The CQL statements that prepare a keyspace for YCSB under a preset, in order. Idempotent: the keyspace is
 * created if missing, then ALTERed so replication and `durable_writes` (the preset's server side) always match.
 */
export function cassandraSchemaStatements(opts: CassandraSchemaOptions): string[] {
  const keyspace = identifier("keyspace", opts.keyspace ?? "ycsb");
  const table = identifier("table", opts.table ?? "usertable");
  const prefix = identifier("fieldPrefix", opts.fieldPrefix ?? "field");
  const fields = opts.fieldCount ?? 10;
  if (!Number.isInteger(fields) || fields < 1)
    throw new Error(`cassandra schema: fieldCount must be a positive integer, got ${fields}`);
  const rf = opts.replicationFactor;
  if (!Number.isInteger(rf) || rf < 1)
    throw new Error(`cassandra schema: replicationFactor must be a positive integer, got ${rf}`);
  const replication =
    opts.datacenter === undefined
      ? `{'class': 'SimpleStrategy', 'replication_factor': ${rf}}`
      : `{'class': 'NetworkTopologyStrategy', ${literal(opts.datacenter)}: ${rf}}`;
  const server = { ...presetFor("cassandra", opts.preset).server, ...opts.study };
  const durable = opts.durableWrites ?? server.durableWrites;
  const compaction = server.tableCompaction ? ` AND compaction = {'class': '${server.tableCompaction}'}` : "";
  const columns = Array.from({ length: fields }, (_, i) => `${prefix}${i} blob`).join(", ");
  const compression = opts.compression ? "{'class': 'LZ4Compressor'}" : "{'enabled': 'false'}";
  return [
    `CREATE KEYSPACE IF NOT EXISTS ${keyspace} WITH replication = ${replication} AND durable_writes = ${durable}`,
    `ALTER KEYSPACE ${keyspace} WITH replication = ${replication} AND durable_writes = ${durable}`,
    `CREATE TABLE IF NOT EXISTS ${keyspace}.${table} (y_id varchar PRIMARY KEY, ${columns}) WITH compression = ${compression}${compaction}`,
  ];
}

/** The same statements as one CQL script (`;` at the end of each line), e.g. for cqlsh -f in user-data. */
export function renderCassandraSchema(opts: CassandraSchemaOptions): string {
  return cassandraSchemaStatements(opts)
    .map((s) => `${s};\n`)
    .join("");
}

/** The statement that hands the keyspace to a preset's durable_writes (a plan's settle after a non-durable load). */
export function cassandraDurableWritesStatement(preset: Preset, keyspace = "ycsb"): string {
  return `ALTER KEYSPACE ${identifier("keyspace", keyspace)} WITH durable_writes = ${presetFor("cassandra", preset).server.durableWrites}`;
}
