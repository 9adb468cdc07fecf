import type { Engine } from "../model/engine.js";
import { CASSANDRA_BINDING } from "./cassandra/binding.js";
import { COUCHBASE_BINDING } from "./couchbase/binding.js";
import { HBASE_BINDING } from "./hbase/binding.js";
import { MONGODB_BINDING } from "./mongodb/binding.js";

/** Each engine's YCSB binding: its Maven module under runner/bindings and its site.ycsb.DB class. */
export const ENGINE_BINDINGS: Record<Engine, { module: string; dbClass: string }> = {
  cassandra: CASSANDRA_BINDING,
  mongodb: MONGODB_BINDING,
  couchbase: COUCHBASE_BINDING,
  hbase: HBASE_BINDING,
};
