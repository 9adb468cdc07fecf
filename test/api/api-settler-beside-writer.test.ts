import pg from "pg";
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
  let url: string;
  beforeAll(async () => {
    url = await freshPostgresDatabase("api_settler_writer");
    db = await openDatabase({ databaseUrl: url });
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

  // A round may run while a write is open (the background settler, every second). The write below is held open at its
  // last statement (the change log's row, locked by another session) while a round runs. It stores the second client
  // of a phase stored before: no new phase (whose key would hold the run's row against the round), the run's end and
  // verdict unchanged. Its run was marked by an earlier post, and the marks of its phase's groups are its own, new,
  // unseen by the round. Only the run's mark can hold the round back until the write commits: a round that recounts
  // the run meanwhile cannot see the write's client, and a run left unmarked after it keeps that headline.
  it("a round beside an open write of the run leaves the run's headline counting that write", async () => {
    const run = "open-write";
    const doc = (phase: string, index: number, client: 0 | 1) => {
      const d = fixtureDocument({ runId: run, phaseName: phase, phaseIndex: index, client });
      if (phase.startsWith("b")) d.phase.workload = "b";
      return d;
    };
    await ingestDocuments(db.prisma, [doc("a-t4", 2, 0)]);
    await settleAggregates(db.prisma);
    // Another phase of the run: the run is marked.
    await ingestDocuments(db.prisma, [doc("b-t4", 3, 0)]);
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT version FROM data_version WHERE id = 1 FOR UPDATE");
      const write = ingestDocuments(db.prisma, [doc("a-t4", 2, 1)]);
      // The write waits for the change log's row, its marks made: the holder's transaction is what it waits for.
      for (let waited = 0; ; waited += 50) {
        const { rows } = await holder.query(
          "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'transactionid' AND NOT granted AND transactionid = (SELECT backend_xid FROM pg_stat_activity WHERE pid = pg_backend_pid())",
        );
        if (rows[0].n > 0) break;
        if (waited > 30_000) throw new Error("the write never reached the change log's row");
        await new Promise((r) => setTimeout(r, 50));
      }
      const round = settleAggregates(db.prisma);
      // The round runs as far as it can while the write is open; then the write commits.
      await Promise.race([round, new Promise((r) => setTimeout(r, 2_000))]);
      await holder.query("COMMIT");
      await write;
      await round;
    } finally {
      await holder.end();
    }
    await settleAggregates(db.prisma);
    const [marks] = await db.prisma.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM dirty_groups`;
    expect(marks!.n).toBe(0n);
    const kept = (await headlinesOf(db.prisma, [run])).get(run);
    // The same run counted from its phases now (a pending mark makes a reader count it).
    await db.prisma.$executeRaw`INSERT INTO dirty_groups (id, whole) VALUES (${`r:${run}`}, true)`;
    const counted = (await headlinesOf(db.prisma, [run])).get(run);
    expect(counted?.peak?.workload).toBe("a");
    expect(kept).toEqual(counted);
  }, 120_000);
  // A round holds the marks it took until it commits (its whole recount). A write of the same groups appends marks of
  // its own and never waits for it: before, its upsert of a taken mark waited for the round (docs/benchmarks.md: 50
  // of 131 samples of active backends in an ingest were writes waiting there). Here another session takes the marks
  // as a round does and holds them; a write of the same configuration must store without waiting for any lock.
  it("a write of groups a round holds stores without waiting for the round", async () => {
    const doc = (run: string) => fixtureDocument({ runId: run, phaseName: "a-t4", phaseIndex: 2 });
    await settleAggregates(db.prisma);
    await ingestDocuments(db.prisma, [doc("held-1")]);
    const round = new pg.Client({ connectionString: url });
    await round.connect();
    try {
      await round.query("BEGIN");
      const taken = await round.query("DELETE FROM dirty_groups WHERE id LIKE 'c:%' OR id LIKE 'p:%' RETURNING id");
      expect(taken.rowCount).toBeGreaterThan(0);
      let stored = false;
      const write = ingestDocuments(db.prisma, [doc("held-2")]).then(() => {
        stored = true;
      });
      // Until the write is stored, no backend may be waiting for a lock (the round's session is idle in its transaction).
      while (!stored) {
        // This database's backends only: other test files may share the server.
        const { rows } = await round.query(
          "SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE NOT l.granted AND a.datname = current_database()",
        );
        expect(rows[0].n, "a backend waits for a lock the round holds").toBe(0);
        await Promise.race([write, new Promise((r) => setTimeout(r, 20))]);
      }
      await round.query("COMMIT");
    } finally {
      await round.end();
    }
    // The round took the first write's marks; the second write's are left for the next round, which counts both.
    const [left] = await db.prisma.$queryRaw<
      { n: bigint }[]
    >`SELECT count(*) AS n FROM dirty_groups WHERE id LIKE 'c:%'`;
    expect(left!.n).toBeGreaterThan(0n);
    await settleAggregates(db.prisma);
    const configs = await db.prisma.$queryRaw<{ runs: unknown }[]>`
      SELECT runs FROM configuration_aggregates WHERE runs::text LIKE '%held-%'`;
    expect(configs.length).toBe(1);
    expect(JSON.stringify(configs[0]!.runs)).toMatch(/held-1.*held-2/);
  }, 120_000);
});
