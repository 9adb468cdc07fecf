import { type Preset, presetFor } from "../../model/presets.js";
import { COUCHBASE_BUCKET } from "./schema.js";

/**
 * CouchbaseMock, the Couchbase stand-in where Couchbase Server cannot be installed (DESIGN.md "What runs for real"):
 * the KV protocol and the cluster map, no N1QL, no synchronous durability. Fetched by scripts/setup-couchbase-mock.sh;
 * run by `ycsb-lab local up` (runner/local/couchbase.ts) and by a rehearsal's data node (engines/couchbase/runtime.ts).
 */

export const COUCHBASE_MOCK_VERSION = "1.5.25";

/** Shown wherever a Couchbase number measured on the stand-in appears (status output, result run.standIn, docs). */
export const COUCHBASE_STAND_IN = `CouchbaseMock ${COUCHBASE_MOCK_VERSION} (KV only: no N1QL, no synchronous durability) standing in for Couchbase`;

/** The mock bucket's password; it guards nothing but a throw-away in-memory bucket on loopback. */
export const MOCK_BUCKET_PASSWORD = "ycsb-lab-local";

/** The mock's command line (pure): REST on host:port, `nodes` KV nodes (their ports the mock picks), no replicas, the YCSB bucket. */
export function couchbaseMockArgs(jar: string, restPort: number, nodes: number, host = "127.0.0.1"): string[] {
  return [
    "-jar",
    jar,
    "--host",
    host,
    "--port",
    String(restPort),
    "--nodes",
    String(nodes),
    "--replicas",
    "0",
    "--vbuckets",
    "64",
    "--cccp",
    "--buckets",
    `${COUCHBASE_BUCKET}:${MOCK_BUCKET_PASSWORD}:couchbase`,
  ];
}

/**
 * Why the mock cannot serve a preset (undefined when it can): it refuses synchronous durability, so only a preset
 * whose client durability is "none" (throughput) runs on it.
 */
export function mockPresetRefusal(preset: Preset): string | undefined {
  const durability = presetFor("couchbase", preset).client.properties["couchbase.durability"];
  if (durability === "none") return undefined;
  return `preset "${preset}" sets couchbase.durability=${durability}, which needs synchronous durability; ${COUCHBASE_STAND_IN.split(" standing")[0]} cannot provide it, so only the "throughput" preset runs on it`;
}
