import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { storedRow } from "../../api/store/transfer-rows.js";
import { TransferClientResultSchema, TransferOperationSchema, TransferRunSchema } from "../../model/transfer-format.js";

/** An export line's row back to what Prisma writes, every column from the line's schema (model/transfer-format.ts). */
describe("an export row as the store writes it", () => {
  it("every column of the schema, dates as Dates, optional JSON null unset, relations left to the caller", () => {
    const run = Object.fromEntries(Object.keys(TransferRunSchema.properties).map((k) => [k, `v-${k}`]));
    const row = storedRow(
      TransferRunSchema,
      {
        ...run,
        startedAt: "2026-01-02T03:04:05.678Z",
        finishedAt: null,
        quarantinedAt: "2026-01-03T00:00:00+01:00",
        createdAt: "2026-01-02T03:04:05Z",
        provenance: null,
      },
      ["phases", "instanceSpans"],
    );
    const columns = Object.keys(TransferRunSchema.properties).filter((k) => k !== "phases" && k !== "instanceSpans");
    expect(Object.keys(row).sort()).toEqual(columns.sort());
    expect(row.startedAt).toEqual(new Date("2026-01-02T03:04:05.678Z"));
    expect(row.quarantinedAt).toEqual(new Date("2026-01-02T23:00:00Z"));
    expect(row.finishedAt).toBeNull();
    expect(row.provenance).toBeUndefined();
    expect(row.engine).toBe("v-engine");
  });

  it("a count beyond 2^53 survives as a BigInt; a required JSON column keeps what it holds", () => {
    const op = storedRow(TransferOperationSchema, {
      operation: "READ",
      count: "9007199254740993",
      avgUs: 1.5,
      minUs: null,
      maxUs: 3,
      percentilesUs: { "99": 3 },
      returns: { OK: 1 },
      hdrHistogram: null,
      extra: null,
    });
    expect(op.count).toBe(9007199254740993n);
    expect(op.percentilesUs).toEqual({ "99": 3 });
    expect(op.extra).toBeUndefined();
    expect(op.minUs).toBeNull();
  });

  it("a column added to a schema is written without another edit", () => {
    const heapMb = Type.Union([Type.Number(), Type.Null()]);
    const wider = Type.Object({ ...TransferClientResultSchema.properties, heapMb });
    const nested = ["operations", "hdrLogs", "statusSeries", "validity"];
    const row = storedRow(wider, { heapMb: 512, startedAt: "2026-01-02T03:04:05Z" }, nested);
    expect(row.heapMb).toBe(512);
    expect(row.startedAt).toEqual(new Date("2026-01-02T03:04:05Z"));
    expect(row).not.toHaveProperty("operations");
  });
});
