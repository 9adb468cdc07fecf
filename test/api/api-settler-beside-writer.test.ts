import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../api/db/open.js";
import { headlinesOf } from "../../api/store/aggregates/run-headlines.js";
import { settleAggregates } from "../../api/store/aggregates/settle.js";
import { ingestDocuments } from "../../api/store/ingest.js";
import { fixtureDocument, freshPostgresDatabase } from "./api-helpers.js";

// A runner posts each phase of its run as the phase ends, while the settler recounts what the last post marked (issue
// 28: one writer beside the viewers). A write holds its run's row (the run's end, its verdict) until it commits, and a
// round of the settler holds the marks it took: neither may wait for the other, or Postgres ends one of them with
// "deadlock detected" (the write answered 500; seen within seconds before the settler stopped waiting for runs).

describe("one writer posting a run's phases beside the settler (Postgres)", () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase({ databaseUrl: await freshPostgresDatabase("api_settler_writer") });
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  it("stores every post and settles every round, with no deadlock, and the kept headline ends up counted", async () => {
    let writing = true;
    const settleErrors: string[] = [];
    let rounds = 0;
    const settler = (async () => {
      while (writing) {
        await settleAggregates(db.prisma).catch((e: unknown) => settleErrors.push(String(e)));
        rounds++;
      }
    })();
    const postErrors: string[] = [];
    const PHASES = 40;
    for (let i = 0; i < PHASES; i++) {
      const d = fixtureDocument({ runId: "phase-by-phase", phaseName: `a-t${i}`, phaseIndex: i + 2 });
      d.run.finishedAt = new Date(Date.parse("2026-11-22T05:00:00.000Z") + i * 1000).toISOString();
      await ingestDocuments(db.prisma, [d]).catch((e: unknown) => postErrors.push(String(e)));
    }
    writing = false;
    await settler;
    expect(postErrors).toEqual([]);
    expect(settleErrors).toEqual([]);
    expect(rounds).toBeGreaterThan(0);
    await settleAggregates(db.prisma);
    const [marks] = await db.prisma.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM dirty_groups`;
    expect(marks!.n).toBe(0n);
    const headline = (await headlinesOf(db.prisma, ["phase-by-phase"])).get("phase-by-phase");
    expect(headline?.phases).toBe(PHASES);
    const [run] = await db.prisma.$queryRaw<{ finished: Date }[]>`SELECT finished_at AS finished FROM runs`;
    expect(run!.finished.toISOString()).toBe(new Date(Date.parse("2026-11-22T05:00:00.000Z") + 39_000).toISOString());
  }, 240_000);
});
