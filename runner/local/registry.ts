import type { Engine } from "../../model/engine.js";
import type { LocalEngine } from "./engine.js";

/** Local engines by name, loaded lazily (each pulls in its own start-up code). One line per engine. */
const LOCAL_ENGINES: Partial<Record<Engine, () => Promise<LocalEngine>>> = {
  cassandra: async () => (await import("./cassandra.js")).cassandraLocalEngine,
  mongodb: async () => (await import("./mongodb.js")).mongodbLocalEngine,
  hbase: async () => (await import("./hbase.js")).hbaseLocalEngine,
  couchbase: async () => (await import("./couchbase.js")).couchbaseLocalEngine,
};

export function localEngineNames(): Engine[] {
  return Object.keys(LOCAL_ENGINES) as Engine[];
}

export async function loadLocalEngine(engine: Engine): Promise<LocalEngine> {
  const load = LOCAL_ENGINES[engine];
  if (!load) throw new Error(`engine: no local engine "${engine}" (available: ${localEngineNames().join(", ")})`);
  return load();
}
