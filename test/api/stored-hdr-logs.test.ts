import { describe, expect, it } from "vitest";
import { storedHdrLogs } from "../../api/store/ingest-tables.js";

// A client result's HDR log references as ingest and import store them in its row (migration
// 20261219000000_hdr_logs_column): by operation, then URI, in code point order as the migration's COLLATE "C" orders
// them, each once, as the table's unique key (client result, operation, uri) kept them before.
describe("storedHdrLogs", () => {
  it("orders by operation, then URI", () => {
    const refs = [
      { operation: "UPDATE", uri: "s3://b/run/a/0/UPDATE.hdr" },
      { operation: "READ", uri: "s3://b/run/a/0/READ-2.hdr" },
      { operation: "READ", uri: "s3://b/run/a/0/READ-1.hdr" },
    ];
    expect(storedHdrLogs(refs)).toEqual([refs[2], refs[1], refs[0]]);
  });

  it("keeps a reference named twice once, and two logs of one operation both", () => {
    const a = { operation: "READ", uri: "s3://b/a.hdr" };
    const b = { operation: "READ", uri: "s3://b/b.hdr" };
    expect(storedHdrLogs([b, a, { ...b }, a])).toEqual([a, b]);
  });

  it("the same URI under two operations is two references", () => {
    const refs = [
      { operation: "UPDATE", uri: "s3://b/x.hdr" },
      { operation: "READ", uri: "s3://b/x.hdr" },
    ];
    expect(storedHdrLogs(refs).map((r) => r.operation)).toEqual(["READ", "UPDATE"]);
  });

  it("compares code points, as UTF-8 bytes compare (a character past U+FFFF after U+FFFD)", () => {
    // In UTF-16 code units U+1F600 (a surrogate pair from 0xD83D) sorts before U+FFFD; in code points, after.
    const astral = { operation: "READ", uri: "s3://b/\u{1F600}.hdr" };
    const bmp = { operation: "READ", uri: "s3://b/\uFFFD.hdr" };
    expect(storedHdrLogs([astral, bmp])).toEqual([bmp, astral]);
    expect(Buffer.compare(Buffer.from(bmp.uri), Buffer.from(astral.uri))).toBe(-1);
  });

  it("stores only the two fields of each reference", () => {
    const withExtra = { operation: "READ", uri: "s3://b/a.hdr", size: 3 } as { operation: string; uri: string };
    expect(storedHdrLogs([withExtra])).toEqual([{ operation: "READ", uri: "s3://b/a.hdr" }]);
  });
});
