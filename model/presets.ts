import type { Engine } from "./engine.js";

/**
 * Durability presets (seed 004, "High performance benchmarking", brought to current versions).
 * Each preset has a server side (config files, keyspace/table options) and a client side
 * (consistency level, write concern, durability level). This module is the one source of truth:
 * engines/ renders the server side, the Java bindings read the client side as YCSB properties.
 */
export const PRESETS = ["throughput", "balanced", "durable"] as const;
export type Preset = (typeof PRESETS)[number];

export function isPreset(value: unknown): value is Preset {
  return typeof value === "string" && (PRESETS as readonly string[]).includes(value);
}

/** Where a setting comes from: a seed (by number) or a vendor document. */
export interface Source {
  seed?: "000" | "001" | "002" | "003" | "004";
  doc?: string;
  note?: string;
}

export interface CassandraServerSide {
  /** `durable_writes` of the keyspace; false skips the commitlog entirely (seed 004 throughput). */
  durableWrites: boolean;
  commitlogSync: "periodic" | "batch" | "group";
  /** periodic: fsync every N ms (default 10000, seed 004 "every 10 seconds"). */
  commitlogSyncPeriodMs?: number;
  /** group: window in ms. batch in 5.0 takes no window (the old batch window is deprecated). */
  commitlogSyncGroupWindowMs?: number;
  /** Seed 004 balanced/durable: "commitlog placed on a separate device". */
  commitlogOwnVolume: boolean;
  /** The table's compaction class where a study chose one (seed 004 throughput: LeveledCompactionStrategy); else 5.0's default. */
  tableCompaction?: "LeveledCompactionStrategy" | "SizeTieredCompactionStrategy" | "UnifiedCompactionStrategy";
}

export interface MongoServerSide {
  /** MongoDB >= 6.1 cannot run without a journal (`--nojournal` was removed): throughput relies on j:false. */
  journal: true;
  /** Seed 004 balanced: "journal placed on a separate device". */
  journalOwnVolume: boolean;
  /** storage.journal.commitIntervalMs; default 100. */
  journalCommitIntervalMs: number;
}

export interface CouchbaseServerSide {
  /** Seed 000: full eviction because value eviction could not hold 500M records per node. */
  evictionPolicy: "fullEviction" | "valueOnly";
}

export interface HBaseServerSide {
  /** hbase.wal.hsync: FSYNC_WAL semantics for the default table durability. */
  walHsync: boolean;
  /** The table's DURABILITY attribute, set at create time (engines/hbase schema). */
  tableDurability: HBaseDurability;
}

export type HBaseDurability = "SKIP_WAL" | "ASYNC_WAL" | "SYNC_WAL" | "FSYNC_WAL";
export type CassandraConsistency = "ONE" | "QUORUM" | "ALL" | "LOCAL_ONE" | "LOCAL_QUORUM";
export type CouchbaseDurability = "none" | "majority" | "majorityAndPersistToActive" | "persistToMajority";

export interface ClientSide {
  /**
   * YCSB properties our bindings read (runner/bindings). Names are `<engine>.<setting>`;
   * they are passed with `-p` and recorded in results.
   */
  properties: Record<string, string>;
}

export interface PresetDefinition<S> {
  engine: Engine;
  preset: Preset;
  server: S;
  client: ClientSide;
  /** Worst-case data loss in a crash, as seed 004's table states it for the current version. */
  dataLossWindow: string;
  reason: string;
  sources: Source[];
}

export type CassandraPreset = PresetDefinition<CassandraServerSide>;
export type MongoPreset = PresetDefinition<MongoServerSide>;
export type CouchbasePreset = PresetDefinition<CouchbaseServerSide>;
export type HBasePreset = PresetDefinition<HBaseServerSide>;

export interface PresetCatalogue {
  cassandra: Record<Preset, CassandraPreset>;
  mongodb: Record<Preset, MongoPreset>;
  couchbase: Record<Preset, CouchbasePreset>;
  hbase: Record<Preset, HBasePreset>;
}

const CASSANDRA_YAML_DOC = "https://cassandra.apache.org/doc/5.0/cassandra/managing/configuration/cass_yaml_file.html";
const MONGO_WC_DOC = "https://www.mongodb.com/docs/manual/reference/write-concern/";
const MONGO_JOURNAL_DOC = "https://www.mongodb.com/docs/manual/core/journaling/";
const COUCHBASE_DURABILITY_DOC = "https://docs.couchbase.com/server/current/learn/data/durability.html";
const HBASE_WAL_DOC = "https://hbase.apache.org/book.html#wal.durability";

/** Cassandra reads and writes at ONE in every preset: seed 002 ran Read.ONE/Write.ONE; durability here is about the commitlog, not replicas. */
const cassandraClient = (): ClientSide => ({
  properties: { "cassandra.readconsistencylevel": "ONE", "cassandra.writeconsistencylevel": "ONE" },
});

