/** A stored document's hash: one per content whatever the sender's key order, so a resent document is a duplicate. */
import { createHash } from "node:crypto";
import type { ResultDocument } from "../../model/result-document.js";

/** The same value with every object's keys in sorted order (arrays of plain values are shared, not copied). */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.some((v) => v !== null && typeof v === "object") ? value.map(sortedKeys) : value;
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) out[k] = sortedKeys((value as Record<string, unknown>)[k]);
  return out;
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
