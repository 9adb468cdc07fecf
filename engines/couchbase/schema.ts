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

/**
 * The YCSB bucket as the REST API creates it (POST /pools/default/buckets, Couchbase docs "Creating and Editing
 * Buckets"): form fields, sent by the leader's formation.
 */
export function couchbaseBucketParams(options: CouchbaseBucketOptions): Record<string, string> {
  const { ramQuotaMb, replicas = 0 } = options;
  // Couchbase's minimum bucket quota is 100 MiB (docs: "ramQuota ... minimum 100").
  if (!Number.isInteger(ramQuotaMb) || ramQuotaMb < 100)
    throw new Error(`ramQuotaMb: must be an integer >= 100, got ${ramQuotaMb}`);
  if (!Number.isInteger(replicas) || replicas < 0 || replicas > 3)
    throw new Error(`replicas: must be 0..3, got ${replicas}`);
  const server = presetFor("couchbase", options.preset).server;
  return {
    name: COUCHBASE_BUCKET,
    bucketType: "couchbase",
    ramQuota: String(ramQuotaMb),
    replicaNumber: String(replicas),
    // Seed 000: value eviction held under 60% of the data, so full eviction.
    evictionPolicy: server.evictionPolicy,
    flushEnabled: "0",
  };
}
