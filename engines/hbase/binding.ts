import { HBASE_COLUMN_FAMILY } from "./schema.js";

/** Our YCSB binding for HBase (runner/bindings/hbase) and the properties that point it at a cluster. */
export const HBASE_BINDING = { module: "hbase", dbClass: "io.ycsblab.bindings.hbase.HBaseClient" } as const;

export interface HBaseEndpoint {
  zookeeperQuorum: string;
  /** @default 2181 */
  zookeeperPort?: number;
}

/** Connection properties (`-p`); the durability ones come from model/presets.ts clientProperties(). */
export function hbaseConnectionProperties(endpoint: HBaseEndpoint): Record<string, string> {
  return {
    "hbase.zookeeper.quorum": endpoint.zookeeperQuorum,
    "hbase.zookeeper.property.clientPort": String(endpoint.zookeeperPort ?? 2181),
    columnfamily: HBASE_COLUMN_FAMILY,
  };
}
