import type { Engine } from "../model/engine.js";
import { cassandraKit } from "./cassandra/formation.js";
import { couchbaseKit } from "./couchbase/formation.js";
import { hbaseKit } from "./hbase/formation.js";
import { mongoKit } from "./mongodb/formation.js";
import type { EngineKit } from "./node-context.js";

/** Every engine's cloud-side knowledge, by engine name. */
export const ENGINE_KITS: Record<Engine, EngineKit> = {
  cassandra: cassandraKit,
  mongodb: mongoKit,
  couchbase: couchbaseKit,
  hbase: hbaseKit,
};
