import type { Preset } from "../../model/presets.js";
import { presetFor } from "../../model/presets.js";

/** The bucket YCSB writes into; documents live in its default collection. */
export const COUCHBASE_BUCKET = "ycsb";

export interface CouchbaseBucketOptions {
  preset: Preset;
  /** Bucket RAM quota per node in MiB (seed 000: all of the node's data RAM quota). */
  ramQuotaMb: number;
  /** Replicas; durability `majority`/`persistToMajority` need at least one on a multi-node cluster. @default 0 */
  replicas?: number;
}

/** `couchbase-cli bucket-create` arguments (after the cluster/credentials options) for the YCSB bucket. */
export function couchbaseBucketCreateArgs(options: CouchbaseBucketOptions): string[] {
  const { ramQuotaMb, replicas = 0 } = options;
  // Couchbase's minimum bucket quota is 100 MiB (docs: couchbase-cli bucket-create --bucket-ramsize).
  if (!Number.isInteger(ramQuotaMb) || ramQuotaMb < 100) throw new Error(`ramQuotaMb: must be an integer >= 100, got ${ramQuotaMb}`);
  if (!Number.isInteger(replicas) || replicas < 0 || replicas > 3) throw new Error(`replicas: must be 0..3, got ${replicas}`);
  const server = presetFor("couchbase", options.preset).server;
  return [
    "bucket-create",
    "--bucket", COUCHBASE_BUCKET,
    "--bucket-type", "couchbase",
    "--bucket-ramsize", String(ramQuotaMb),
    "--bucket-replica", String(replicas),
    // Seed 000: value eviction held under 60% of the data, so full eviction.
    "--bucket-eviction-policy", server.evictionPolicy,
    "--enable-flush", "0",
    "--wait",
  ];
}
