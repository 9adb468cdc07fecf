import { deflateSync } from "node:zlib";
import { Float64Histogram } from "hdr-histogram-js";
import { describe, expect, test } from "vitest";
import {
  checkHistogram,
  clientHistograms,
  countsArrayLength,
  decodeHistogram,
  HISTOGRAM_BOUNDS,
} from "../../model/hdr/index.js";
import { HistogramBudget, isDateTime, validateResultDocument } from "../../model/index.js";
import { fixtureDocument, fixtureHdr, fixtureOutput } from "../api/api-helpers.js";
import { sampleDocument } from "../support/documents.js";

/** A compressed V2 histogram payload as HdrHistogram writes one, with any header and counts bytes. */
function encodedV2(
  header: { digits: number; lowest: number; highest: number },
  counts: Uint8Array = new Uint8Array([2]),
): string {
  const inner = Buffer.alloc(40 + counts.length);
  inner.writeUInt32BE(0x1c849303, 0);
  inner.writeInt32BE(counts.length, 4);
  inner.writeInt32BE(0, 8);
  inner.writeInt32BE(header.digits, 12);
  inner.writeBigInt64BE(BigInt(header.lowest), 16);
  inner.writeBigInt64BE(BigInt(header.highest), 24);
  inner.writeDoubleBE(1, 32);
  Buffer.from(counts).copy(inner, 40);
  return envelope(deflateSync(inner));
}
const envelope = (compressed: Buffer) => {
  const outer = Buffer.alloc(8 + compressed.length);
  outer.writeUInt32BE(0x1c849304, 0);
  outer.writeInt32BE(compressed.length, 4);
  compressed.copy(outer, 8);
  return outer.toString("base64");
};

const problems = (doc: unknown, options = {}) => {
  const r = validateResultDocument(doc, options);
  return r.ok ? [] : r.errors;
};
const paths = (doc: unknown, options = {}) => problems(doc, options).map((e) => e.path);

describe("the contract's ranges and consistency (model/result-checks.ts)", () => {
  test("documents of real YCSB output pass every check", () => {
    for (const variant of ["hdr-v1", "hdr-v2"] as const) {
      for (const client of [0, 1] as const) {
        const doc = {
          ...fixtureDocument({ runId: "real", client, variant }),
          hdrHistograms: clientHistograms(
            ["READ", "UPDATE"].map((operation) => ({ operation, text: fixtureHdr(variant, client, operation) })),
          ),
        };
        expect(problems(doc)).toEqual([]);
      }
    }
    expect(problems(sampleDocument())).toEqual([]);
  });

  test.each([
    [
      "minUs above maxUs",
      (d: any) => (d.result.operations.READ.minUs = d.result.operations.READ.maxUs + 1),
      "/result/operations/READ/minUs",
    ],
    [
      "avgUs above maxUs",
      (d: any) => (d.result.operations.READ.avgUs = d.result.operations.READ.maxUs * 2),
      "/result/operations/READ/avgUs",
    ],
    [
      "p99 below p95",
      (d: any) => (d.result.operations.READ.percentilesUs = { "95": 300, "99": 200 }),
      "/result/operations/READ/percentilesUs/99",
    ],
    [
      "a percentile key that is none",
      (d: any) => (d.result.operations.READ.percentilesUs = { "101": 300 }),
      "/result/operations/READ/percentilesUs/101",
    ],
    [
      "throughput 10x what the operations account for",
      (d: any) => (d.result.overall.throughputOpsSec *= 10),
      "/result/overall/throughputOpsSec",
    ],
    ["finishedAt before startedAt", (d: any) => (d.finishedAt = "2026-11-22T03:00:00.000Z"), "/finishedAt"],
    ["run finished before it started", (d: any) => (d.run.finishedAt = "2026-11-21T00:00:00.000Z"), "/run/finishedAt"],
    ["client index outside 0..count-1", (d: any) => (d.client.index = 5), "/client/index"],
    [
      "client count other than the phase's clients",
      (d: any) => ((d.client.count = 3), (d.phase.clients = 2)),
      "/client/count",
    ],
    [
      "published source",
      (d: any) => (d.run.source = { kind: "published", citation: "Lineate 2014", seed: "002" }),
      "/run/source/kind",
    ],
    ["February 30", (d: any) => (d.startedAt = "2024-02-30T00:00:00Z"), "/startedAt"],
    ["year 0000", (d: any) => (d.run.startedAt = "0000-01-01T00:00:00Z"), "/run/startedAt"],
    ["hour 24", (d: any) => (d.finishedAt = "2026-11-22T24:00:00Z"), "/finishedAt"],
    ["U+0000 in a string", (d: any) => (d.run.scenario = "a\u0000b"), "/run/scenario"],
    ["a lone surrogate", (d: any) => (d.result.warnings = ["x\ud800y"]), "/result/warnings/0"],
    ["U+0000 in a key", (d: any) => (d.phase.properties = { "a\u0000": "1" }), "/phase/properties/a\u0000"],
    [
      "a 1 MB operation name",
      (d: any) => (d.result.operations["R".repeat(1_000_000)] = d.result.operations.READ),
      `/result/operations/${"R".repeat(40)}...`,
    ],
    ["an integer beyond int4", (d: any) => (d.phase.index = 2 ** 31), "/phase/index"],
    ["a count beyond 2^53", (d: any) => (d.result.operations.READ.count = 2 ** 63), "/result/operations/READ/count"],
    ["a latency of 1e308 us", (d: any) => (d.result.operations.READ.avgUs = 1e308), "/result/operations/READ/avgUs"],
    ["unknown field in client", (d: any) => (d.client.extra = 1), "/client/extra"],
    ["unknown field in result", (d: any) => (d.result.extra = 1), "/result/extra"],
    ["unknown field in a resource sample", (d: any) => (d.resources[0].extra = 1), "/resources/0/extra"],
    [
      "unknown field in provenance, nested 5000 deep",
      (d: any) => (d.run.provenance = { deep: JSON.parse("[".repeat(5000) + "]".repeat(5000)) }),
      "/run/provenance/deep",
    ],
  ])("%s is named", (_name, spoil, path) => {
    const doc = fixtureDocument({ runId: "spoilt" }) as any;
    spoil(doc);
    expect(paths(doc)).toContain(path);
  });

  test("published figures pass only for the reference loader", () => {
    const doc = sampleDocument() as any;
    doc.run.source = { kind: "published", citation: "Lineate 2014", seed: "002" };
    expect(paths(doc)).toEqual(["/run/source/kind"]);
    expect(paths(doc, { allowPublished: true })).toEqual([]);
  });

  test("a read-modify-write phase (each RMW also timed as READ and UPDATE) is consistent", () => {
    const doc = sampleDocument() as any;
    doc.result.overall = { runtimeMs: 1000, throughputOpsSec: 100 };
    const op = { avgUs: 10, minUs: 1, maxUs: 20, percentilesUs: {}, returns: {} };
    doc.result.operations = {
      READ: { ...op, count: 100 },
      UPDATE: { ...op, count: 50 },
      "READ-MODIFY-WRITE": { ...op, count: 50 },
      CLEANUP: { ...op, count: 1 },
    };
    expect(problems(doc)).toEqual([]);
  });

  test("dates: calendar and range", () => {
    expect(isDateTime("2024-02-29T12:00:00Z")).toBe(true);
    expect(isDateTime("2023-02-29T12:00:00Z")).toBe(false);
    expect(isDateTime("2026-11-22T04:32:40.123+01:00")).toBe(true);
    expect(isDateTime("1969-12-31T23:59:59Z")).toBe(false);
  });
});

