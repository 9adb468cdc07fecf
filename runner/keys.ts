/**
 * Object keys of one run in the results store, as the runner uses them: the one layout is model/results-layout.ts
 * (barriers included, since the IAM policies name what each client may write).
 */
export {
  barrierDir,
  barrierKey,
  capacityDecisionKey,
  clientDir,
  hdrLogKey,
  manifestKey,
  planKey,
  resultKey,
  runPrefix,
  stderrKey,
  stdoutKey,
} from "../model/results-layout.js";
