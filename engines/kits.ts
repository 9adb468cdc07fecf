import type { Engine } from "../model/engine.js";
import { cassandraKit } from "./cassandra/formation.js";
import { couchbaseRuntime } from "./couchbase/runtime.js";
import { hbaseRuntime } from "./hbase/runtime.js";
import { mongodbRuntime } from "./mongodb/runtime.js";
import type { EngineRuntime } from "./runtime.js";

/** What infra reads of each engine (ports, volumes, roles, study settings), by engine name, until it reads runtimes. */
export const ENGINE_KITS: Record<Engine, Pick<EngineRuntime, "engine" | "ports" | "wantsLogVolume" | "roles" | "checkServerSettings">> = {
  cassandra: cassandraKit,
  mongodb: mongodbRuntime(),
  couchbase: couchbaseRuntime(),
  hbase: hbaseRuntime(),
};
