import { encodeHistogram } from "./histogram.js";
import { type HdrLogInput, HdrMerger } from "./merge.js";

/**
 * One client's histogram of each operation over a whole phase, from its YCSB interval logs (every interval
 * counts), encoded for the result document's `hdrHistograms`: the API merges them across clients into the phase's
 * percentiles, whichever way the document arrives (POST /results or the S3 import). Operations that recorded
 * nothing are left out. Throws HdrLogError naming the log and line of a corrupt interval.
 */
export function clientHistograms(logs: readonly Omit<HdrLogInput, "client">[]): Record<string, string> {
  const merger = new HdrMerger();
  for (const log of logs) merger.addLog({ ...log, client: "client" });
  merger.result();
  const out: Record<string, string> = {};
  for (const { operation } of logs) {
    const h = merger.histogram(operation);
    if (h && h.totalCount > 0) out[operation] = encodeHistogram(h);
  }
  return out;
}
