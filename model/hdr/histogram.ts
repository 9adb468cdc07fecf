import { encodeIntoCompressedBase64, Float64Histogram, type JsHistogram } from "hdr-histogram-js";
import { countsArrayLength } from "./histogram-bounds.js";
import { addPayloadCounts, type HdrPayloadHeader, inflatePayload } from "./payload.js";

/**
 * An empty auto-resizing histogram with the given layout. 64-bit float counts: exact to 2^53, where a
 * merge of 64 clients x 1 h of recordings (1.27e9) would overflow 32-bit counts in a hot bucket.
 */
export function createHistogram(
  layout: Pick<HdrPayloadHeader, "lowestDiscernibleValue" | "numberOfSignificantValueDigits">,
  highestTrackableValue = 2 * layout.lowestDiscernibleValue,
): JsHistogram {
  const histogram = new Float64Histogram(
    layout.lowestDiscernibleValue,
    highestTrackableValue,
    layout.numberOfSignificantValueDigits,
  );
  histogram.autoResize = true;
  return histogram;
}

/** Decodes one compressed base64 histogram (V1 or V2) into a hdr-histogram-js histogram. */
export function decodeHistogram(base64: string): JsHistogram {
  const payload = inflatePayload(base64);
  const histogram = createHistogram(payload, payload.highestTrackableValue);
  addPayloadCounts(payload, histogram);
  histogram.establishInternalTackingValues();
  return histogram;
}

/** Same lowest value and significant digits: the counts arrays index the same value ranges. */
export function sameLayout(a: HdrPayloadHeader | JsHistogram, b: HdrPayloadHeader | JsHistogram): boolean {
  return (
    a.lowestDiscernibleValue === b.lowestDiscernibleValue &&
    a.numberOfSignificantValueDigits === b.numberOfSignificantValueDigits
  );
}

/** A histogram as one compressed base64 payload (V2, as HistogramLogWriter writes interval payloads); decodeHistogram reads it. */
export function encodeHistogram(h: JsHistogram): string {
  return encodeIntoCompressedBase64(h);
}

/**
 * Checks that an encoded histogram decodes, without building it: inflate (bounded), header and layout (bounded),
 * every count inside the counts array. Returns the inflated size, so a caller can bound a whole request's work.
 * Throws HdrPayloadError naming the problem.
 */
export function checkHistogram(base64: string): { inflatedBytes: number; totalCount: number } {
  const payload = inflatePayload(base64);
  const totalCount = addPayloadCounts(payload, {
    countsArrayLength: countsArrayLength(payload),
    addToCountAtIndex: () => {},
  });
  return { inflatedBytes: payload.bytes.length, totalCount };
}

/** Decodes one compressed base64 histogram and says how large it inflated (to bound a request's work): one inflate. */
export function decodeHistogramMeasured(base64: string): { histogram: JsHistogram; inflatedBytes: number } {
  const payload = inflatePayload(base64);
  const histogram = createHistogram(payload, payload.highestTrackableValue);
  addPayloadCounts(payload, histogram);
  histogram.establishInternalTackingValues();
  return { histogram, inflatedBytes: payload.bytes.length };
}

/** The values recorded at these ranks (1-based, ascending order of rank): one pass over the counts. */
export function valuesAtRanks(h: JsHistogram, ranks: readonly number[]): number[] {
  const order = ranks.map((r, i) => ({ r, i })).sort((a, b) => a.r - b.r);
  const out = new Array<number>(ranks.length).fill(h.maxValue);
  let k = 0;
  let cumulative = 0;
  for (let i = 0; i < h.countsArrayLength && k < order.length; i++) {
    cumulative += h.getCountAtIndex(i);
    while (k < order.length && cumulative >= order[k]!.r) out[order[k++]!.i] = h.valueFromIndex(i);
  }
  return out;
}
