export { clientHistograms } from "./client-histograms.js";
export { HdrLogError } from "./errors.js";
export { checkHistogram, createHistogram, decodeHistogram, encodeHistogram, sameLayout } from "./histogram.js";
export { countsArrayLength, HISTOGRAM_BOUNDS, layoutProblem } from "./histogram-bounds.js";
export { type HdrIntervalLine, type HdrLogText, parseHdrLogText } from "./log-text.js";
export {
  DEFAULT_PERCENTILES,
  type HdrLogInput,
  type HdrLogSummary,
  type HdrMergeOptions,
  type HdrMergeResult,
  HdrMerger,
  latencyOf,
  mergeHdrLogs,
  type OperationLatency,
  percentileKey,
} from "./merge.js";
export {
  addPayloadCounts,
  type CountsSink,
  type HdrEncoding,
  HdrPayloadError,
  type HdrPayloadHeader,
  type InflatedPayload,
  inflatePayload,
} from "./payload.js";
