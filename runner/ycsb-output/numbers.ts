/**
 * Number parsing that never turns a missing or broken value into 0 (`Number("")` is 0 in JS).
 * Returns undefined for anything that is not a finite decimal number.
 */
export function toNumber(text: string): number | undefined {
  if (text.length === 0) return undefined;
  const c = text.charCodeAt(0);
  // A number starts with a digit, a sign or a dot; this also rejects " ", "NaN", "Infinity" and "∞".
  if (!((c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/** A non-negative integer (counts, Return= numbers), or undefined. */
export function toCount(text: string): number | undefined {
  const value = toNumber(text);
  return value !== undefined && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/**
 * The key of a percentile line as a printed number: "95thPercentileLatency(us)" -> "95",
 * "99.9PercentileLatency(us)" -> "99.9", "1stPercentileLatency(us)" -> "1"; undefined if not one.
 */
export function percentileKey(name: string): string | undefined {
  const end = name.indexOf("PercentileLatency(us)");
  if (end <= 0 || end + 21 !== name.length) return undefined;
  let stop = end;
  // YCSB writes integer percentiles with an English ordinal suffix (OneMeasurementHdrHistogram.ordinal).
  const suffix = name.slice(end - 2, end);
  if (suffix === "th" || suffix === "st" || suffix === "nd" || suffix === "rd") stop = end - 2;
  const key = name.slice(0, stop);
  return toNumber(key) !== undefined && key.charCodeAt(0) !== 45 ? key : undefined;
}

/**
 * A decimal number read straight from `text[from, to)` without slicing (the status-line hot path):
 * digits with an optional sign and fraction; anything else (exponent, NaN, ∞) goes through toNumber.
 */
export function numberAt(text: string, from: number, to: number): number | undefined {
  if (to <= from || to - from > 15) return toNumber(text.slice(from, to));
  let i = from;
  const negative = text.charCodeAt(i) === 45;
  if (negative) i++;
  let n = 0;
  let digits = 0;
  for (; i < to; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) break;
    n = n * 10 + c;
    digits++;
  }
  if (i < to && text.charCodeAt(i) === 46) {
    let scale = 1;
    for (i++; i < to; i++) {
      const c = text.charCodeAt(i) - 48;
      if (c < 0 || c > 9) break;
      n = n * 10 + c;
      scale *= 10;
      digits++;
    }
    // One division of two exact integers (<= 15 digits) is correctly rounded: the same double as Number().
    if (scale !== 1) n /= scale;
  }
  if (digits === 0) return undefined;
  // Only an exponent ("1.0E7", Java's Double.toString for large values) needs the general parser.
  if (i !== to) return text.charCodeAt(i) === 69 || text.charCodeAt(i) === 101 ? toNumber(text.slice(from, to)) : undefined;
  return negative ? -n : n;
}
