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
  // Anything but a plain object (a Date, say) is copied as before: JSON.stringify would write it otherwise.
  let ordered = Object.getPrototypeOf(v) === Object.prototype;
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

/** The canonical JSON of a document's status series (its largest part): ingest stores this text as the series' row. */
export const statusSeriesJson = (doc: ResultDocument): string => canonicalJson(doc.result.statusSeries);

/**
 * The status series' place in the document's canonical JSON: a string no stored document holds (U+0000 is refused in
 * every string and key, model/result-checks.ts), written where the series goes and replaced by its text.
 */
const SERIES_SLOT = "\u0000statusSeries\u0000";
const SERIES_SLOT_JSON = JSON.stringify(SERIES_SLOT);

/**
 * The document's canonical JSON with its status series' text given (written once for the hash and the row): the rest
 * in one JSON.stringify, the series' text put in its slot. Any other document (no series object, or a string equal to
 * the slot) is written whole, to the same text.
 */
function documentJson(doc: ResultDocument, seriesJson: string): string {
  const result = (doc as unknown as Record<string, unknown>).result;
  if (result === null || typeof result !== "object" || Array.isArray(result)) return canonicalJson(doc);
  if ((result as Record<string, unknown>).statusSeries === undefined) return canonicalJson(doc);
  const text = canonicalJson({ ...doc, result: { ...result, statusSeries: SERIES_SLOT } });
  const at = text.indexOf(SERIES_SLOT_JSON);
  if (at < 0 || text.includes(SERIES_SLOT_JSON, at + 1)) return canonicalJson(doc);
  return text.slice(0, at) + seriesJson + text.slice(at + SERIES_SLOT_JSON.length);
}

/**
 * sha256 of the document's canonical JSON: the same content is the same hash, whatever its key order. `seriesJson`,
 * when given, is statusSeriesJson(doc), so the series is written once for the hash and for its stored row.
 */
export function documentHash(doc: ResultDocument, seriesJson?: string): string {
  return createHash("sha256")
    .update(seriesJson === undefined ? canonicalJson(doc) : documentJson(doc, seriesJson))
    .digest("hex");
}

/** The hash stored before hashes were canonical (the JSON as sent): still recognised, so a resent document stays a duplicate. */
export function legacyDocumentHash(doc: ResultDocument): string {
  return createHash("sha256").update(JSON.stringify(doc)).digest("hex");
}
