/**
 * What "ready" means for a Cassandra cluster: every expected node answers CQL itself, and every node sees
 * every expected node as NORMAL (nodetool's "UN"), serving CQL, on one schema version. Pure: the inputs are
 * rows of `system_views.gossip_info` (Cassandra 4.1+) as each node reports them.
 */

/** One row of system_views.gossip_info as read from one node (`node`), columns as Cassandra names them. */
export interface GossipRow {
  /** The node that answered the query. */
  node: string;
  /** The endpoint the row describes, e.g. "/127.0.0.2" (a leading slash is ignored). */
  address: string;
  /** e.g. "NORMAL,-1017918304969277182", "BOOT,...", "shutdown,true"; null before the node announced itself. */
  status: string | null;
  /** The same with ports; 4.0+ nodes gossip only this one about each other (status stays null for peers). */
  status_with_port?: string | null;
  rpc_ready?: string | null;
  /** Schema version UUID the endpoint announced. */
  schema?: string | null;
}

/** The SELECT that yields GossipRow columns (run on every node; `node` is the answering node's address). */
export const GOSSIP_QUERY = `SELECT address, status, status_with_port, rpc_ready, "schema" FROM system_views.gossip_info`;

export interface Readiness {
  ready: boolean;
  /** One line per problem, naming the node; empty when ready. */
  reasons: string[];
}

const bare = (address: string): string => address.replace(/^\//, "").replace(/:\d+$/, "");

/** The gossip state word ("NORMAL", "BOOT", "LEAVING", "shutdown", ...) or "unknown". */
export function gossipState(status: string | null | undefined): string {
  return status ? (status.split(",")[0] ?? "unknown") : "unknown";
}

const rowState = (row: GossipRow): string => gossipState(row.status_with_port ?? row.status);

export function cassandraReadiness(expected: readonly string[], rows: readonly GossipRow[]): Readiness {
  const reasons: string[] = [];
  const want = new Set(expected.map(bare));
  const byObserver = new Map<string, GossipRow[]>();
  for (const row of rows) {
    const observer = bare(row.node);
    byObserver.set(observer, [...(byObserver.get(observer) ?? []), row]);
  }
  const schemas = new Set<string>();
  for (const observer of want) {
    const seen = byObserver.get(observer);
    if (!seen) {
      reasons.push(`${observer}: does not answer CQL`);
      continue;
    }
    for (const target of want) {
      const row = seen.find((r) => bare(r.address) === target);
      if (!row) {
        reasons.push(`${observer}: does not know ${target} yet`);
        continue;
      }
      const state = rowState(row);
      if (state !== "NORMAL") reasons.push(`${observer}: sees ${target} as ${state}, not NORMAL`);
      else if (row.rpc_ready !== undefined && row.rpc_ready !== "true")
        reasons.push(`${observer}: sees ${target} not serving CQL yet`);
      if (row.schema) schemas.add(row.schema);
    }
    for (const row of seen) {
      const target = bare(row.address);
      if (!want.has(target) && rowState(row) !== "LEFT")
        reasons.push(`${observer}: sees unexpected node ${target} (${rowState(row)})`);
    }
  }
  if (schemas.size > 1) reasons.push(`schema versions disagree: ${[...schemas].sort().join(", ")}`);
  for (const observer of byObserver.keys()) {
    if (!want.has(observer)) reasons.push(`${observer}: answered but is not an expected node`);
  }
  return { ready: reasons.length === 0, reasons };
}
