import { LIMITS } from "../../model/result-limits.js";

/**
 * Reading what the store holds as the contract's values (DESIGN.md: a stored value can never make a view fail). The
 * store may hold rows written before the contract had its ranges, by hand, or by a bug: a number outside the
 * contract's range (NaN, Infinity, 1e308, a count past 2^53) reads as unknown (null), a JSON column of the wrong
 * shape reads as empty. The same LIMITS bound writes (model/result-limits.ts): one range per fact.
 */

/** A finite number within [min, max], else null. bigint counts are read as numbers when exact. */
export function storedNumber(value: unknown, max: number, min = 0): number | null {
  const n = typeof value === "bigint" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) && n >= min && n <= max ? n : null;
}

export const storedLatency = (value: unknown) => storedNumber(value, LIMITS.latencyUs);
export const storedCount = (value: unknown) => {
  const n = storedNumber(value, LIMITS.count);
  return n !== null && Number.isInteger(n) ? n : null;
};
export const storedThroughput = (value: unknown) => storedNumber(value, LIMITS.throughputOpsSec);
export const storedRuntime = (value: unknown) => storedNumber(value, LIMITS.runtimeMs);
/** A phase's throughput summed over its clients: each within the contract's per-client bound. */
export const storedPhaseThroughput = (value: unknown) => storedNumber(value, LIMITS.throughputOpsSec * LIMITS.clients);

/** A JSON object (not an array, not null), else null. */
export function storedObject(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** Percentiles keyed as YCSB prints them ("99.9"): entries with a percentile key and a latency value, the rest dropped. */
export function storedPercentiles(value: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  const o = storedObject(value);
  // Read for every client operation group of a view (tens of thousands): a plain loop, keys judged once each.
  for (const k in o) {
    const us = o[k];
    if (typeof us === "number" && us >= 0 && us <= LIMITS.latencyUs && percentileKey(k)) out[k] = us;
  }
  return out;
}

const percentileKeys = new Map<string, boolean>();
function percentileKey(k: string): boolean {
  let ok = percentileKeys.get(k);
  if (ok === undefined) {
    const p = Number(k);
    ok = k !== "" && p > 0 && p <= 100;
    if (percentileKeys.size < 1_000) percentileKeys.set(k, ok);
  }
  return ok;
}

/** YCSB's histogram buckets: a list of {bucket, count}, else null. */
export function storedBuckets(value: unknown): { bucket: string; count: number }[] | null {
  if (!Array.isArray(value)) return null;
  const out: { bucket: string; count: number }[] = [];
  for (const b of value) {
    const o = storedObject(b);
    const count = storedCount(o?.count);
    if (o && typeof o.bucket === "string" && count !== null) out.push({ bucket: o.bucket, count });
  }
  return out;
}

/** A validity verdict as one of the contract's three; anything else is "invalid" (a view cannot vouch for it). */
export function storedVerdict(value: unknown): "valid" | "warning" | "invalid" {
  return value === "valid" || value === "warning" ? value : "invalid";
}

/** Reasons' messages: strings of {code, message} entries; anything else reads as its JSON text. */
export function storedReasons(value: unknown): string[] {
  if (!Array.isArray(value)) return value === null || value === undefined ? [] : [JSON.stringify(value)];
  return value.map((x) => {
    const message = storedObject(x)?.message;
    return typeof message === "string" ? message : JSON.stringify(x);
  });
}

/** A column of numbers (or null where a line printed none); a column of another shape reads as empty. */
export function storedColumn(value: unknown, max: number): (number | null)[] {
  return Array.isArray(value) ? value.map((v) => storedNumber(v, max)) : [];
}
