import { type CassandraServerSide, type Preset, presetFor } from "../../model/presets.js";

/** One Cassandra node's cassandra.yaml inputs. Paths are absolute; the preset decides commitlog syncing. */
export interface CassandraNodeConfig {
  clusterName: string;
  /** Seed addresses (host or host:port); seed 000 used the first node. */
  seeds: string[];
  listenAddress: string;
  rpcAddress: string;
  dataDir: string;
  commitlogDir: string;
  hintsDir: string;
  savedCachesDir: string;
  cdcDir?: string;
  /** CQL port. @default 9042 */
  nativeTransportPort?: number;
  /** Inter-node port. @default 7000 */
  storagePort?: number;
  preset: Preset;
  /** A study\'s own values over the preset\'s server side (model/scenario.ts presetServer). */
  study?: Partial<CassandraServerSide>;
  /** Seed 000: 64 (Cassandra's advice: 8 x cores). @default Cassandra's 32 */
  concurrentWrites?: number;
  /** @default Cassandra 5.0's 16 */
  numTokens?: number;
  /** @default "SimpleSnitch" (seed 000); Ec2Snitch on AWS names the DC after the region. */
  endpointSnitch?: string;
  /** false lets every node of a fresh, empty cluster join at once (nothing to stream). @default true */
  autoBootstrap?: boolean;
  /** This node's tokens, chosen up front (engines/cassandra/tokens.ts); the allocation algorithm is then unused. */
  initialTokens?: string[];
}

const SNITCH = /^[A-Za-z0-9_.]+$/;

/** A YAML double-quoted scalar (JSON strings are valid YAML). */
const q = (value: string): string => JSON.stringify(value);

function check(cfg: CassandraNodeConfig): void {
  const fail = (field: string, why: string): never => {
    throw new Error(`cassandra config: ${field} ${why}`);
  };
  if (!cfg.clusterName.trim()) fail("clusterName", "must not be empty");
  if (cfg.seeds.length === 0) fail("seeds", "must name at least one seed address");
  for (const [i, s] of cfg.seeds.entries())
    if (!s.trim() || /[\s,]/.test(s)) fail(`seeds[${i}]`, `is not an address: "${s}"`);
  for (const field of ["listenAddress", "rpcAddress"] as const)
    if (!cfg[field].trim()) fail(field, "must not be empty");
  for (const field of ["dataDir", "commitlogDir", "hintsDir", "savedCachesDir", "cdcDir"] as const) {
    const dir = cfg[field];
    if (dir !== undefined && !dir.startsWith("/")) fail(field, `must be an absolute path, got "${dir}"`);
  }
  for (const field of ["nativeTransportPort", "storagePort"] as const) {
    const port = cfg[field];
    if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536))
      fail(field, `must be a TCP port, got ${port}`);
  }
  for (const field of ["concurrentWrites", "numTokens"] as const) {
    const n = cfg[field];
    if (n !== undefined && !(Number.isInteger(n) && n > 0)) fail(field, `must be a positive integer, got ${n}`);
  }
  if (cfg.endpointSnitch !== undefined && !SNITCH.test(cfg.endpointSnitch))
    fail("endpointSnitch", `is not a class name: "${cfg.endpointSnitch}"`);
}

/**
 * The commitlog lines of a preset (model/presets.ts server side, with a study's own values over it: seed 004's
 * 10 ms window), in Cassandra 5.0's duration syntax.
 */
export function commitlogSettings(preset: Preset, study: Partial<CassandraServerSide> = {}): Record<string, string> {
  const server = { ...presetFor("cassandra", preset).server, ...study };
  switch (server.commitlogSync) {
    case "periodic":
      return { commitlog_sync: "periodic", commitlog_sync_period: `${server.commitlogSyncPeriodMs ?? 10_000}ms` };
    case "batch":
      // 5.0 deprecates commitlog_sync_batch_window_in_ms (seed 000 used 2 ms): batch syncs as soon as possible.
      return { commitlog_sync: "batch" };
    case "group":
      return { commitlog_sync: "group", commitlog_sync_group_window: `${server.commitlogSyncGroupWindowMs ?? 15}ms` };
  }
}

/**
 * cassandra.yaml for one node. Only what differs from Cassandra 5.0's built-in defaults is written, so the
 * same file boots the real server locally (runner/local) and on AWS (infra user-data).
 * Reference: https://cassandra.apache.org/doc/5.0/cassandra/managing/configuration/cass_yaml_file.html
 */
export function renderCassandraYaml(cfg: CassandraNodeConfig): string {
  check(cfg);
  const lines: string[] = [
    `# Rendered by ycsb-lab engines/cassandra/config.ts for preset "${cfg.preset}"`,
    `cluster_name: ${q(cfg.clusterName)}`,
    `num_tokens: ${cfg.initialTokens?.length ?? cfg.numTokens ?? 16}`,
    ...(cfg.initialTokens
      ? [`initial_token: ${q(cfg.initialTokens.join(","))}`]
      : ["allocate_tokens_for_local_replication_factor: 3"]),
    "partitioner: org.apache.cassandra.dht.Murmur3Partitioner",
    `endpoint_snitch: ${cfg.endpointSnitch ?? "SimpleSnitch"}`,
    "seed_provider:",
    "  - class_name: org.apache.cassandra.locator.SimpleSeedProvider",
    "    parameters:",
    `      - seeds: ${q(cfg.seeds.join(","))}`,
    `listen_address: ${q(cfg.listenAddress)}`,
    `rpc_address: ${q(cfg.rpcAddress)}`,
    `native_transport_port: ${cfg.nativeTransportPort ?? 9042}`,
    `storage_port: ${cfg.storagePort ?? 7000}`,
    "start_native_transport: true",
    `auto_bootstrap: ${cfg.autoBootstrap ?? true}`,
    "data_file_directories:",
    `  - ${q(cfg.dataDir)}`,
    `commitlog_directory: ${q(cfg.commitlogDir)}`,
    `hints_directory: ${q(cfg.hintsDir)}`,
    `saved_caches_directory: ${q(cfg.savedCachesDir)}`,
  ];
  if (cfg.cdcDir !== undefined) lines.push(`cdc_raw_directory: ${q(cfg.cdcDir)}`);
  for (const [key, value] of Object.entries(commitlogSettings(cfg.preset, cfg.study))) lines.push(`${key}: ${value}`);
  if (cfg.concurrentWrites !== undefined) lines.push(`concurrent_writes: ${cfg.concurrentWrites}`);
  return `${lines.join("\n")}\n`;
}
