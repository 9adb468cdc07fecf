/** Where a run's objects live in the results bucket, and the SSM path of its secrets: one place for every key. */
export interface RunLayout {
  /** Every object of the run is under this prefix (the client role may only write here). */
  resultsPrefix: string;
  /** The plan the runner executes. */
  planKey: string;
  /** Where the cluster is: engine, endpoints, readiness marker key (written by infra, read by the runner). */
  clusterInfoKey: string;
  /** The leader data node writes this once the cluster is formed: the runner's readiness signal. */
  readyMarkerKey: string;
  /** Data nodes may write only here. */
  clusterPrefix: string;
  /** SSM parameter path of the run's secrets (e.g. the Couchbase admin password). */
  parameterPath: string;
}

export function runLayout(runId: string): RunLayout {
  const resultsPrefix = `runs/${runId}/`;
  return {
    resultsPrefix,
    planKey: `${resultsPrefix}plan.json`,
    clusterInfoKey: `${resultsPrefix}cluster.json`,
    readyMarkerKey: `${resultsPrefix}cluster/ready.json`,
    clusterPrefix: `${resultsPrefix}cluster/`,
    parameterPath: `/ycsb-lab/${runId}/`,
  };
}
