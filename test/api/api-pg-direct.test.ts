import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../api/build.js";
import { type Database, openDatabase } from "../../api/db/open.js";
import { isDatabaseOutage } from "../../api/db/outage.js";
import { sqlReader, writeTransaction } from "../../api/db/pg-direct.js";
import { settleAggregates } from "../../api/store/aggregates/settle.js";
import { statusSeriesJson } from "../../api/store/document-hash.js";
import { ingestDocuments } from "../../api/store/ingest.js";
import { storedHdrLogs } from "../../api/store/ingest-tables.js";
import { Prisma } from "../../prisma/generated/client.js";
import { fixtureDocument, freshPostgresDatabase, testConfig } from "./api-helpers.js";

// Ingest's and the settler's transactions and the run pages' reads go to the Postgres pool without Prisma's runtime
// (api/db/pg-direct.ts, issue 28: Prisma's raw path was 2.6 s of the API's 17.5 s over a 30,000-document ingest). The
// callers read rows as Prisma's $queryRaw gives them, so the direct path must give the same values, send parameters
// as Prisma sends them, and keep a transaction's guarantees: commit, rollback, its timeout, a backend that dies.

/** Runs `body` with the process in another time zone (Node reads TZ when it is assigned). */
async function inZone<T>(zone: string, body: () => Promise<T>): Promise<T> {
  const before = process.env.TZ;
  process.env.TZ = zone;
  try {
    return await body();
  } finally {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("statements on the Postgres pool, as Prisma reads and sends them", () => {
  let url: string;
  let db: Database;
  let admin: pg.Client;

  beforeAll(async () => {
    url = await freshPostgresDatabase("api_pg_direct");
    db = await openDatabase({ databaseUrl: url, poolSize: 4 });
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query("CREATE TABLE scratch (id int PRIMARY KEY, note text)");
  }, 120_000);
  afterAll(async () => {
    await admin?.end();
    await db?.close();
  });

  it("reads every type as Prisma's $queryRaw does, whatever the process's time zone", async () => {
    const statement = Prisma.sql`SELECT 9007199254740993::int8 AS big, 12.345678901234567890::numeric AS exact,
      '2026-11-29 23:30:00.123'::timestamp AS at, '2026-03-08'::date AS day, '2026-11-29 23:30:00+05:30'::timestamptz AS zoned,
      '{"a": [1, 2.5, null]}'::json AS doc, '{"b": true}'::jsonb AS docb, 7::int4 AS small, 2.5::float8 AS real,
      'text' AS label, true AS yes, NULL::text AS nothing, ARRAY[1, 2]::int8[] AS bigs, ARRAY['x', 'y'] AS labels,
      count(*) AS n FROM (VALUES (1), (2)) v(x)`;
    await inZone("America/New_York", async () => {
      const viaPrisma = await db.prisma.$queryRaw<Record<string, unknown>[]>(statement);
      const direct = await sqlReader(db.prisma).$queryRaw<Record<string, unknown>[]>(statement);
      expect(direct).toEqual(viaPrisma);
      const [row] = direct;
      expect(row!.big).toBe(9007199254740993n);
      // A timestamp without time zone is UTC (pg's own parser would read it as New York's 23:30).
      expect((row!.at as Date).toISOString()).toBe("2026-11-29T23:30:00.123Z");
      expect((row!.day as Date).toISOString()).toBe("2026-03-08T00:00:00.000Z");
      expect(String(row!.exact)).toBe("12.34567890123456789");
      expect(row!.n).toBe(2n);
    });
  });

  it("reads the views' other types as Prisma's $queryRaw does (every view's raw reads take this path)", async () => {
    const statement = Prisma.sql`SELECT 'NaN'::float8 AS nan, 'Infinity'::float8 AS inf, '-Infinity'::float8 AS ninf,
      1.5::float4 AS single, 3::int2 AS tiny, ARRAY[1.5, NULL]::float8[] AS reals, ARRAY[1, 2]::int4[] AS ints,
      ARRAY['a', NULL, 'b "q"']::text[] AS texts, '[1, {"c": null}]'::jsonb AS arr, ARRAY[true, false] AS flags,
      ARRAY['{"a": 1}']::jsonb[] AS docs, ARRAY[1.25]::numeric[] AS exacts, json_agg(x) AS agg, array_agg(x) AS xs,
      sum(x) AS total, avg(x) AS mean, percentile_cont(0.5) WITHIN GROUP (ORDER BY x) AS median
      FROM (VALUES (1), (2)) v(x)`;
    await inZone("Pacific/Chatham", async () => {
      const viaPrisma = await db.prisma.$queryRaw<Record<string, unknown>[]>(statement);
      const direct = await sqlReader(db.prisma).$queryRaw<Record<string, unknown>[]>(statement);
      // Compared key by key so a difference names its column.
      for (const key of Object.keys(viaPrisma[0]!)) expect([key, direct[0]![key]]).toEqual([key, viaPrisma[0]![key]]);
      expect(Object.keys(direct[0]!)).toEqual(Object.keys(viaPrisma[0]!));
    });
  });

  it("keeps a read given a transaction inside it (Prisma's and writeTransaction's alike)", async () => {
    await admin.query("DELETE FROM scratch WHERE id = 40");
    const seen = await db.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`INSERT INTO scratch VALUES (40, 'uncommitted')`;
      return sqlReader(tx).$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM scratch WHERE id = 40`;
    });
    // Read on another connection it would not see the transaction's own row.
    expect(seen[0]!.n).toBe(1n);
    const direct = await writeTransaction(
      db.prisma,
      async (tx) => {
        await tx.$executeRaw`INSERT INTO scratch VALUES (41, 'uncommitted')`;
        return sqlReader(tx).$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM scratch WHERE id = 41`;
      },
      { maxWait: 5_000, timeout: 10_000 },
    );
    expect(direct[0]!.n).toBe(1n);
    await admin.query("DELETE FROM scratch WHERE id IN (40, 41)");
  });

  it("answers every view without Prisma's raw path (its reads on the pool directly)", async () => {
    const runId = "direct-views";
    await ingestDocuments(
      db.prisma,
      ([0, 1] as const).map((client) => fixtureDocument({ runId, client })),
    );
    await settleAggregates(db.prisma);
    const app = await buildApp(testConfig({ responseCache: false }), { database: db, logLevel: "silent" });
    const raw = db.prisma.$queryRaw;
    let viaPrisma = 0;
    // Counted, then run: a view reading through Prisma's runtime still answers, and the count names it.
    (db.prisma as { $queryRaw: unknown }).$queryRaw = (...args: Parameters<typeof raw>) => {
      viaPrisma++;
      return raw.apply(db.prisma, args);
    };
    try {
      const views = [
        "/facets",
        "/timeline",
        "/runs?limit=100",
        `/runs/${runId}`,
        `/runs/${runId}/phases/a-t4/series`,
        `/compare?runs=${runId}`,
        "/scaling",
        "/durability",
        "/sweeps",
        "/repeatability",
        "/regressions",
        "/capacity",
        "/reference",
      ];
      const used: Record<string, number> = {};
      for (const view of views) {
        const before = viaPrisma;
        const res = await app.inject(`/api/v1${view}`);
        expect([view, res.statusCode]).toEqual([view, 200]);
        used[view] = viaPrisma - before;
      }
      expect(used).toEqual(Object.fromEntries(views.map((v) => [v, 0])));
    } finally {
      (db.prisma as { $queryRaw: unknown }).$queryRaw = raw;
      await app.close();
    }
  });

  it("sends a Date, a bigint and a Decimal as Prisma does, whatever the process's time zone", async () => {
    await inZone("Asia/Kolkata", async () => {
      const at = new Date("2026-11-29T01:02:03.456Z");
      const statement = Prisma.sql`SELECT ${at}::timestamp AS at, ${at}::text AS text, ${12345678901234567n}::int8 AS big,
        ${new Prisma.Decimal("1.5")}::numeric AS exact, ${[at]}::timestamp[] AS ats`;
      const viaPrisma = await db.prisma.$queryRaw<Record<string, unknown>[]>(statement);
      const direct = await sqlReader(db.prisma).$queryRaw<Record<string, unknown>[]>(statement);
      expect(direct).toEqual(viaPrisma);
      expect((direct[0]!.at as Date).toISOString()).toBe("2026-11-29T01:02:03.456Z");
    });
  });

  it("commits what the work resolves, in one transaction", async () => {
    const n = await writeTransaction(
      db.prisma,
      async (tx) => {
        await tx.$executeRaw`INSERT INTO scratch VALUES (1, 'committed')`;
        // The tagged form and a fragment alike, a statement seeing the transaction's own write.
        return tx.$queryRaw<{ n: bigint }[]>(Prisma.sql`SELECT count(*) AS n FROM scratch WHERE id = ${1}`);
      },
      { maxWait: 5_000, timeout: 10_000 },
    );
    expect(n[0]!.n).toBe(1n);
    expect((await admin.query("SELECT note FROM scratch WHERE id = 1")).rows).toEqual([{ note: "committed" }]);
  });

  it("rolls back what throws, and passes the error on", async () => {
    await expect(
      writeTransaction(
        db.prisma,
        async (tx) => {
          await tx.$executeRaw`INSERT INTO scratch VALUES (2, 'rolled back')`;
          throw new Error("the work failed");
        },
        { maxWait: 5_000, timeout: 10_000 },
      ),
    ).rejects.toThrow("the work failed");
    expect((await admin.query("SELECT * FROM scratch WHERE id = 2")).rows).toEqual([]);
  });

  it("rolls back a transaction past its timeout: a statement sent after it writes nothing", async () => {
    let late: unknown;
    const error = await writeTransaction(
      db.prisma,
      async (tx) => {
        await tx.$executeRaw`INSERT INTO scratch VALUES (3, 'before the timeout')`;
        await sleep(1_500);
        await tx.$executeRaw`INSERT INTO scratch VALUES (4, 'after the timeout')`.catch((e) => {
          late = e;
        });
      },
      { maxWait: 5_000, timeout: 500 },
    ).catch((e: unknown) => e);
    expect(String(error)).toMatch(/ran past its timeout of 500 ms and was rolled back/);
    // The store was too slow: the API answers 503, as for a statement past statement_timeout.
    expect(isDatabaseOutage(error)).toBe(true);
    await sleep(1_500);
    expect(String(late)).toMatch(/Transaction already closed/);
    expect((await admin.query("SELECT * FROM scratch WHERE id IN (3, 4)")).rows).toEqual([]);
  });

  it("a backend the server ends mid-transaction fails as the store being away, and the pool goes on", async () => {
    const error = await writeTransaction(
      db.prisma,
      async (tx) => {
        await tx.$executeRaw`INSERT INTO scratch VALUES (5, 'terminated')`;
        const [me] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
        await admin.query("SELECT pg_terminate_backend($1, 10000)", [me!.pid]);
        await tx.$executeRaw`INSERT INTO scratch VALUES (6, 'after the end')`;
      },
      { maxWait: 5_000, timeout: 10_000 },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(isDatabaseOutage(error), String(error)).toBe(true);
    expect((await admin.query("SELECT * FROM scratch WHERE id IN (5, 6)")).rows).toEqual([]);
    // The connection was dropped, not returned: the next transaction gets a working one.
    for (let i = 0; i < 4; i++)
      await writeTransaction(db.prisma, (tx) => tx.$queryRaw`SELECT 1`, { maxWait: 5_000, timeout: 10_000 });
  });

  it("ingest and the settler send no statement through a Prisma transaction on Postgres", async () => {
    const original = db.prisma.$transaction.bind(db.prisma);
    let prismaTransactions = 0;
    (db.prisma as unknown as { $transaction: unknown }).$transaction = (...args: unknown[]) => {
      prismaTransactions++;
      return (original as (...a: unknown[]) => unknown)(...args);
    };
    try {
      const outcomes = await ingestDocuments(db.prisma, [
        fixtureDocument({ runId: "direct-1", client: 0 }),
        fixtureDocument({ runId: "direct-1", client: 1 }),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(["created", "created"]);
      await settleAggregates(db.prisma);
    } finally {
      (db.prisma as unknown as { $transaction: unknown }).$transaction = original;
    }
    expect(prismaTransactions).toBe(0);
    const [dirty] = await db.prisma.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM dirty_groups`;
    expect(dirty!.n).toBe(0n);
  });
});

describe.each(["pglite", "postgres"] as const)("a client's status series on %s", (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase(kind === "postgres" ? { databaseUrl: await freshPostgresDatabase("api_series_json") } : {});
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  it("is kept as json, the exact text ingest wrote, and read back as the same values", async () => {
    const doc = fixtureDocument({ runId: `series-${kind}`, client: 0 });
    await ingestDocuments(db.prisma, [doc]);
    const [column] = await db.prisma.$queryRaw<{ type: string }[]>`
      SELECT data_type AS type FROM information_schema.columns WHERE table_name = 'status_series' AND column_name = 'points'`;
    expect(column!.type).toBe("json");
    const [stored] = await db.prisma.$queryRaw<{ text: string; points: unknown }[]>`
      SELECT points::text AS text, points FROM status_series`;
    expect(stored!.text).toBe(statusSeriesJson(doc));
    expect(stored!.points).toEqual(JSON.parse(statusSeriesJson(doc)));
  });

  it("keeps a client result's JSON parts and its operation groups' as json, read back as the document's values", async () => {
    const doc = fixtureDocument({ runId: `parts-${kind}`, client: 1 });
    await ingestDocuments(db.prisma, [doc]);
    const columns = await db.prisma.$queryRaw<{ column: string; type: string }[]>`
      SELECT table_name || '.' || column_name AS column, data_type AS type FROM information_schema.columns
      WHERE table_name IN ('client_results', 'operation_stats') AND data_type IN ('json', 'jsonb') ORDER BY 1`;
    expect(columns).toEqual(
      [
        "client_results.gc",
        "client_results.hdr_logs",
        "client_results.resources",
        "client_results.unknown_lines",
        "client_results.warnings",
        "operation_stats.extra",
        "operation_stats.histogram_buckets",
        "operation_stats.percentiles_us",
        "operation_stats.returns",
        "operation_stats.time_series",
      ].map((column) => ({ column, type: "json" })),
    );
    const client = await db.prisma.clientResult.findFirstOrThrow({
      where: { runId: `parts-${kind}` },
      include: { operations: true },
    });
    expect(client.gc).toEqual(doc.result.gc);
    expect(client.unknownLines).toEqual(doc.result.unknownLines);
    expect(client.warnings).toEqual(doc.result.warnings);
    expect(doc.hdrLogs.length).toBeGreaterThan(0);
    expect(client.hdrLogs).toEqual(storedHdrLogs(doc.hdrLogs));
    for (const [operation, o] of Object.entries(doc.result.operations)) {
      const stored = client.operations.find((x) => x.operation === operation)!;
      expect(stored.percentilesUs).toEqual(o.percentilesUs);
      expect(stored.returns).toEqual(o.returns);
      expect(stored.histogramBuckets).toEqual(o.histogramBuckets ?? null);
    }
  });
});
