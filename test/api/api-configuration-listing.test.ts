import { readFileSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../api/db/open.js";
import type { ResultDocument } from "../../model/result-document.js";
import { fixtureDocument, freshPostgresDatabase, ROOT, storedAndServed } from "./api-helpers.js";

// Each configuration keeps its summary without repeats and its repeats' listing (api/store/aggregates/listing.ts,
// issue 28): written at ingest, computed by the migration for rows kept before it, read by /sweeps and /repeatability.
// Here: what ingest writes equals what the migration computes from the same summaries, and the views answer the same
// from the kept listing, from the summaries alone (a row kept before the listing) and past the kept 20 repeats.

const MIGRATION = `${ROOT}prisma/migrations/20261214000000_configuration_listing/migration.sql`;
/** The migration's backfill: its one UPDATE statement. */
const backfill = () => {
  const sql = readFileSync(MIGRATION, "utf8");
  return sql.slice(sql.indexOf('UPDATE "configuration_aggregates"')).trim();
};

/** 30 repeats of one thread sweep (more than the 20 kept), in 2 batches; every fifth run's 8-thread phase invalid. */
function runs(): ResultDocument[][] {
  const docs = Array.from({ length: 30 }, (_, r) =>
    [4, 8].flatMap((threads, p) =>
      ([0, 1] as const).map((client) => {
        const d = fixtureDocument({
          runId: `listing-${String(r).padStart(2, "0")}`,
          scenario: "listing",
          client,
          threads,
          phaseName: `a-t${threads}`,
          phaseIndex: p,
          repeat: r,
        });
        if (r % 5 === 0 && threads === 8)
          d.validity = { verdict: "invalid", reasons: [{ code: "failed-operations", message: "2% failed" }] };
        return d;
      }),
    ),
  );
  return [docs.slice(0, 12).flat(), docs.slice(12).flat()];
}

const COLUMNS = ["head_valid", "head_all", "listing_valid", "listing_all"] as const;

describe.each(["pglite", "postgres"] as const)("configurations' kept listings on %s", (kind) => {
  let db: Database;
  let app: FastifyInstance;
  const ask = async (url: string) => {
    const res = await app.inject(`/api/v1${url}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const keptColumns = () =>
    db.prisma.$queryRawUnsafe<Record<string, unknown>[]>(
      `SELECT id, ${COLUMNS.join(", ")} FROM configuration_aggregates WHERE scenario = 'listing' ORDER BY id`,
    );

  beforeAll(async () => {
    const url = kind === "postgres" ? await freshPostgresDatabase("api_listing") : undefined;
    db = await openDatabase(url ? { databaseUrl: url } : {});
    app = await storedAndServed(db, runs());
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  it("ingest keeps the listing the migration computes from the summaries: counts whole, the first 20 repeats", async () => {
    const written = await keptColumns();
    expect(written).toHaveLength(2);
    for (const r of written) expect(r.listing_all).toMatchObject({ repeatCount: 30, runCount: 30 });
    for (const r of written) {
      expect((r.listing_all as { shown: unknown[] }).shown).toHaveLength(20);
      expect((r.head_all as { repeats: unknown[] }).repeats).toEqual([]);
    }
    const invalid = written.map((r) => (r.listing_all as { verdicts: Record<string, number> }).verdicts.invalid ?? 0);
    expect(invalid.sort()).toEqual([0, 6]);
    // Rows kept before the listing: the migration computes it from their summaries, the same values.
    await db.prisma.$executeRawUnsafe(`UPDATE configuration_aggregates SET ${COLUMNS.map((c) => `${c} = NULL`)}`);
    await db.prisma.$executeRawUnsafe(backfill());
    expect(await keptColumns()).toEqual(written);
  });

  it("/repeatability and /sweeps answer the same from the kept listing, from the summaries alone, and past 20 repeats", async () => {
    const views = [
      "/repeatability?scenario=listing",
      "/repeatability?scenario=listing&include=all",
      "/repeatability?scenario=listing&repeats=5",
      "/repeatability?scenario=listing&repeats=0",
      "/sweeps?scenario=listing",
      "/sweeps?scenario=listing&include=all",
    ];
    const kept = await Promise.all(views.map(ask));
    const group = kept[1].groups.find((g: { phase: string }) => g.phase === "a-t8");
    expect(group).toMatchObject({ repeatCount: 30, runCount: 30, verdicts: { valid: 24, invalid: 6 } });
    expect(group.repeats).toHaveLength(20);
    expect(kept[2].groups[0].repeats).toHaveLength(5);
    expect(kept[3].groups[0].repeats).toEqual([]);
    // Past the 20 kept: the summary's repeats, counted and sliced in the database.
    const more = await ask("/repeatability?scenario=listing&include=all&repeats=25");
    const moreGroup = more.groups.find((g: { phase: string }) => g.phase === "a-t8");
    expect(moreGroup.repeats).toHaveLength(25);
    expect(moreGroup.repeats.slice(0, 20)).toEqual(group.repeats);
    expect({ ...moreGroup, repeats: [], runs: [] }).toEqual({ ...group, repeats: [], runs: [] });
    // A row kept before the listing (NULL): the same answers from its summaries.
    await db.prisma.$executeRawUnsafe(`UPDATE configuration_aggregates SET ${COLUMNS.map((c) => `${c} = NULL`)}`);
    expect(await Promise.all(views.map(ask))).toEqual(kept);
  });
});
