import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../api/build.js";
import { type Database, openDatabase } from "../../api/db/open.js";
import { MAX_BATCH } from "../../api/routes/api/results/index.js";
import { ingestDocuments } from "../../api/store/ingest.js";
import { auth, fixtureDocument, freshPostgresDatabase, testConfig } from "./api-helpers.js";

// The bulk ingest path (api/store/ingest.ts) on both stores: a whole batch in one transaction, lz4 TOAST only where
// the server supports it, and everything of a document read back as sent.
describe.each(["pglite", "postgres"] as const)("bulk ingest on %s", (kind) => {
  let db: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    const url = kind === "postgres" ? await freshPostgresDatabase("api_ingest_bulk") : undefined;
    db = await openDatabase(url ? { databaseUrl: url } : {});
    app = await buildApp(testConfig({ bodyLimit: 64 * 1024 * 1024 }), { database: db, logLevel: "silent" });
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  const batch = Array.from({ length: 40 }, (_, i) =>
    fixtureDocument({
      runId: `bulk-${Math.floor(i / 10)}`,
      client: (i % 2) as 0 | 1,
      clients: 2,
      phaseName: `a-t${Math.floor(i / 2) % 5}`,
      phaseIndex: Math.floor(i / 2) % 5,
    }),
  );

  it("stores a batch of documents across runs and phases, with every child row", async () => {
    const out = await ingestDocuments(db.prisma, batch);
    expect(out.filter((o) => o.status === "created")).toHaveLength(40);
    const stored = await db.prisma.clientResult.findFirstOrThrow({
      where: { runId: "bulk-3", clientIndex: 1, phase: { name: "a-t4" } },
      include: { operations: true, statusSeries: true, validity: true },
    });
    const doc = batch[39]!;
    expect(stored.clientIndex).toBe(doc.client.index);
    expect(stored.throughputOpsSec).toBe(doc.result.overall.throughputOpsSec);
    expect(stored.operations.map((o) => o.operation).sort()).toEqual(Object.keys(doc.result.operations).sort());
    expect(stored.statusSeries?.points).toEqual(doc.result.statusSeries);
    expect((stored.hdrLogs as { uri: string }[]).map((h) => h.uri).sort()).toEqual(
      doc.hdrLogs.map((h) => h.uri).sort(),
    );
    expect(stored.validity?.verdict).toBe(doc.validity.verdict);
    const phase = await db.prisma.phase.findFirstOrThrow({ where: { runId: "bulk-3", name: "a-t4" } });
    expect(phase.clientsReported).toBe(2);
    expect(phase.throughputSum).toBeCloseTo(
      batch[38]!.result.overall.throughputOpsSec + doc.result.overall.throughputOpsSec,
      6,
    );
  });

  it("reports the same batch again as duplicates and writes nothing", async () => {
    const before = await db.prisma.operationStat.count();
    const out = await ingestDocuments(db.prisma, batch);
    expect(new Set(out.map((o) => o.status))).toEqual(new Set(["duplicate"]));
    expect(await db.prisma.operationStat.count()).toBe(before);
  });

  it("compresses status series with lz4 on Postgres (Debian's build has it), pglz where lz4 is missing", async () => {
    const [setting] = await db.prisma.$queryRaw<
      { lz4: boolean }[]
    >`SELECT 'lz4' = ANY(enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`;
    const lz4 = setting?.lz4 === true;
    const rows = await db.prisma.$queryRaw<
      { method: string | null }[]
    >`SELECT pg_column_compression(points) AS method FROM status_series`;
    expect(rows.length).toBe(40);
    expect(lz4).toBe(kind === "postgres");
    expect(new Set(rows.map((r) => r.method))).toEqual(new Set([lz4 ? "lz4" : "pglz"]));
  });

  // A client that lost the acknowledgement of its largest batch sends it again: the stored keys are found by one join
  // over the batch (issue: one OR branch per document made Postgres plan a join per document for minutes, and PGlite
  // answered 500 from 700 documents on), so every document is answered duplicate and nothing is written.
  it(`a retry of an acknowledged batch of ${MAX_BATCH} documents (the largest accepted) is answered duplicate, over thousands stored`, async () => {
    const batch = (b: number) =>
      Array.from({ length: MAX_BATCH }, (_, i) =>
        fixtureDocument({
          runId: `retry-${b}-${Math.floor(i / 20)}`,
          client: (i % 2) as 0 | 1,
          phaseName: `a-t${Math.floor(i / 2) % 10}`,
          phaseIndex: Math.floor(i / 2) % 10,
        }),
      );
    const post = (docs: unknown) =>
      app.inject({
        method: "POST",
        url: "/api/v1/results",
        headers: { ...auth, "content-type": "application/json" },
        payload: JSON.stringify(docs),
      });
    for (let b = 0; b < 4; b++) {
      const r = await post(batch(b));
      expect(r.statusCode, r.body.slice(0, 300)).toBe(201);
      expect(r.json().created).toBe(MAX_BATCH);
    }
    const before = { clients: await db.prisma.clientResult.count(), ops: await db.prisma.operationStat.count() };
    const again = await post(batch(3));
    expect(again.statusCode, again.body.slice(0, 300)).toBe(200);
    expect(again.json()).toMatchObject({ created: 0, duplicates: MAX_BATCH, conflicts: 0 });
    expect({ clients: await db.prisma.clientResult.count(), ops: await db.prisma.operationStat.count() }).toEqual(
      before,
    );
    // One document changed in the retry: that one is a conflict, never overwritten; the others stay duplicates.
    const changed = batch(2);
    changed[500]!.result.overall.throughputOpsSec *= 0.5;
    const mixed = await post(changed);
    expect(mixed.statusCode, mixed.body.slice(0, 300)).toBe(200);
    expect(mixed.json()).toMatchObject({ created: 0, duplicates: MAX_BATCH - 1, conflicts: 1 });
    expect(mixed.json().results[500].status).toBe("conflict");
  });
});
