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
  /**
   * "ycsb-keys" splits YCSB's hashed key space evenly; "HexStringSplit" is HBase's RegionSplitter over
   * 00000000..ffffffff, as seed 001 printed it (lines 73-77), under which every "user..." key sorts after the last
   * split point. @default "ycsb-keys"
   */
  splitAlgorithm?: "ycsb-keys" | "HexStringSplit";
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

/** The pre-split `usertable` for a cluster: one spec, created by our schema tool (the boot leader's formHBase, locally too). */
export function hbaseTableSpec(options: HBaseTableOptions): HBaseTableSpec {
  const { nodes, regionsPerNode = 1, compression = "NONE" } = options;
  if (!Number.isInteger(nodes) || nodes < 1) throw new Error(`nodes: must be a positive integer, got ${nodes}`);
  if (!Number.isInteger(regionsPerNode) || regionsPerNode < 1) {
    throw new Error(`regionsPerNode: must be a positive integer, got ${regionsPerNode}`);
  }
  return {
    table: HBASE_TABLE,
    family: HBASE_COLUMN_FAMILY,
    splits:
      options.splitAlgorithm === "HexStringSplit"
        ? hexStringSplitPoints(nodes * regionsPerNode)
        : hashedKeySplitPoints(nodes * regionsPerNode),
    durability: presetFor("hbase", options.preset).server.tableDurability,
    compression,
  };
}

/** HBase's RegionSplitter.HexStringSplit: n regions over 00000000..ffffffff, lower-case hex padded to 8 digits. */
export function hexStringSplitPoints(regions: number): string[] {
  const max = 0xffffffffn;
  return Array.from({ length: Math.max(0, regions - 1) }, (_, i) =>
    ((max * BigInt(i + 1)) / BigInt(regions)).toString(16).padStart(8, "0"),
  );
}
