import { Buffer } from "node:buffer";
import { inflateSync } from "node:zlib";
import { HISTOGRAM_BOUNDS, type HistogramLayout, layoutProblem } from "./histogram-bounds.js";

// Cookies from HdrHistogram's AbstractHistogram (Java): the low nibble names the format, bits 4-7 the word size.
const V1_ENCODING = 0x1c849301;
const V1_COMPRESSED = 0x1c849302; // HdrHistogram 2.1.0-2.1.4, which YCSB 0.17.0 pulls
const V2_ENCODING = 0x1c849303;
const V2_COMPRESSED = 0x1c849304; // HdrHistogram 2.1.5+
const V0_ENCODING = 0x1c849308;
const V0_COMPRESSED = 0x1c849309;
/** cookie, payload length, normalizing index offset, significant digits, lowest, highest, int-to-double ratio. */
const HEADER_BYTES = 40;

const cookieBase = (cookie: number) => (cookie & ~0xf0) >>> 0;
const hex = (n: number) => `0x${(n >>> 0).toString(16).padStart(8, "0")}`;

/** A payload that cannot be decoded; the log reader adds the file and line. */
export class HdrPayloadError extends Error {}

export type HdrEncoding = "V1" | "V2";

export interface HdrPayloadHeader extends HistogramLayout {
  encoding: HdrEncoding;
}

/** The inflated payload: the header and where the counts lie in `bytes`. */
export interface InflatedPayload extends HdrPayloadHeader {
  bytes: Uint8Array;
  countsStart: number;
  countsEnd: number;
  /** V1 only: bytes per count word (2, 4 or 8). */
  wordSizeInBytes: number;
}

/** Anything with a counts array addressed like HdrHistogram's (a hdr-histogram-js JsHistogram is one). */
export interface CountsSink {
  countsArrayLength: number;
  addToCountAtIndex(index: number, count: number): void;
}

function readInt64(view: DataView, at: number, what: string): number {
  const hi = view.getInt32(at);
  const lo = view.getUint32(at + 4);
  const value = hi * 2 ** 32 + lo;
  if (!Number.isSafeInteger(value)) throw new HdrPayloadError(`${what} ${value} is not a safe integer`);
  return value;
}

