export { HdrLogError } from "./errors.js";
export { parseHdrLogText, type HdrIntervalLine, type HdrLogText } from "./log-text.js";
export {
  addPayloadCounts,
  HdrPayloadError,
  inflatePayload,
  type CountsSink,
  type HdrEncoding,
  type HdrPayloadHeader,
  type InflatedPayload,
} from "./payload.js";
export { checkHistogram, createHistogram, decodeHistogram, encodeHistogram, sameLayout } from "./histogram.js";
export { countsArrayLength, HISTOGRAM_BOUNDS, layoutProblem } from "./histogram-bounds.js";
export { clientHistograms } from "./client-histograms.js";
export {
  DEFAULT_PERCENTILES,
  HdrMerger,
  latencyOf,
  mergeHdrLogs,
  percentileKey,
  type HdrLogInput,
  type HdrLogSummary,
  type HdrMergeOptions,
  type HdrMergeResult,
  type OperationLatency,
} from "./merge.js";