export const DURABILITY_PRESETS: PresetCatalogue = {
  cassandra: {
    throughput: {
      engine: "cassandra",
      preset: "throughput",
      server: {
        durableWrites: false,
        commitlogSync: "periodic",
        commitlogSyncPeriodMs: 10_000,
        commitlogOwnVolume: false,
      },
      client: cassandraClient(),
      dataLossWindow: "everything since the memtables were last flushed",
      reason: "Writes skip the commitlog: acknowledged from the memtable only.",
      sources: [{ seed: "004", note: "create keyspace ... with durable_writes=false" }],
    },
    balanced: {
      engine: "cassandra",
      preset: "balanced",
      server: {
        durableWrites: true,
        commitlogSync: "periodic",
        commitlogSyncPeriodMs: 10_000,
        commitlogOwnVolume: true,
      },
      client: cassandraClient(),
      dataLossWindow: "up to 10 s of writes (commitlog_sync_period)",
      reason: "Cassandra's default: commitlog fsynced every 10 s, on its own volume.",
      sources: [
        { seed: "004", note: "commitlog on a separate device, flushed every 10 seconds" },
        { doc: CASSANDRA_YAML_DOC },
      ],
    },
    durable: {
      engine: "cassandra",
      preset: "durable",
      server: { durableWrites: true, commitlogSync: "batch", commitlogOwnVolume: true },
      client: cassandraClient(),
      dataLossWindow: "none: a write is acknowledged after the commitlog fsync",
      reason:
        "commitlog_sync: batch acknowledges only after fsync. Seed 000 used a 2 ms window and seed 004 10 ms; " +
        "Cassandra 5.0 deprecates the batch window (use `group` with a window for the same grouping).",
      sources: [
        { seed: "004", note: "commitlog_sync: batch, window 10 ms" },
        { seed: "000", note: "batch window 2 ms" },
        { doc: CASSANDRA_YAML_DOC },
      ],
    },
  },
  mongodb: {
    throughput: {
      engine: "mongodb",
      preset: "throughput",
      server: { journal: true, journalOwnVolume: false, journalCommitIntervalMs: 100 },
      client: { properties: { "mongodb.writeConcern.w": "1", "mongodb.writeConcern.j": "false" } },
      dataLossWindow: "writes since the last journal commit (100 ms) or checkpoint",
      reason:
        "Seed 004 ran --nojournal; that option was removed in MongoDB 6.1, so the nearest setting is write concern {w:1, j:false}.",
      sources: [
        { seed: "004", note: "--storageEngine=wiredTiger --nojournal" },
        { doc: MONGO_JOURNAL_DOC },
        { doc: MONGO_WC_DOC },
      ],
    },
    balanced: {
      engine: "mongodb",
      preset: "balanced",
      server: { journal: true, journalOwnVolume: true, journalCommitIntervalMs: 100 },
      client: { properties: { "mongodb.writeConcern.w": "1", "mongodb.writeConcern.j": "false" } },
      dataLossWindow: "up to storage.journal.commitIntervalMs (100 ms) of writes",
      reason: "MongoDB's defaults, with the journal on its own volume as seed 004 did.",
      sources: [{ seed: "004", note: "journal placed on a separate device" }, { doc: MONGO_JOURNAL_DOC }],
    },
    durable: {
      engine: "mongodb",
      preset: "durable",
      server: { journal: true, journalOwnVolume: true, journalCommitIntervalMs: 100 },
      client: { properties: { "mongodb.writeConcern.w": "1", "mongodb.writeConcern.j": "true" } },
      dataLossWindow: "none: acknowledged after the journal is on disk",
      reason: "Write concern j:true (seed 004: mongodb.writeConcern=journaled).",
      sources: [{ seed: "004", note: "YCSB mongodb.writeConcern=journaled" }, { doc: MONGO_WC_DOC }],
    },
  },
  couchbase: {
    throughput: {
      engine: "couchbase",
      preset: "throughput",
      server: { evictionPolicy: "fullEviction" },
      client: { properties: { "couchbase.durability": "none" } },
      dataLossWindow: "everything in the disk write queue (up to the bucket's RAM)",
      reason: "Couchbase's default: acknowledged from memory, persisted asynchronously.",
      sources: [
        { seed: "004", note: "Couchbase default settings" },
        { seed: "000", note: "bucket-eviction-policy fullEviction" },
      ],
    },
    balanced: {
      engine: "couchbase",
      preset: "balanced",
      server: { evictionPolicy: "fullEviction" },
      client: { properties: { "couchbase.durability": "majority" } },
      dataLossWindow: "none while a majority of replicas survives; all un-persisted writes if they all fail at once",
      reason:
        "Seed 004 found 'no equivalent option'. The closest today is durability level `majority` (replicated in memory to a majority before ack); " +
        "it is a replication guarantee, not a disk one, and the dashboard labels it so.",
      sources: [{ seed: "004", note: "Balanced: no equivalent option available" }, { doc: COUCHBASE_DURABILITY_DOC }],
    },
    durable: {
      engine: "couchbase",
      preset: "durable",
      server: { evictionPolicy: "fullEviction" },
      client: { properties: { "couchbase.durability": "persistToMajority" } },
      dataLossWindow: "none: acknowledged after persistence on a majority",
      reason: "Seed 004 used PersistTo=MASTER; the SDK 3 equivalent is durability level persistToMajority.",
      sources: [{ seed: "004", note: "YCSB setting couchbase.PersistTo=MASTER" }, { doc: COUCHBASE_DURABILITY_DOC }],
    },
  },
  hbase: {
    throughput: {
      engine: "hbase",
      preset: "throughput",
      server: { walHsync: false, tableDurability: "ASYNC_WAL" },
      client: { properties: { "hbase.durability": "ASYNC_WAL" } },
      dataLossWindow: "WAL edits not yet synced by the background syncer",
      reason:
        "ASYNC_WAL writes the WAL without waiting for the sync (SKIP_WAL would lose everything since the last flush).",
      sources: [{ doc: HBASE_WAL_DOC }],
    },
    balanced: {
      engine: "hbase",
      preset: "balanced",
      server: { walHsync: false, tableDurability: "SYNC_WAL" },
      client: { properties: { "hbase.durability": "SYNC_WAL" } },
      dataLossWindow: "edits hflushed to the datanodes' memory but not on disk, if all replicas fail at once",
      reason: "HBase's default: SYNC_WAL, which hflushes the WAL to the datanode pipeline.",
      sources: [{ doc: HBASE_WAL_DOC }],
    },
    durable: {
      engine: "hbase",
      preset: "durable",
      server: { walHsync: true, tableDurability: "FSYNC_WAL" },
      client: { properties: { "hbase.durability": "FSYNC_WAL" } },
      dataLossWindow: "none: the WAL is hsynced to disk before the ack",
      reason: "FSYNC_WAL with hbase.wal.hsync=true makes the datanodes fsync the WAL.",
      sources: [{ doc: HBASE_WAL_DOC }],
    },
  },
};

