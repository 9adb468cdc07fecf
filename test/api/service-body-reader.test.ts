import { describe, expect, test } from "vitest";
import { checkResultsBody } from "../../api/ingest-body/check.js";
import { readResultsBody } from "../../api/ingest-body/reader.js";
import { documentHash, statusSeriesJson } from "../../api/store/document-hash.js";
import { normalizeIdentifiers } from "../../model/identifiers.js";
import type { ResultDocument } from "../../model/result-document.js";
import { fixtureDocument } from "./api-helpers.js";

const batch = Array.from({ length: 6 }, (_, i) =>
  fixtureDocument({ runId: `reader-${i >> 1}`, client: (i % 2) as 0 | 1, clients: 2 }),
);
const withoutSeries = (d: ResultDocument) => {
  const { statusSeries: _, ...result } = d.result;
  return { ...d, result };
};

// The ingest route reads large bodies on another thread (api/ingest-body/threads.ts): what that thread hands back must be what the
// API's thread would have computed from the same text, and anything it does not accept is left to the API's thread,
// whose strict reading and check answer with their own errors.
describe("an ingest body read off the API's thread (api/ingest-body/reader.ts)", () => {
  test("gives each document's series JSON and hash as ingest computes them, and the documents without their series", () => {
    const read = readResultsBody(JSON.stringify(batch));
    expect(read).not.toBeNull();
    expect(read!.seriesJson).toEqual(batch.map(statusSeriesJson));
    expect(read!.hashes).toEqual(batch.map((d) => documentHash(d)));
    expect(JSON.parse(read!.withoutSeries)).toEqual(batch.map(withoutSeries));
  });

  test("keeps a single document a single document", () => {
    const read = readResultsBody(JSON.stringify(batch[0]));
    expect(JSON.parse(read!.withoutSeries)).toEqual(withoutSeries(batch[0]!));
    expect(read!.hashes).toEqual([documentHash(batch[0]!)]);
  });

  test("puts names in NFC before it hashes, as ingest does", () => {
    const nfd = fixtureDocument({ runId: "reader-nfd", client: 0, phaseName: "cafe\u0301-t4" });
    const nfc = normalizeIdentifiers(structuredClone(nfd));
    expect(nfc.phase.name).toBe("caf\u00e9-t4");
    const read = readResultsBody(JSON.stringify([nfd]));
    expect(read!.hashes).toEqual([documentHash(nfc)]);
    expect(JSON.parse(read!.withoutSeries)[0].phase.name).toBe("caf\u00e9-t4");
  });

  const text = JSON.stringify(batch);
  const bad = {
    "an empty body": "",
    "text that is not JSON": `${text.slice(0, -1)}`,
    "a byte order mark before the JSON": `\ufeff${text}`,
    "a repeated key": text.replace('"schemaVersion":1,', '"schemaVersion":1,"schemaVersion":1,'),
    "a __proto__ key": text.replace('"schemaVersion":1,', '"__proto__":{"x":1},"schemaVersion":1,'),
    "a __proto__ key spelt with escapes": text.replace(
      '"schemaVersion":1,',
      '"\\u005f_proto__":{"x":1},"schemaVersion":1,',
    ),
    "a constructor key": text.replace('"schemaVersion":1,', '"constructor":{"prototype":{"x":1}},"schemaVersion":1,'),
    "JSON null": "null",
    "a number": "42",
    "a document that fails the check": text.replace('"nodes":3', '"nodes":-3'),
    "an empty batch": "[]",
  };
  test.each(Object.entries(bad))("leaves %s to the API's thread", (_, body) => {
    expect(readResultsBody(body)).toBeNull();
  });

  test("the failing document above does fail the check (so the case tests the check, not the parse)", () => {
    expect(checkResultsBody(JSON.parse(bad["a document that fails the check"]))).not.toEqual([]);
    expect(text.includes('"nodes":3')).toBe(true);
  });
});
