import {
  artifactsPrefix,
  clusterKey,
  clusterPrefix,
  planKey,
  readyMarkerKey,
  runPrefix,
  statusPrefix,
} from "../model/results-layout.js";

/**
 * Where a run's objects live in the results bucket and the SSM path of its secrets, as infra needs them for IAM
 * and uploads. The keys themselves are model/results-layout.ts's (the one layout the runner and the API use too).
 */
export interface RunLayout {
  /** Every object of the run is under this prefix (the client role may only write here). */
  resultsPrefix: string;
  planKey: string;
  clusterInfoKey: string;
  readyMarkerKey: string;
  /** Data nodes may write only here and under their own status keys. */
  clusterPrefix: string;
  statusPrefix: string;
  /** SSM parameter path of the run's secrets (e.g. the Couchbase admin password). */
  parameterPath: string;
  /** The run's mirror of engine downloads (artifacts/<runId>/): its data nodes' only, never shared across runs. */
  artifactsPrefix: string;
}

export function runLayout(runId: string): RunLayout {
  return {
    resultsPrefix: runPrefix(runId),
    planKey: planKey(runId),
    clusterInfoKey: clusterKey(runId),
    readyMarkerKey: readyMarkerKey(runId),
    clusterPrefix: clusterPrefix(runId),
    statusPrefix: statusPrefix(runId),
    parameterPath: `/ycsb-lab/${runId}/`,
    artifactsPrefix: artifactsPrefix(runId),
  };
}
