/** A stored document's hash: one per content whatever the sender's key order, so a resent document is a duplicate. */
import { createHash } from "node:crypto";
import type { ResultDocument } from "../../model/result-document.js";

/**
 * The same value with every object's keys in sorted order. An object whose keys are in order already, with nothing
 * below it to reorder, is the value itself (JSON.stringify writes it as a sorted copy would be written): most of a
 * YCSB document's objects (percentiles, return codes, a status series' columns) are not copied.
 */
function sortedKeys(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const x = value[i];
      if (x === null || typeof x !== "object") continue;
      const y = sortedKeys(x);
      if (y !== x) (copy ??= value.slice())[i] = y;
    }
    return copy ?? value;
  }
  const v = value as Record<string, unknown>;
  const keys = Object.keys(v);
  let ordered = true;
  for (let i = 1; i < keys.length && ordered; i++) ordered = keys[i - 1]! < keys[i]!;
  if (!ordered) keys.sort();
  let out: Record<string, unknown> | undefined = ordered ? undefined : {};
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const x = v[k];
    const y = x !== null && typeof x === "object" ? sortedKeys(x) : x;
    if (!out && y !== x) {
      out = {};
      for (let j = 0; j < i; j++) out[keys[j]!] = v[keys[j]!];
    }
    if (out) out[k] = y;
  }
  return out ?? value;
}

/** JSON with every object's keys sorted: one text per content, whatever order the sender wrote the keys in. */
const canonicalJson = (value: unknown) => JSON.stringify(sortedKeys(value));

/** sha256 of the document's canonical JSON: the same content is the same hash, whatever its key order. */
export function documentHash(doc: ResultDocument): string {
  return createHash("sha256").update(canonicalJson(doc)).digest("hex");
}

/** The hash stored before hashes were canonical (the JSON as sent): still recognised, so a resent document stays a duplicate. */
export function legacyDocumentHash(doc: ResultDocument): string {
  return createHash("sha256").update(JSON.stringify(doc)).digest("hex");
}
