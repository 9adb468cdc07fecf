/** Our YCSB binding for Cassandra (runner/bindings/cassandra) and the properties that point it at a cluster. */
export const CASSANDRA_BINDING = { module: "cassandra", dbClass: "io.ycsblab.bindings.cassandra.CassandraDB" } as const;

export interface CassandraEndpoint {
  /** Contact points: every node (the driver is token-aware and learns the ring from any of them). */
  hosts: string[];
  /** @default 9042 */
  port?: number;
}

/** Connection properties (`-p`); consistency levels come from model/presets.ts clientProperties(). */
export function cassandraConnectionProperties(endpoint: CassandraEndpoint): Record<string, string> {
  if (endpoint.hosts.length === 0) throw new Error("hosts: at least one contact point is required");
  return {
    hosts: endpoint.hosts.join(","),
    port: String(endpoint.port ?? 9042),
    "cassandra.keyspace": "ycsb",
    // SimpleSnitch (engines/cassandra/config.ts) names the one datacenter "datacenter1".
    "cassandra.localdc": "datacenter1",
  };
}
