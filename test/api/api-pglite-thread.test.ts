import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../api/db/open.js";
import { PGliteOnThread } from "../../api/db/pglite-thread.js";
import { Prisma } from "../../prisma/generated/client.js";

// The embedded store's PGlite on a thread of its own (api/db/pglite-thread.ts, issue 28): the same answers and errors
// as PGlite on the caller's thread, and the caller's thread free while a statement runs.

/** One row of most types the store keeps, NULL included, as the Prisma adapter asks for it (rows as arrays). */
const TYPES_SQL = `SELECT 1::int4 AS i, 9007199254740993::int8 AS big, 1.50::numeric AS n, 2.5::float8 AS f,
  'x'::text AS t, true AS b, NULL::text AS nothing, '2026-11-29 12:00:00+00'::timestamptz AS at,
  '2026-11-29'::date AS day, '{"a":[1,2]}'::jsonb AS j, '\\x0102ff'::bytea AS bytes, '{1,2,3}'::int4[] AS ints,
  '{1.5,2}'::numeric[] AS nums, $1::text AS param`;

/** Parsers for a few types, as the adapter passes its own: the value's text, marked, so the test sees who parsed. */
const parsers = {
  1700: (v: string) => `numeric:${v}`,
  20: (v: string) => `int8:${v}`,
  3802: (v: string) => `jsonb:${v}`,
  1231: (v: string) => `numeric[]:${v}`,
};

describe("PGlite on a thread of its own", () => {
  let thread: PGliteOnThread;
  let local: PGlite;

  beforeAll(async () => {
    thread = await PGliteOnThread.open(undefined);
    local = new PGlite();
    await local.waitReady;
  }, 60_000);
  afterAll(async () => {
    await thread?.close();
    await local?.close();
  });

  it("answers a statement as PGlite on the caller's thread does: rows, fields, parsers by type, NULLs", async () => {
    for (const rowMode of ["array", "object"] as const) {
      const there = await thread.query(TYPES_SQL, ["p"], { rowMode, parsers });
      const here = await local.query(TYPES_SQL, ["p"], { rowMode, parsers });
      expect(there.rows).toEqual(here.rows);
      expect(there.fields).toEqual(here.fields);
      expect(there.affectedRows).toBe(here.affectedRows);
    }
    const [row] = (await thread.query<unknown[]>(TYPES_SQL, ["p"], { rowMode: "array", parsers })).rows;
    expect(row![1]).toBe("int8:9007199254740993");
    expect(row![6]).toBeNull();
  });

  it("runs scripts and counts the rows a statement wrote", async () => {
    await thread.exec("CREATE TABLE kept (id int PRIMARY KEY, note text); INSERT INTO kept VALUES (1, 'one')");
    const res = await thread.query("INSERT INTO kept VALUES ($1, $2), ($3, $4)", [2, "two", 3, "three"]);
    expect(res.affectedRows).toBe(2);
  });

  it("fails a statement with PGlite's own error class and Postgres's fields", async () => {
    const { messages } = await import("@electric-sql/pglite");
    const err = await thread.query("INSERT INTO kept VALUES (1, 'again')").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(messages.DatabaseError);
    expect(err).toMatchObject({ code: "23505", severity: "ERROR", constraint: "kept_pkey" });
    expect((err as Error).message).toMatch(/duplicate key value violates unique constraint "kept_pkey"/);
  });

  it("commits a transaction whose function returns, rolls back one that throws or rolls back", async () => {
    const value = await thread.transaction(async (tx) => {
      await tx.query("INSERT INTO kept VALUES (10, 'committed')");
      return "returned";
    });
    expect(value).toBe("returned");
    const thrown = await thread
      .transaction(async (tx) => {
        await tx.query("INSERT INTO kept VALUES (11, 'thrown')");
        throw new Error("the caller's own error");
      })
      .catch((e: unknown) => e);
    expect((thrown as Error).message).toBe("the caller's own error");
    await thread.transaction(async (tx) => {
      await tx.query("INSERT INTO kept VALUES (12, 'rolled back')");
      await tx.rollback();
      expect(tx.closed).toBe(true);
      await expect(tx.query("SELECT 1")).rejects.toThrow(/closed/);
    });
    // One session: a transaction left open (not rolled back) would show its rows here.
    const ids = await thread.query<{ id: number }>("SELECT id FROM kept WHERE id >= 10 ORDER BY id");
    expect(ids.rows.map((r) => r.id)).toEqual([10]);
  });

  it("leaves the caller's thread free while a statement runs (on the caller's thread PGlite holds it throughout)", async () => {
    const heavy = "SELECT count(*) FROM generate_series(1, 3000000) g WHERE g % 7 = 3";
    const ticksDuring = async (run: () => Promise<unknown>) => {
      let running = true;
      let ticks = 0;
      const timer = setInterval(() => {
        if (running) ticks++;
      }, 1);
      try {
        await run();
      } finally {
        running = false;
        clearInterval(timer);
      }
      return ticks;
    };
    expect(await ticksDuring(() => thread.query(heavy))).toBeGreaterThan(0);
    // The control: the same statement on this thread lets no timer run until it has finished.
    expect(await ticksDuring(() => local.query(heavy))).toBe(0);
  }, 60_000);

  it("fails every later request with the thread's end once closed", async () => {
    const closing = await PGliteOnThread.open(undefined);
    await closing.close();
    await expect(closing.query("SELECT 1")).rejects.toThrow(/closed/);
  });
});

describe("the store over the thread", () => {
  it("reports a Postgres error through Prisma with its SQLSTATE, as the adapter does for PGlite on the caller's thread", async () => {
    const db = await openDatabase({});
    try {
      await db.prisma.$executeRawUnsafe("CREATE TABLE twice (id int PRIMARY KEY)");
      await db.prisma.$executeRawUnsafe("INSERT INTO twice VALUES (1)");
      const err = await db.prisma.$executeRawUnsafe("INSERT INTO twice VALUES (1)").catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Prisma.PrismaClientKnownRequestError);
      expect((err as { code: string }).code).toBe("P2010");
      expect(JSON.stringify(err)).toContain("23505");
      await db.ping();
    } finally {
      await db.close();
    }
  }, 60_000);
});
