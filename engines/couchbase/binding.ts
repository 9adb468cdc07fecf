import { COUCHBASE_BUCKET } from "./schema.js";

/** Our YCSB binding for Couchbase (runner/bindings/couchbase) and the properties that point it at a cluster. */
export const COUCHBASE_BINDING = {
  module: "couchbase",
  dbClass: "io.ycsblab.bindings.couchbase.CouchbaseClient",
} as const;

export interface CouchbaseEndpoint {
  /** SDK 3 connection string, e.g. `couchbase://10.0.1.10,10.0.1.11`. */
  connectionString: string;
  username: string;
  /** Absent when clients read it from SSM (the readiness marker's secretConnection). */
  password?: string;
  /** `n1ql` answers SCAN with a query (needs the query service and a primary index); `none` returns NOT_IMPLEMENTED like seed 000. @default "none" */
  scan?: "n1ql" | "none";
}

/** Connection properties (`-p`); the durability level comes from model/presets.ts clientProperties(). */
export function couchbaseConnectionProperties(endpoint: CouchbaseEndpoint): Record<string, string> {
  return {
    "couchbase.connectionString": endpoint.connectionString,
    "couchbase.username": endpoint.username,
    ...(endpoint.password !== undefined ? { "couchbase.password": endpoint.password } : {}),
    "couchbase.bucket": COUCHBASE_BUCKET,
    "couchbase.scan": endpoint.scan ?? "none",
  };
}
