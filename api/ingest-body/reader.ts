/**
 * An ingest body read whole, ready to store (pure: text in, text out), so that a thread other than the API's can do
 * it (threads.ts): the strict JSON read, the check, the names in NFC, each document's status series JSON and
 * hash. The API's thread then parses only what it stores row by row: the documents without their status series (the
 * largest part: about 2.6 of a YCSB document's 4.5 KB, and the costliest to write again as JSON).
 *
 * Anything but a body that passes every check is left to the API's thread (`null`), which reads it as before and
 * answers with the same errors: this reader never decides an error, only the happy path.
 */

import { keysArePlain, normalizeIdentifiers } from "../../model/identifiers.js";
import type { ResultDocument } from "../../model/result-document.js";
import { repeatsKey } from "../json-strict.js";
import { documentHash, statusSeriesJson } from "../store/document-hash.js";
import { checkResultsBody } from "./check.js";

/** A body read and checked: the documents without their series (same shape: one document or an array), and theirs. */
export interface ReadBody {
  /** JSON of the body in NFC with every document's `result.statusSeries` left out. */
  withoutSeries: string;
  seriesJson: string[];
  hashes: string[];
  /** Document i's keys are all printable ASCII (the check walked them): its copy without series need not be walked again. */
  keysPlain: boolean[];
}

/**
 * What the API's thread must read itself: text that names a prototype (Fastify's parser refuses `__proto__` and
 * `constructor.prototype`, spelt with any escapes: every escape of those ASCII names starts `\u00`), or an empty body.
 */
const leftToTheApi = (text: string) =>
  text.length === 0 || text.includes("__proto__") || text.includes("constructor") || text.includes("\\u00");

export function readResultsBody(text: string): ReadBody | null {
  if (leftToTheApi(text)) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (value === null || typeof value !== "object" || repeatsKey(text, value)) return null;
  if (checkResultsBody(value).length > 0) return null;
  const given = (Array.isArray(value) ? value : [value]) as ResultDocument[];
  const keysPlain = given.map(keysArePlain);
  const docs = given.map(normalizeIdentifiers);
  const seriesJson = docs.map(statusSeriesJson);
  const hashes = docs.map((d, i) => documentHash(d, seriesJson[i]));
  const withoutSeries = docs.map((d) => ({ ...d, result: { ...d.result, statusSeries: undefined } }));
  return {
    withoutSeries: JSON.stringify(Array.isArray(value) ? withoutSeries : withoutSeries[0]),
    seriesJson,
    hashes,
    keysPlain,
  };
}
