import { runPrefix } from "../model/results-layout.js";

/**
 * Object keys of one run in the results store. The result layout (runs/<runId>/phases/<index>-<name>/client-<i>/...)
 * is model/results-layout.ts; this module adds only what the runner alone reads: barriers and the plan.
 */
export { clientDir, hdrLogKey, manifestKey, planKey, resultKey, runPrefix, stderrKey, stdoutKey } from "../model/results-layout.js";

/** One object per client per barrier: runs/<runId>/barriers/<index>-<name>/client-<i>.json. */
export const barrierDir = (runId: string, index: number, name: string) => `${runPrefix(runId)}barriers/${index}-${name}/`;
export const barrierKey = (runId: string, index: number, name: string, client: number) => `${barrierDir(runId, index, name)}client-${client}.json`;
