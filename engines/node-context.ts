import type { Engine } from "../model/engine.js";
import type { Preset } from "../model/presets.js";
import type { StudyServerSide } from "../model/scenario.js";

/** MongoDB layouts: seeds 000/001 ran one shard per node; seed 002 ran per-shard replica sets (primary, secondary, arbiter). */
export type MongoTopology = "sharded" | "replica-set";

/**
 * Everything a data node's boot needs to know about its cluster: plain values, rendered into user-data by infra
 * and used by runner/local for servers on this machine. No Pulumi types here.
 */
export interface NodeContext {
  engine: Engine;
  version: string;
  preset: Preset;
  /** The preset of the load phase (seed 000 loaded non-durably); server settings follow `preset`. */
  loadPreset: Preset;
  /** Private IPs of every data node, index 0 is the formation leader. */
  nodeIps: string[];
  /** This node's index in nodeIps. */
  index: number;
  replication: number;
  recordCount: number;
  fieldCount: number;
  runId: string;
  region: string;
  /** s3:// URL the leader writes once the cluster is formed and the schema prepared: the runner's readiness signal. */
  readyMarkerUrl: string;
  /** SSM parameter (SecureString) holding the admin password where an engine needs one (Couchbase). */
  adminPasswordParameter: string;
  memoryGiB: number;
  vcpus: number;
  /** Mount point of the data volume. */
  dataDir: string;
  /** Mount point of the separate log volume (commitlog / journal) when the preset puts it on its own device. */
  logDir?: string;
  mongoTopology: MongoTopology;
  /** Server settings a study changed beyond the preset (scenario.serverSettings[engine]). */
  serverSettings: Record<string, string>;
  /** A study's own values over the preset and its HBase pre-split (model/scenario.ts studyServerSide). */
  study?: StudyServerSide;
}

/** The ports an engine needs: `client` opened to the client fleet, `cluster` between data nodes. */
export interface EnginePorts {
  client: Array<{ from: number; to: number; description: string }>;
  cluster: Array<{ from: number; to: number; description: string }>;
}