export function presetFor(engine: "cassandra", preset: Preset): CassandraPreset;
export function presetFor(engine: "mongodb", preset: Preset): MongoPreset;
export function presetFor(engine: "couchbase", preset: Preset): CouchbasePreset;
export function presetFor(engine: "hbase", preset: Preset): HBasePreset;
export function presetFor(engine: Engine, preset: Preset): PresetDefinition<unknown>;
export function presetFor(engine: Engine, preset: Preset): PresetDefinition<unknown> {
  const byEngine = DURABILITY_PRESETS[engine] as Record<Preset, PresetDefinition<unknown>> | undefined;
  if (!byEngine) throw new Error(`engine: unknown engine "${engine}"`);
  const found = byEngine[preset];
  if (!found)
    throw new Error(
      `preset: engine "${engine}" has no preset "${preset}" (known: ${Object.keys(byEngine).join(", ")})`,
    );
  return found;
}

/** The YCSB property naming the preset a phase ran under (recorded in every phase's properties). */
export const PRESET_PROPERTY = "ycsblab.preset";

/** The client-side YCSB properties of a preset, as `-p` pairs for the bindings. */
export function clientProperties(engine: Engine, preset: Preset): Record<string, string> {
  return { ...presetFor(engine, preset).client.properties, [PRESET_PROPERTY]: preset };
}

/**
 * The preset a phase ran under: the one its properties name (a load may run under its own, seed 000), else the
 * run's. Results count under it: seed 000's load throughput is non-durable, its workloads durable.
 */
export function phasePreset<P extends string>(runPreset: P, properties: Record<string, unknown>): P | Preset {
  const named = properties[PRESET_PROPERTY];
  return isPreset(named) ? named : runPreset;
}

/**
 * Engines whose preset server side can change between the load and the workloads without a restart, and how: a load
 * under its own preset (seed 000: "non-durable writes for this stage only") is then really non-durable on the
 * server. Elsewhere the server side of the run's preset holds from the start (the client side still follows the load
 * preset), and the plan says so.
 */
export const SERVER_PRESET_SWITCH: Record<Engine, string | undefined> = {
  // ALTER KEYSPACE ... WITH durable_writes (CQL reference, "ALTER KEYSPACE"): takes effect at once, no restart.
  cassandra: "keyspace durable_writes",
  // The journal and commit interval are mongod start-up options: a restart, not a switch.
  mongodb: undefined,
  // No server-side durability setting (seed 004: durability is the SDK's per write).
  couchbase: undefined,
  // The table's DURABILITY could be altered, but hbase.wal.hsync is a region server setting needing a restart.
  hbase: undefined,
};
