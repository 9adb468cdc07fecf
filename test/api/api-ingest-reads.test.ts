import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../api/db/open.js";
import { ingestDocuments } from "../../api/store/ingest.js";
import { fixtureDocument, freshPostgresDatabase } from "./api-helpers.js";
import { readsOf, recordingPool, recordReads } from "./plan-rows.js";

// A write reads back what it touched: the keys it may already hold, the phases it wrote and their clients' operation
// groups (api/store/aggregates/phase-operations.ts), their totals (api/store/phase-totals.ts). Each read must cost what
// the batch holds, not what the store holds: a hash join over every operation group stored made each batch of a
// 100,000-document ingest scan 300,000 rows (bench/api.ts, 2026-11-30). Counted as rows read per table under the
// planner's own choices, the tables analyzed, with N and with 4N runs stored. Postgres only: the plans are
// Postgres's (PGlite runs the same planner).

const N = 150;
/** Runs one batch brings: a fleet's batch, enough for a planner to hash-join what it holds. */
const WRITTEN = 25;

/** Run r: a thread sweep of 4 phases on 2 clients. */
function run(id: string, r: number) {
  return [4, 8, 16, 32].flatMap((threads, p) =>
    ([0, 1] as const).map((client) =>
      fixtureDocument({
        runId: id,
        scenario: "ingest-reads",
        client,
        phaseName: `a-t${threads}`,
        phaseIndex: p,
        threads,
        repeat: r % 5,
      }),
    ),
  );
}

describe("a write reads what its batch holds, with N and 4N runs stored (Postgres)", () => {
  let url: string;
  let db: Database;
  let recorder: ReturnType<typeof recordingPool>;
  let stored = 0;

  const store = async (runs: number) => {
    const docs = Array.from({ length: runs }, (_, k) => run(`stored-${stored + k}`, stored + k)).flat();
    for (let i = 0; i < docs.length; i += 400) await ingestDocuments(db.prisma, docs.slice(i, i + 400));
    stored += runs;
    await db.prisma.$executeRawUnsafe("ANALYZE");
  };

  /** WRITTEN runs in one batch (new ones, or the same again: a retry); the rows its transaction's reads read, per table. */
  const write = async (prefix: string, expected: "created" | "duplicate" = "created") => {
    const docs = Array.from({ length: WRITTEN }, (_, k) => run(`${prefix}-${k}`, k)).flat();
    const outcomes = await recordReads(recorder.state, () => ingestDocuments(db.prisma, docs));
    expect(outcomes.every((o) => o.status === expected)).toBe(true);
    expect(recorder.state.sent.length).toBeGreaterThan(0);
    return readsOf(url, [...recorder.state.sent]);
  };

  beforeAll(async () => {
    url = await freshPostgresDatabase("ingest_reads");
    recorder = recordingPool(url);
    db = await openDatabase({ pool: recorder.pool });
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    await recorder?.pool.end().catch(() => {});
  });

  it("reads the operation groups and clients of the phases it wrote, not every one stored, and a retry its own keys", async () => {
    await store(N);
    const atN = await write("written-a");
    const retryAtN = await write("written-a", "duplicate");
    await store(3 * N);
    const at4N = await write("written-b");
    const retryAt4N = await write("written-b", "duplicate");
    console.log(JSON.stringify({ atN, at4N, retryAtN, retryAt4N }));
    // A retried batch (its acknowledgement lost) reads its own keys: each phase and client result once.
    expect(retryAtN.client_results).toBeLessThanOrEqual(WRITTEN * 4 * 2 * 2);
    expect(retryAt4N).toEqual(retryAtN);
    // Three operation groups a client, two clients a phase, four phases a run: what the batch wrote, read back once.
    expect(atN.operation_stats).toBeLessThanOrEqual(WRITTEN * 4 * 2 * 3);
    expect(at4N).toEqual(atN);
  }, 600_000);
});
