import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { documentHash, statusSeriesJson } from "../../api/store/document-hash.js";
import type { ResultDocument } from "../../model/result-document.js";
import { fixtureDocument } from "./api-helpers.js";

/** The canonical JSON as stored hashes were made: a copy of every object with its keys sorted, then JSON.stringify. */
function sortedCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedCopy);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) out[k] = sortedCopy((value as Record<string, unknown>)[k]);
  return out;
}
const storedHash = (doc: unknown) =>
  createHash("sha256")
    .update(JSON.stringify(sortedCopy(doc)))
    .digest("hex");

/** The same content with every object's keys in reverse order. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reversed(v)]),
  );
}

// Ingest hashes every document it stores (api/store/ingest.ts); a re-sent document is a duplicate only if its hash is
// the stored one, so a faster hash must write exactly the text the stored hashes were made of.
describe("a document's hash (api/store/document-hash.ts)", () => {
  const docs = [
    fixtureDocument({ runId: "h", client: 0 }),
    fixtureDocument({ runId: "h", client: 1, variant: "hdr-v2" }),
  ];

  test("is the hash of its sorted copy's JSON, whatever the order its keys came in", () => {
    for (const doc of docs) {
      expect(documentHash(doc)).toBe(storedHash(doc));
      expect(documentHash(reversed(doc) as ResultDocument)).toBe(storedHash(doc));
      // As ingest hashes it: the status series written once, for the hash and for its stored row.
      expect(documentHash(doc, statusSeriesJson(doc))).toBe(storedHash(doc));
      expect(JSON.parse(statusSeriesJson(doc))).toEqual(doc.result.statusSeries);
    }
  });

  test("objects already in order, numeric keys and keys in any order inside arrays hash as their sorted copy", () => {
    const doc = structuredClone(docs[0]!) as unknown as Record<string, unknown>;
    Object.assign(doc, {
      z: { "100": 1, "95": 2, "99.9": 3, a: 4 },
      y: [{ b: 1, a: [{ d: 1, c: 2 }] }, 3, "x"],
      a: { b: { d: 1, c: 2 } },
    });
    expect(documentHash(doc as unknown as ResultDocument)).toBe(storedHash(doc));
    const typed = doc as unknown as ResultDocument;
    expect(documentHash(typed, statusSeriesJson(typed))).toBe(storedHash(doc));
    // An index key at the top (written first by JSON.stringify) takes the general path, to the same text.
    const indexed = { ...doc, 7: "x", result: { ...typed.result, 0: 1 } };
    expect(documentHash(indexed as unknown as ResultDocument, statusSeriesJson(typed))).toBe(storedHash(indexed));
    expect(documentHash(docs[0]!)).not.toBe(documentHash(docs[1]!));
  });

  test("a document holding the series' slot text, or no series, hashes as its sorted copy", () => {
    const slot = "\u0000statusSeries\u0000";
    const holding = { ...docs[0]!, run: { ...docs[0]!.run, scenario: slot }, [slot]: 1 };
    expect(documentHash(holding, statusSeriesJson(holding))).toBe(storedHash(holding));
    const without = { ...docs[0]!, result: { ...docs[0]!.result, statusSeries: undefined } };
    expect(documentHash(without as unknown as ResultDocument, "null")).toBe(storedHash(without));
  });

  test("leaves the document as it was", () => {
    const doc = structuredClone(docs[0]!);
    documentHash(doc);
    expect(JSON.stringify(doc)).toBe(JSON.stringify(docs[0]));
  });
});
