import type { FastifyInstance } from "fastify";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../api/build.js";
import { type Database, openDatabase } from "../../api/db/open.js";
import { settleAggregates } from "../../api/store/aggregates/settle.js";
import { ingestDocuments } from "../../api/store/ingest.js";
import { fixtureDocument, freshPostgresDatabase, testConfig } from "./api-helpers.js";
import { type PlanNode, recordingPool } from "./plan-rows.js";

// A page of the runs explorer deep in the list (the team table's viewers open any of its 100 pages): the page's keys
// are read from the runs' newest-first index, then its runs by key (api/store/queries/runs.ts listRuns). Sorting every
// run's full row to find the page cost the server 14-23 ms per page at 10,000 runs, the most of any view beside a writer
// (docs/benchmarks.md). What a test can state whatever the machine's speed: the whole rows of runs the statement
// finding the page reads (EXPLAIN ANALYZE). The table is vacuumed with its rows frozen, as a table of runs stored days
// ago is, so the visibility map vouches for every page (vacuumed just after ingest, half its pages were not marked
// all-visible). Sequential scans are off, as at 10,000 runs, where the planner reads the index: at this
// test's 1,200 runs it would rather read the small table whole.

const RUNS = 1_200;
const LIMIT = 100;

/**
 * Whole rows of `table` a plan reads: what its heap scans return and filter away. An index-only scan reads index
 * entries (and checks a heap page's visibility where the visibility map cannot vouch for it), never a row's columns.
 */
function wholeRows(node: PlanNode, table: string): number {
  let n = 0;
  if (node["Relation Name"] === table && node["Node Type"] !== "Index Only Scan")
    n += ((node["Actual Rows"] ?? 0) + (node["Rows Removed by Filter"] ?? 0)) * (node["Actual Loops"] ?? 1);
  for (const child of node.Plans ?? []) n += wholeRows(child, table);
  return n;
}

describe("a deep page of the runs explorer (Postgres)", () => {
  let url: string;
  let pool: pg.Pool;
  let db: Database;
  let app: FastifyInstance;
  let state: ReturnType<typeof recordingPool>["state"];

  beforeAll(async () => {
    url = await freshPostgresDatabase("api_runs_page_reads");
    ({ pool, state } = recordingPool(url, { anywhere: true }));
    db = await openDatabase({ pool });
    // One phase of one client per run, each a day apart: the newest-first order is the start times'.
    const docs = Array.from({ length: RUNS }, (_, r) => {
      const doc = fixtureDocument({ runId: `paged-${String(r).padStart(5, "0")}`, client: 0, clients: 1 });
      doc.run.startedAt = new Date(Date.UTC(2020, 0, 1) + r * 86_400_000).toISOString();
      return doc;
    });
    for (let i = 0; i < docs.length; i += 400) await ingestDocuments(db.prisma, docs.slice(i, i + 400));
    await settleAggregates(db.prisma);
    await pool.query("VACUUM (FREEZE, ANALYZE) runs");
    app = await buildApp(testConfig({ responseCache: false }), { database: db, logLevel: "silent" });
    await app.ready();
  }, 300_000);
  afterAll(async () => {
    await app?.close();
    await db?.close();
    await pool?.end().catch(() => {});
  });

  it("reads the whole rows of the page's runs, not of every run before it", async () => {
    // The statement that finds the page (the others look its runs up by key).
    const offset = RUNS - LIMIT;
    state.sent.length = 0;
    state.recording = true;
    const res = await app.inject(`/api/v1/runs?limit=${LIMIT}&offset=${offset}`);
    state.recording = false;
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as { total: number; runs: { id: string }[] };
    // The oldest hundred, newest first: the page is the right one.
    expect(page.total).toBe(RUNS);
    expect(page.runs.map((r) => r.id)).toEqual(
      Array.from({ length: LIMIT }, (_, i) => `paged-${String(LIMIT - 1 - i).padStart(5, "0")}`),
    );
    const finding = state.sent.filter((s) => /ORDER BY r\.started_at DESC/.test(s.text));
    expect(finding).toHaveLength(1);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    let read = 0;
    try {
      for (const s of finding) {
        await client.query("BEGIN");
        await client.query("SET LOCAL enable_seqscan = off");
        const res = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${s.text}`, s.values);
        await client.query("ROLLBACK");
        const n = wholeRows((res.rows[0] as { "QUERY PLAN": { Plan: PlanNode }[] })["QUERY PLAN"][0]!.Plan, "runs");
        read += n;
      }
    } finally {
      await client.end();
    }
    // The page's runs by key. Sorting every run's row to find the page read all 1,200.
    expect(read).toBe(LIMIT);
  }, 120_000);
});