/** Base64 -> compressed envelope -> inflated V1 or V2 histogram encoding, header checked. */
export function inflatePayload(base64: string): InflatedPayload {
  const outer = Buffer.from(base64, "base64");
  // Buffer.from skips characters outside the alphabet: a short result means the field is not base64
  // (cheaper than a regular expression over every line).
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  if (base64.length % 4 !== 0 || outer.length !== (base64.length / 4) * 3 - padding) {
    throw new HdrPayloadError(
      base64.length % 4 !== 0
        ? `base64 truncated (${base64.length} characters, not a multiple of 4)`
        : "histogram field is not base64",
    );
  }
  if (outer.length < 8) throw new HdrPayloadError(`base64 truncated (${outer.length} bytes, need at least 8)`);
  const outerCookie = outer.readUInt32BE(0);
  const base = cookieBase(outerCookie);
  if (base !== V1_COMPRESSED && base !== V2_COMPRESSED) {
    if (base === V0_COMPRESSED || base === V0_ENCODING) {
      throw new HdrPayloadError(`bad cookie ${hex(outerCookie)}: V0 encoding (HdrHistogram < 2.1.0) is not supported`);
    }
    if (base === V1_ENCODING || base === V2_ENCODING) {
      throw new HdrPayloadError(`bad cookie ${hex(outerCookie)}: uncompressed histogram, log lines are compressed`);
    }
    throw new HdrPayloadError(
      `bad cookie ${hex(outerCookie)}: expected a compressed histogram (V1 ${hex(V1_COMPRESSED)} or V2 ${hex(V2_COMPRESSED)})`,
    );
  }
  const compressedLength = outer.readInt32BE(4);
  if (compressedLength < 0 || outer.length < 8 + compressedLength) {
    throw new HdrPayloadError(
      `base64 truncated (compressed length says ${compressedLength} bytes, ${outer.length - 8} present)`,
    );
  }
  let bytes: Buffer;
  try {
    // Bounded: a few KB of zlib may inflate to gigabytes; no legitimate histogram is larger than its bucket bound.
    bytes = inflateSync(outer.subarray(8, 8 + compressedLength), {
      maxOutputLength: HISTOGRAM_BOUNDS.maxInflatedBytes,
    });
  } catch (err) {
    if ((err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE")
      throw new HdrPayloadError(
        `compressed histogram inflates to more than ${HISTOGRAM_BOUNDS.maxInflatedBytes} bytes`,
      );
    throw new HdrPayloadError(`compressed histogram does not inflate: ${(err as Error).message}`);
  }
  if (bytes.length < HEADER_BYTES) throw new HdrPayloadError(`inflated histogram truncated (${bytes.length} bytes)`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const cookie = view.getUint32(0);
  const expected = base === V1_COMPRESSED ? V1_ENCODING : V2_ENCODING;
  if (cookieBase(cookie) !== expected) {
    throw new HdrPayloadError(`bad cookie ${hex(cookie)} inside ${base === V1_COMPRESSED ? "V1" : "V2"} envelope`);
  }
  const encoding: HdrEncoding = base === V1_COMPRESSED ? "V1" : "V2";
  const wordSizeInBytes = encoding === "V2" ? 9 : ((cookie & 0xf0) >> 4) & 0xe;
  if (encoding === "V1" && wordSizeInBytes !== 2 && wordSizeInBytes !== 4 && wordSizeInBytes !== 8) {
    throw new HdrPayloadError(`bad cookie ${hex(cookie)}: V1 word size ${wordSizeInBytes}`);
  }
  const payloadLength = view.getInt32(4);
  // Offset 8 is normalizingIndexOffset: encoders write counts in logical index order (Java's getCountAtIndex
  // normalizes), so it does not move any count; hdr-histogram-js even writes 1 there. Not needed here.
  const numberOfSignificantValueDigits = view.getInt32(12);
  const lowestDiscernibleValue = readInt64(view, 16, "lowestDiscernibleValue");
  const highestTrackableValue = readInt64(view, 24, "highestTrackableValue");
  if (payloadLength < 0 || bytes.length < HEADER_BYTES + payloadLength) {
    throw new HdrPayloadError(
      `inflated histogram truncated (payload length says ${payloadLength} bytes, ${bytes.length - HEADER_BYTES} present)`,
    );
  }
  if (numberOfSignificantValueDigits < 0 || numberOfSignificantValueDigits > 5) {
    throw new HdrPayloadError(`numberOfSignificantValueDigits ${numberOfSignificantValueDigits} outside 0..5`);
  }
  if (lowestDiscernibleValue < 1 || highestTrackableValue < 2 * lowestDiscernibleValue) {
    throw new HdrPayloadError(`bad range: lowest ${lowestDiscernibleValue}, highest ${highestTrackableValue}`);
  }
  const tooLarge = layoutProblem({ lowestDiscernibleValue, highestTrackableValue, numberOfSignificantValueDigits });
  if (tooLarge) throw new HdrPayloadError(tooLarge);
  if (encoding === "V1" && payloadLength % wordSizeInBytes !== 0) {
    throw new HdrPayloadError(`V1 payload of ${payloadLength} bytes is not whole ${wordSizeInBytes}-byte words`);
  }
  return {
    encoding,
    numberOfSignificantValueDigits,
    lowestDiscernibleValue,
    highestTrackableValue,
    bytes,
    countsStart: HEADER_BYTES,
    countsEnd: HEADER_BYTES + payloadLength,
    wordSizeInBytes,
  };
}

/**
 * Adds the payload's counts to `sink` at the same counts-array indexes (the caller makes sure the sink
 * has the payload's lowest value and significant digits, so an index means the same value range).
 * Returns the total count added.
 */
export function addPayloadCounts(payload: InflatedPayload, sink: CountsSink): number {
  return payload.encoding === "V2" ? addV2Counts(payload, sink) : addV1Counts(payload, sink);
}

function outOfRange(index: number, length: number): HdrPayloadError {
  return new HdrPayloadError(`count at index ${index} beyond the histogram's ${length} buckets`);
}

/** V1: plain big-endian words, one per counts-array index. */
function addV1Counts(p: InflatedPayload, sink: CountsSink): number {
  const view = new DataView(p.bytes.buffer, p.bytes.byteOffset, p.bytes.byteLength);
  const word = p.wordSizeInBytes;
  const limit = sink.countsArrayLength;
  let total = 0;
  let index = 0;
  for (let at = p.countsStart; at < p.countsEnd; at += word, index++) {
    let count: number;
    if (word === 8) {
      const hi = view.getInt32(at);
      const lo = view.getUint32(at + 4);
      if (hi === 0 && lo === 0) continue;
      count = hi * 2 ** 32 + lo;
    } else {
      count = word === 4 ? view.getInt32(at) : view.getInt16(at);
      if (count === 0) continue;
    }
    if (count < 0 || !Number.isSafeInteger(count)) throw new HdrPayloadError(`bad count ${count} at index ${index}`);
    if (index >= limit) throw outOfRange(index, limit);
    sink.addToCountAtIndex(index, count);
    total += count;
  }
  return total;
}

/** V2: ZigZag LEB128-64b9B words; a negative word is a run of that many zero counts. */
function addV2Counts(p: InflatedPayload, sink: CountsSink): number {
  const b = p.bytes;
  const end = p.countsEnd;
  const limit = sink.countsArrayLength;
  let pos = p.countsStart;
  let index = 0;
  let total = 0;
  while (pos < end) {
    // Up to 4 bytes (28 bits) in int32 arithmetic; longer words (counts >= 2^27) in float arithmetic.
    let byte = b[pos++]!;
    let raw = byte & 0x7f;
    let big = -1;
    if (byte & 0x80) {
      byte = b[pos++]!;
      raw |= (byte & 0x7f) << 7;
      if (byte & 0x80) {
        byte = b[pos++]!;
        raw |= (byte & 0x7f) << 14;
        if (byte & 0x80) {
          byte = b[pos++]!;
          raw |= (byte & 0x7f) << 21;
          if (byte & 0x80) {
            // Bytes 5-9 (the 9th carries 8 bits): float arithmetic, exact below 2^53.
            big = raw;
            let scale = 2 ** 28;
            for (let i = 4; ; i++) {
              byte = b[pos++]!;
              if (i === 8) {
                big += byte * scale;
                break;
              }
              big += (byte & 0x7f) * scale;
              scale *= 128;
              if (!(byte & 0x80)) break;
            }
          }
        }
      }
    }
    if (pos > end) throw new HdrPayloadError("V2 payload truncated inside a count");
    if (big >= 0 && !Number.isSafeInteger(big)) throw new HdrPayloadError(`V2 count word ${big} is not a safe integer`);
    // ZigZag: even -> non-negative count, odd -> negative (a run of zeros).
    let value: number;
    if (big >= 0) value = big % 2 === 0 ? big / 2 : -(big + 1) / 2;
    else value = (raw >>> 1) ^ -(raw & 1);
    if (value < 0) {
      index -= value;
    } else {
      if (value !== 0) {
        if (index >= limit) throw outOfRange(index, limit);
        sink.addToCountAtIndex(index, value);
        total += value;
      }
      index++;
    }
  }
  return total;
}
