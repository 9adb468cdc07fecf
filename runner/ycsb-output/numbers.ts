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
