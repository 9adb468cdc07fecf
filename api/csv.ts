import { csvRecords } from "../model/csv.js";

/** CSV (RFC 4180) of flat rows; the header is the union of the rows' keys in first-seen order (model/csv.ts). */
export const toCsv = csvRecords;

/** Flattens nested objects into dotted keys: {a: {b: 1}} -> {"a.b": 1}; arrays stay JSON. */
export function flatten(obj: Record<string, unknown>, prefix = ""): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object" && !Array.isArray(v)) Object.assign(out, flatten(v as Record<string, unknown>, key));
    else out[key] = v;
  }
  return out;
}
