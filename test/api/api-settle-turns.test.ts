import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../api/db/open.js";
import { PGliteOnThread, type ThreadTransaction } from "../../api/db/pglite-thread.js";
import { settleAggregates } from "../../api/store/aggregates/settle.js";
import { ingestDocuments } from "../../api/store/ingest.js";
import { fixtureDocument } from "./api-helpers.js";

// PGlite runs one transaction at a time on its one connection: a settling round's transaction holds back every write
// until it ends. A client's retry of a batch of 1,000 behind a round of 200 groups took 2.2 s where alone it took 0.3
// (bench/api.ts's retry row, over its 2x target). A round there commits every few groups, so a write arriving during
// it goes between two of its transactions. Postgres runs a round and a write side by side
// (api-settler-beside-writer.test.ts).

/** Run r: a thread sweep of 4 phases on 2 clients, in a deployment of its own (its own kept groups). */
function run(id: string, r: number) {
  return [4, 8, 16, 32].flatMap((threads, p) =>
    ([0, 1] as const).map((client) =>
      fixtureDocument({
        runId: id,
        scenario: "settle-turns",
        client,
        phaseName: `a-t${threads}`,
        phaseIndex: p,
        threads,
        nodes: 1 + (r % 8),
        preset: (["throughput", "balanced", "durable"] as const)[Math.floor(r / 8) % 3],
      }),
    ),
  );
}

/** Each transaction PGlite ran, in the order it ran them: its statements and the groups a round's took. */
function recordTransactions() {
  const ran: { statements: string[]; taken: Set<string> }[] = [];
  let roundStarted: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    roundStarted = resolve;
  });
  const original = PGliteOnThread.prototype.transaction;
  PGliteOnThread.prototype.transaction = function <T>(
    this: PGliteOnThread,
    fn: (tx: ThreadTransaction) => Promise<T>,
  ): Promise<T> {
    const statements: string[] = [];
    const taken = new Set<string>();
    ran.push({ statements, taken });
    return original.call(this, (tx) =>
      fn(
        new Proxy(tx, {
          get: (t, p) =>
            p === "query"
              ? (sql: string, ...rest: unknown[]) => {
                  statements.push(sql);
                  if (sql.includes("settling round")) roundStarted();
                  const answer = t.query(sql, ...(rest as []));
                  if (!/^\s*DELETE FROM dirty_groups\b/.test(sql)) return answer;
                  return answer.then((r) => {
                    // Rows as the adapter asks for them: arrays of the columns (id first).
                    for (const row of r.rows as unknown[])
                      taken.add(String(Array.isArray(row) ? row[0] : (row as { id: string }).id));
                    return r;
                  });
                }
              : Reflect.get(t, p),
        }),
      ),
    ) as Promise<T>;
  } as typeof original;
  return { ran, started, restore: () => (PGliteOnThread.prototype.transaction = original) };
}

describe("a write during a settling round on PGlite", () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase({});
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  it("goes between two of the round's transactions, not after all of them", async () => {
    // 24 runs in 24 deployments: 24 x 4 configuration groups, 24 peak groups and 24 run headlines to recount.
    await ingestDocuments(db.prisma, Array.from({ length: 24 }, (_, r) => run(`marked-${r}`, r)).flat());
    const marked = Number(
      (await db.prisma.$queryRaw<{ n: bigint }[]>`SELECT count(DISTINCT id) AS n FROM dirty_groups`)[0]!.n,
    );
    expect(marked).toBeGreaterThan(100);
    const recorder = recordTransactions();
    try {
      const round = settleAggregates(db.prisma);
      await recorder.started;
      const write = ingestDocuments(db.prisma, run("during-the-round", 0));
      const [, outcomes] = await Promise.all([round, write]);
      expect(outcomes.every((o) => o.status === "created")).toBe(true);
      const isRound = (t: { statements: string[] }) => t.statements.some((s) => s.includes("settling round"));
      const at = recorder.ran.findIndex((t) => t.statements.some((s) => /^\s*INSERT INTO sources\b/.test(s)));
      expect(at).toBeGreaterThan(0);
      expect(isRound(recorder.ran[0]!)).toBe(true);
      // The groups the round recounted before the write ran: some of those marked before it, not all of them.
      const before = new Set(recorder.ran.slice(0, at).flatMap((t) => (isRound(t) ? [...t.taken] : [])));
      console.log(
        "DEBUG",
        marked,
        before.size,
        recorder.ran.map((t) => `${isRound(t) ? "R" : "o"}${t.taken.size}:${t.statements.length}`).join(" "),
        at,
      );
      expect(before.size).toBeGreaterThan(0);
      expect(before.size).toBeLessThan(marked);
    } finally {
      recorder.restore();
    }
    // And everything is counted in the end.
    await settleAggregates(db.prisma);
    expect(await db.prisma.dirtyGroup.count()).toBe(0);
  });
});