describe("bounded histogram decoding (model/hdr/histogram-bounds.ts)", () => {
  test("the counts array length is hdr-histogram-js's for the same layouts", () => {
    for (const [lowest, highest, digits] of [
      [1, 2, 3],
      [1, 3_600_000_000, 3],
      [1, 2 ** 40, 2],
      [1000, 2 ** 45, 4],
      [1, 2 ** 21, 5],
    ] as const) {
      expect(
        countsArrayLength({
          lowestDiscernibleValue: lowest,
          highestTrackableValue: highest,
          numberOfSignificantValueDigits: digits,
        }),
      ).toBe(new Float64Histogram(lowest, highest, digits).countsArrayLength);
    }
  });

  test("a layout asking for millions of buckets is refused before anything is allocated", () => {
    const greedy = encodedV2({ digits: 5, lowest: 1, highest: 2 ** 52 });
    expect(() => checkHistogram(greedy)).toThrow(/needs \d+ buckets, more than 1048576/);
    expect(() => decodeHistogram(greedy)).toThrow(/buckets/);
    const doc = { ...sampleDocument(), hdrHistograms: { READ: greedy } };
    expect(paths(doc)).toEqual(["/hdrHistograms/READ"]);
  });

  test("a zlib bomb stops at the inflate limit", () => {
    // 64 MiB of zero counts-run bytes compress to about 64 KB: decoding them would allocate and walk all of it.
    const bomb = envelope(
      deflateSync(Buffer.concat([Buffer.from(encodedV2Header()), Buffer.alloc(64 * 2 ** 20, 1)]), { level: 9 }),
    );
    expect(bomb.length).toBeLessThan(200_000);
    expect(() => checkHistogram(bomb)).toThrow(
      new RegExp(`inflates to more than ${HISTOGRAM_BOUNDS.maxInflatedBytes} bytes`),
    );
  });

  test("a request's histograms are bounded in number", () => {
    const h = clientHistograms([{ operation: "READ", text: fixtureHdr("hdr-v2", 0, "READ") }]);
    const hdrHistograms = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`OP${i}`, h.READ!]));
    // 64 groups each printed as that histogram says (a histogram is only of a group the document ran).
    const read = fixtureOutput("hdr-v2", 0).operations.READ!;
    const docs = Array.from({ length: 200 }, () => {
      const d = sampleDocument();
      return {
        ...d,
        result: {
          ...d.result,
          operations: {
            ...d.result.operations,
            ...Object.fromEntries(Object.keys(hdrHistograms).map((op) => [op, read])),
          },
        },
        hdrHistograms,
      };
    });
    let failed: string | undefined;
    const budget = new HistogramBudget();
    for (const d of docs) {
      const r = validateResultDocument(d, { histogramBudget: budget });
      if (!r.ok) {
        failed = r.errors[0]!.message;
        break;
      }
    }
    expect(failed).toMatch(/more than 12000 histograms in one request/);
  });
});

function encodedV2Header(): Uint8Array {
  const inner = Buffer.alloc(40);
  inner.writeUInt32BE(0x1c849303, 0);
  inner.writeInt32BE(64 * 2 ** 20, 4);
  inner.writeInt32BE(3, 12);
  inner.writeBigInt64BE(1n, 16);
  inner.writeBigInt64BE(BigInt(3_600_000_000), 24);
  inner.writeDoubleBE(1, 32);
  return inner;
}
