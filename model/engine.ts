/** The databases ycsb-lab benchmarks, as named everywhere (scenario specs, results, stacks). */
export const ENGINES = ["cassandra", "mongodb", "couchbase", "hbase"] as const;
export type Engine = (typeof ENGINES)[number];

export function isEngine(value: unknown): value is Engine {
  return typeof value === "string" && (ENGINES as readonly string[]).includes(value);
}

/** The versions ycsb-lab installs and configures for; seeds used older ones, see DESIGN.md. */
export const ENGINE_VERSIONS: Record<Engine, string> = {
  cassandra: "5.0.4",
  mongodb: "8.0",
  couchbase: "7.6",
  hbase: "2.5.11",
};
