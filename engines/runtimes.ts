import type { Engine } from "../model/engine.js";
import { cassandraRuntime } from "./cassandra/runtime.js";
import { couchbaseRuntime } from "./couchbase/runtime.js";
import { hbaseRuntime } from "./hbase/runtime.js";
import { mongodbRuntime } from "./mongodb/runtime.js";
import type { EngineRuntime, NodeTuning } from "./runtime.js";

export type { NodeTuning } from "./runtime.js";

/** Each engine's data-node runtime for the boot path (engines/runtime.ts), by engine name. */
const RUNTIMES: Partial<Record<Engine, (tuning: NodeTuning) => EngineRuntime>> = {
  cassandra: cassandraRuntime,
  mongodb: mongodbRuntime,
  couchbase: couchbaseRuntime,
  hbase: hbaseRuntime,
};

export function engineRuntime(engine: Engine, tuning: NodeTuning = {}): EngineRuntime {
  const make = RUNTIMES[engine];
  if (!make) throw new Error(`engine: the boot path has no runtime for ${engine} yet`);
  return make(tuning);
}
