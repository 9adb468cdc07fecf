import type { HBaseDurability, Preset } from "../../model/presets.js";
import { presetFor } from "../../model/presets.js";
import { hashedKeySplitPoints } from "../ycsb-keys.js";

/** YCSB's default table and the column family the seeds created (seed 000/001: `create 'usertable', 'data'`). */
export const HBASE_TABLE = "usertable";
export const HBASE_COLUMN_FAMILY = "data";

export type HBaseCompression = "NONE" | "GZ" | "SNAPPY" | "LZ4" | "ZSTD";

export interface HBaseTableOptions {
  preset: Preset;
  /** Region servers in the cluster. */
  nodes: number;
  /** Regions per region server; seed 001 used NUMREGIONS => node count, i.e. 1. @default 1 */
  regionsPerNode?: number;
  /** Seed 000 had to turn compression on at 8+ nodes (disks filled during load). @default "NONE" */
  compression?: HBaseCompression;
}

export interface HBaseTableSpec {
  table: string;
  family: string;
  /** Region boundaries for YCSB's hashed keys; empty for a single region. */
  splits: string[];
  /** Table DURABILITY attribute from the preset's server side. */
  durability: HBaseDurability;
  compression: HBaseCompression;
}

/** The pre-split `usertable` for a cluster: one spec, created by the shell on AWS and by the mini cluster locally. */
export function hbaseTableSpec(options: HBaseTableOptions): HBaseTableSpec {
  const { nodes, regionsPerNode = 1, compression = "NONE" } = options;
  if (!Number.isInteger(nodes) || nodes < 1) throw new Error(`nodes: must be a positive integer, got ${nodes}`);
  if (!Number.isInteger(regionsPerNode) || regionsPerNode < 1) {
    throw new Error(`regionsPerNode: must be a positive integer, got ${regionsPerNode}`);
  }
  return {
    table: HBASE_TABLE,
    family: HBASE_COLUMN_FAMILY,
    splits: hashedKeySplitPoints(nodes * regionsPerNode),
    durability: presetFor("hbase", options.preset).server.tableDurability,
    compression,
  };
}

const quote = (value: string): string => `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

/** The hbase shell statement (seed 000: `create 'usertable', {NAME => 'data'}, {SPLITS => [...]}`). */
export function renderHBaseShellCreate(spec: HBaseTableSpec): string {
  const family = `{NAME => ${quote(spec.family)}, COMPRESSION => ${quote(spec.compression)}}`;
  const table = [`DURABILITY => ${quote(spec.durability)}`];
  if (spec.splits.length > 0) table.unshift(`SPLITS => [${spec.splits.map(quote).join(", ")}]`);
  return `create ${quote(spec.table)}, ${family}, {${table.join(", ")}}\n`;
}
