import type { Engine } from "./engine.js";

/**
 * What "wait for the database to finish rebalancing" after a load (seed 002, method step 2) means per engine, as a
 * settle phase's actions report it. Data moves between nodes after a load only where the engine moves it itself.
 */
export const REBALANCE_AFTER_LOAD: Record<Engine, { moves: boolean; note: string }> = {
  // Token ranges are fixed when the ring forms (Cassandra docs, "Data distribution"); a load streams nothing.
  cassandra: { moves: false, note: "cassandra moves no token range after a load: nothing to rebalance" },
  // vBuckets move only in a rebalance a topology change starts (Couchbase docs, "Rebalance").
  couchbase: { moves: false, note: "couchbase moves no vBucket after a load: nothing to rebalance" },
  // HBase splits and balances regions on its own; the runner does not ask the master yet.
  hbase: { moves: true, note: "hbase may still split and move regions: its balancer is not queried" },
  // The balancer migrates chunks after a load (MongoDB docs, "Sharded Cluster Balancer"): the settle polls
  // balancerCollectionStatus until usertable is compliant (runner/mongodb-balancer.ts).
  mongodb: { moves: true, note: "mongodb's balancer may still move chunks: waits until it reports usertable balanced" },
};

/** The line a settle phase adds for a rebalance wait. */
export function rebalanceNote(engine: Engine): string {
  return `rebalance wait: ${REBALANCE_AFTER_LOAD[engine].note}`;
}
