import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../api/db/open.js";
import { settleAggregates } from "../../api/store/aggregates/settle.js";
import { ingestDocuments } from "../../api/store/ingest.js";
import { fixtureDocument, freshPostgresDatabase } from "./api-helpers.js";
import { readsOf, recordingPool, recordReads } from "./plan-rows.js";

// A write's recount of the kept groups it touched (api/store/aggregates/groups.ts) reads the phases it wrote and the
// groups' kept state. What a test can state whatever the machine's speed is how many rows its statements read from
// each table (EXPLAIN ANALYZE under the planner's own choices, the tables analyzed): the same for one new run written
// into groups of N runs and of 4N runs. Postgres only: the plans are Postgres's (PGlite runs the same planner).

const N = 200;
/** Runs a write brings: a fleet's batch (a tenth of N), enough for a planner to hash-join every run it holds. */
const WRITTEN = 20;
const PRESETS = ["throughput", "balanced", "durable"] as const;

/** Run r: a thread sweep of 4 phases on 2 clients; every 6 runs cover the same 6 deployments (more runs: more repeats). */
function seededRun(id: string, r: number) {
  return [4, 8, 16, 32].flatMap((threads, p) =>
    ([0, 1] as const).map((client) =>
      fixtureDocument({
        runId: id,
        scenario: "recount",
        client,
        phaseName: `a-t${threads}`,
        phaseIndex: p,
        threads,
        preset: PRESETS[r % 3],
        nodes: [1, 3][Math.floor(r / 3) % 2],
        repeat: Math.floor(r / 6) % 5,
      }),
    ),
  );
}

describe("a write's recount of its groups reads the same rows with N and 4N runs stored (Postgres)", () => {
  let url: string;
  let db: Database;
  let recorder: ReturnType<typeof recordingPool>;
  let stored = 0;

  const store = async (runs: number) => {
    const docs = Array.from({ length: runs }, (_, k) => seededRun(`seeded-${stored + k}`, stored + k)).flat();
    for (let i = 0; i < docs.length; i += 400) await ingestDocuments(db.prisma, docs.slice(i, i + 400));
    stored += runs;
    await settleAggregates(db.prisma);
    await db.prisma.$executeRawUnsafe("ANALYZE");
  };

  /** WRITTEN new runs into the kept groups; the rows their recount read, per table. */
  const write = async (prefix: string) => {
    const docs = Array.from({ length: WRITTEN }, (_, k) => seededRun(`${prefix}-${k}`, k)).flat();
    expect((await ingestDocuments(db.prisma, docs)).every((o) => o.status === "created")).toBe(true);
    await recordReads(recorder.state, () => settleAggregates(db.prisma));
    expect(await db.prisma.dirtyGroup.count()).toBe(0);
    return readsOf(url, [...recorder.state.sent]);
  };

  beforeAll(async () => {
    url = await freshPostgresDatabase("recount_reads");
    recorder = recordingPool(url);
    db = await openDatabase({ pool: recorder.pool });
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    await recorder?.pool.end().catch(() => {});
  });

  it("reads the runs it wrote, not every run stored (phaseSummaries' join to runs by key)", async () => {
    await store(N);
    const atN = await write("written-a");
    await store(3 * N);
    const at4N = await write("written-b");
    expect(await db.prisma.run.count({ where: { scenario: "recount" } })).toBe(4 * N + 2 * WRITTEN);
    console.log(JSON.stringify({ atN, at4N }));
    // The recount read the phases it wrote, each joined to its run by key: at most one run row per phase written.
    expect(atN.runs).toBeLessThanOrEqual(4 * WRITTEN);
    expect(at4N.runs).toBe(atN.runs);
  }, 600_000);
});
