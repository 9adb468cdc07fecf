import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../api/db/open.js";
import { sqlReader, writeTransaction } from "../../api/db/pg-direct.js";
import { bulkInsert, bulkInsertColumns, type Row, table } from "../../api/store/ingest-tables.js";
import { Prisma } from "../../prisma/generated/client.js";
import { freshPostgresDatabase } from "./api-helpers.js";

// Ingest's bulk statements read each column from a JSON array of its own (api/store/ingest-tables.ts): one JSON array
// of row objects through json_to_recordset re-parsed every nested value, most of the server's time for a status
// series. The rows must come out as that statement stored them, on both stores: it is the second implementation here.

/** Every column type the ingest tables declare. */
const EVERY_TYPE = table("bulk_every_type", {
  id: "int",
  label: "text",
  big: "bigint",
  real: "float8",
  at: "timestamp(3)",
  doc: "json",
  docb: "jsonb",
});

const ROWS: Row<typeof EVERY_TYPE>[] = [
  {
    id: 1,
    label: 'quotes " and \\ backslashes, a tab\t, a newline\n, é, 😀, {braces}, [brackets], NULL',
    big: 9007199254740991,
    real: 1e21,
    at: "2026-11-29T23:30:00.123Z",
    doc: { series: [1, 2.5, null, -0.001], at: ["2024-05-01 10:00:00:123", null], nested: { 'k"ey': "v\\al" } },
    docb: { b: [true, false, null], n: 5e-324 },
  },
  // JSON null and absent values are SQL NULL in every column, as json_to_recordset made them.
  { id: 2, label: null, big: null, real: null, at: null, doc: null, docb: null },
  { id: 3, label: undefined, big: undefined, real: undefined, at: undefined, doc: undefined, docb: undefined },
  // A JSON text inside a text column stays text; scalars and empty containers in JSON columns stay what they are.
  { id: 4, label: '{"a":1}', big: 0, real: -0.5, at: "2024-02-29T00:00:00Z", doc: [], docb: {} },
  { id: 5, label: "", big: -1, real: 123456.789, at: "2026-01-01T00:00:00.000+05:30", doc: "text", docb: 7 },
  { id: 6, label: "NULL", big: 1, real: 0, at: "2026-01-01T00:00:00Z", doc: true, docb: "null" },
];

/**
 * The statement ingest sent before: the rows as one JSON array of objects, read by json_to_recordset (a json column
 * kept its value's text; the tables with a jsonb column, none with a json one, read it with jsonb_to_recordset, whose
 * jsonb values are the same).
 */
function recordsetInsert(name: string, rows: readonly Row<typeof EVERY_TYPE>[]): Prisma.Sql {
  const names = Object.keys(EVERY_TYPE.columns);
  const typed = names.map((n) => `${n} ${EVERY_TYPE.columns[n as keyof typeof EVERY_TYPE.columns]}`).join(", ");
  return Prisma.sql`INSERT INTO ${Prisma.raw(name)} (${Prisma.raw(names.join(", "))})
    SELECT ${Prisma.raw(names.join(", "))} FROM json_to_recordset(${JSON.stringify(rows)}::json) AS x(${Prisma.raw(typed)})`;
}

const CREATE = (name: string) =>
  Prisma.raw(
    `CREATE TABLE ${name} (id int PRIMARY KEY, label text, big bigint, real float8, at timestamp(3), doc json, docb jsonb)`,
  );

/** Each table's rows as text, JSON columns by their text and whether they are SQL NULL. */
const READ = (name: string) =>
  Prisma.raw(`SELECT id, label, big::text AS big, real::text AS real, at::text AS at, doc::text AS doc, doc IS NULL AS doc_null,
    docb::text AS docb, docb IS NULL AS docb_null FROM ${name} ORDER BY id`);

describe.each(["pglite", "postgres"] as const)("bulk inserts by column on %s", (store) => {
  let db: Database;
  const limits = { maxWait: 10_000, timeout: 30_000 };

  beforeAll(async () => {
    db =
      store === "postgres"
        ? await openDatabase({ databaseUrl: await freshPostgresDatabase("api_bulk_insert") })
        : await openDatabase({});
    for (const name of ["bulk_every_type", "bulk_recordset"]) await db.prisma.$executeRaw(CREATE(name));
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  it("stores every row as json_to_recordset stored it: text, numbers, times, JSON and SQL NULL alike", async () => {
    await writeTransaction(db.prisma, (tx) => tx.$executeRaw(bulkInsert(EVERY_TYPE, ROWS)), limits);
    await writeTransaction(db.prisma, (tx) => tx.$executeRaw(recordsetInsert("bulk_recordset", ROWS)), limits);
    const reader = sqlReader(db.prisma);
    const byColumns = await reader.$queryRaw<Record<string, unknown>[]>(READ("bulk_every_type"));
    const byRecords = await reader.$queryRaw<Record<string, unknown>[]>(READ("bulk_recordset"));
    expect(byColumns).toHaveLength(ROWS.length);
    expect(byColumns).toEqual(byRecords);
    // What the second implementation could share with this one by mistake, spelled out.
    expect(byColumns[0]!.label).toBe(ROWS[0]!.label);
    expect(JSON.parse(byColumns[0]!.doc as string)).toEqual(ROWS[0]!.doc);
    expect(byColumns[1]).toMatchObject({
      label: null,
      big: null,
      real: null,
      at: null,
      doc_null: true,
      docb_null: true,
    });
    expect(byColumns[2]).toMatchObject({ label: null, doc_null: true, docb_null: true });
    expect(byColumns[3]).toMatchObject({ label: '{"a":1}', doc: "[]", docb: "{}" });
    expect(byColumns[4]).toMatchObject({ at: "2026-01-01 00:00:00", doc: '"text"', docb: "7" });
    expect(byColumns[5]).toMatchObject({ label: "NULL", doc: "true", docb: '"null"' });
  });

  it("takes a column's JSON written elsewhere, and a tail: a conflict skipped, the inserted rows returned", async () => {
    const texts = ['{"b":[1,2]}', "null", '"x"'];
    const columns = {
      id: JSON.stringify([1, 7, 8]),
      label: JSON.stringify(["again", "seven", null]),
      big: "[null,null,null]",
      real: "[null,null,null]",
      at: "[null,null,null]",
      doc: `[${texts.join(",")}]`,
      docb: "[null,null,null]",
    };
    const inserted = await writeTransaction(
      db.prisma,
      (tx) =>
        tx.$queryRaw<{ id: number }[]>(
          bulkInsertColumns(EVERY_TYPE, columns, Prisma.sql`ON CONFLICT (id) DO NOTHING RETURNING id`),
        ),
      limits,
    );
    expect(inserted.map((r) => Number(r.id)).sort()).toEqual([7, 8]);
    const rows = await sqlReader(db.prisma).$queryRaw<Record<string, unknown>[]>(READ("bulk_every_type"));
    expect(rows.find((r) => r.id === 1)!.label).toBe(ROWS[0]!.label);
    expect(rows.find((r) => r.id === 7)).toMatchObject({ label: "seven", doc_null: true });
    expect(rows.find((r) => r.id === 8)).toMatchObject({ label: null, doc: '"x"' });
  });
});
