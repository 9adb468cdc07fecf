import type { FastifyInstance } from "fastify";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../api/build.js";
import { laneOf } from "../../api/db/fair-queue.js";
import { type Database, openDatabase } from "../../api/db/open.js";
import { PGliteOnThread } from "../../api/db/pglite-thread.js";
import { ingestDocuments } from "../../api/store/ingest.js";
import { auth, fixtureDocument, freshPostgresDatabase, testConfig } from "./api-helpers.js";
import { type PlanNode, rowsRead } from "./plan-rows.js";

// One writer beside sixteen viewers (issue 28): every write is in scenario api-test, which every unfiltered view
// includes, so each write drops their kept answers and the next viewer computes each again. At 10,000 runs those
// cold answers cost seconds and the service collapsed (docs/benchmarks.md, bench:api). Timings are bench/api.ts's;
// what a test can state whatever the machine's speed is how much a cold answer reads: here the rows each of its
// statements reads from the tables (EXPLAIN ANALYZE, with every index the planner can use), after one write, at N
// stored runs and again at 4N. An answer cheap at its cause reads the kept groups and what the write touched, never
// every run or phase stored.

/** The unfiltered views the dashboard asks for (the runs explorer's first page as the dashboard asks for it). */
const VIEWS = ["/facets", "/runs?limit=100", "/scaling", "/sweeps", "/repeatability", "/durability"];
const N = 216;

const ENGINES = ["cassandra", "mongodb", "couchbase", "hbase"] as const;
const PRESETS = ["throughput", "balanced", "durable"] as const;

/**
 * Run r: a thread sweep of 4 phases on 2 clients. Every 36 runs cover the same 36 deployments (engine, preset, nodes)
 * and 144 configurations: more runs are more repeats of the same groups, as a fleet's repeated studies are.
 */
function seededRun(r: number) {
  return [4, 8, 16, 32].flatMap((threads, p) =>
    ([0, 1] as const).map((client) =>
      fixtureDocument({
        runId: `viewed-${r}`,
        scenario: "bench-team",
        client,
        phaseName: `a-t${threads}`,
        phaseIndex: p,
        threads,
        engine: ENGINES[r % ENGINES.length],
        preset: PRESETS[Math.floor(r / 4) % PRESETS.length],
        nodes: [1, 3, 5][Math.floor(r / 12) % 3],
        repeat: Math.floor(r / 36) % 3,
      }),
    ),
  );
}

/** A statement as the API sent it. */
interface Sent {
  text: string;
  values: unknown[];
  /** Sent inside an interactive transaction: the recount of the write's groups (api/store/aggregates/settle.ts). */
  inTransaction: boolean;
}

/** A store whose API's statements are recorded while `recording` holds, and re-run under EXPLAIN ANALYZE. */
interface RecordedStore {
  state: { recording: boolean; sent: Sent[] };
  open(): Promise<Database>;
  explain(s: Sent): Promise<PlanNode>;
  close(): Promise<void>;
}

/** Postgres: a pool that records every statement its clients send. */
async function recordedPostgres(): Promise<RecordedStore> {
  const url = await freshPostgresDatabase("api_cold_reads");
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const state = { recording: false, sent: [] as Sent[] };
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as (...a: unknown[]) => unknown;
    let inTransaction = false;
    (client as unknown as { query: (...a: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const q = args[0] as string | { text: string; values?: unknown[] };
      const text = typeof q === "string" ? q : q.text;
      if (/^\s*BEGIN\b/i.test(text)) inTransaction = true;
      if (state.recording) {
        const values = typeof q === "string" ? (Array.isArray(args[1]) ? args[1] : []) : (q.values ?? []);
        state.sent.push({ text, values, inTransaction });
      }
      if (/^\s*(COMMIT|ROLLBACK)\b/i.test(text)) inTransaction = false;
      return query(...args);
    };
  });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    state,
    open: () => openDatabase({ pool }),
    async explain(s) {
      await client.query("BEGIN");
      await client.query("SET LOCAL enable_seqscan = off");
      const res = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${s.text}`, s.values);
      await client.query("ROLLBACK");
      return (res.rows[0] as { "QUERY PLAN": { Plan: PlanNode }[] })["QUERY PLAN"][0]!.Plan;
    },
    close: async () => {
      await client.end();
      await pool.end().catch(() => {});
    },
  };
}

/**
 * PGlite in memory: its `query` recorded as the API's thread sends it (api/db/pglite-thread.ts) (statements outside a transaction; a transaction's go through the `tx` it
 * hands its callback), each re-run in a transaction of its own on the same instance.
 */
async function recordedPglite(): Promise<RecordedStore> {
  const state = { recording: false, sent: [] as Sent[] };
  const original = PGliteOnThread.prototype.query;
  let instance: PGliteOnThread | undefined;
  type Query = (this: PGliteOnThread, sql: string, params?: unknown[], options?: unknown) => Promise<unknown>;
  const recording: Query = function (sql, params, options) {
    instance = this;
    if (state.recording) state.sent.push({ text: sql, values: params ?? [], inTransaction: false });
    return original.call(this, sql, params, options as never);
  };
  PGliteOnThread.prototype.query = recording as PGliteOnThread["query"];
  return {
    state,
    open: () => openDatabase({}),
    async explain(s) {
      const res = await instance!.transaction(async (tx) => {
        await tx.exec("SET LOCAL enable_seqscan = off");
        const r = await tx.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${s.text}`, s.values);
        await tx.rollback();
        return r;
      });
      return (res.rows[0] as { "QUERY PLAN": { Plan: PlanNode }[] })["QUERY PLAN"][0]!.Plan;
    },
    close: async () => {
      PGliteOnThread.prototype.query = original;
    },
  };
}

/**
 * The rows the read statements of one answer read, per table: each re-run under EXPLAIN ANALYZE with sequential scans
 * off, so a statement reads every row only when no index can answer it (a small table is never read whole merely
 * because the planner found that cheaper). Left out: statements that write (the fold of the write's counts, which
 * reads the changes it logged) and the recount of the write's own groups, in its transaction (the kept aggregates'
 * recount, api/store/aggregates/groups.ts, reads every phase of a group it recomputes; making it incremental is that
 * module's own work).
 */
async function readsOf(store: RecordedStore, statements: readonly Sent[]): Promise<Record<string, number>> {
  const into = new Map<string, number>();
  for (const s of statements) {
    if (laneOf(s.text) !== "read" || s.inTransaction) continue;
    rowsRead(await store.explain(s), into);
  }
  return Object.fromEntries([...into].filter(([, n]) => n > 0).sort(([a], [b]) => a.localeCompare(b)));
}

const STORES = { postgres: recordedPostgres, pglite: recordedPglite };

describe.each(Object.keys(STORES) as (keyof typeof STORES)[])(
  "a cold answer of each unfiltered view after one write reads the same rows at N and at 4N runs (%s)",
  (kind) => {
    let db: Database;
    let app: FastifyInstance;
    let recorder: RecordedStore;
    let stored = 0;
    let writes = 0;

    const store = async (runs: number) => {
      const docs = Array.from({ length: runs }, (_, k) => seededRun(stored + k)).flat();
      for (let i = 0; i < docs.length; i += 400) await ingestDocuments(db.prisma, docs.slice(i, i + 400));
      stored += runs;
      await db.prisma.$executeRawUnsafe("ANALYZE");
    };

    /**
     * Every view asked once (the groups recounted, the answers kept), then one phase posted as the writer does. The
     * previous round's written run is deleted first: each write is the one phase of its configuration, so what the
     * recount of the write's own groups reads is the same in both rounds.
     */
    const warmThenWrite = async () => {
      if (writes > 0) {
        const gone = await app.inject({ method: "DELETE", url: `/api/v1/runs/written-${writes - 1}`, headers: auth });
        expect(gone.statusCode, gone.body).toBe(200);
      }
      for (const view of VIEWS) expect((await app.inject(`/api/v1${view}`)).statusCode, view).toBe(200);
      const runId = `written-${writes++}`;
      const body = ([0, 1] as const).map((client) =>
        fixtureDocument({ runId, client, nodes: 7, scenario: "api-test" }),
      );
      const res = await app.inject({ method: "POST", url: "/api/v1/results", headers: auth, payload: body });
      expect(res.statusCode, res.body).toBe(201);
    };

    /** Rows read per view and table by each view's answer computed right after the write. */
    const coldReads = async () => {
      const out: Record<string, Record<string, number>> = {};
      for (const view of VIEWS) {
        recorder.state.sent.length = 0;
        recorder.state.recording = true;
        const res = await app.inject(`/api/v1${view}`);
        recorder.state.recording = false;
        expect(res.statusCode, view).toBe(200);
        // Computed for this request: the write dropped the answer kept before it.
        expect(res.headers["x-cache"], view).toBe("miss");
        // Its statements were recorded (a recorder that saw none would find every view reading nothing).
        expect(recorder.state.sent.length, view).toBeGreaterThan(0);
        out[view] = await readsOf(recorder, [...recorder.state.sent]);
      }
      return out;
    };

    beforeAll(async () => {
      recorder = await STORES[kind]();
      db = await recorder.open();
      app = await buildApp(testConfig(), { database: db, logLevel: "silent" });
      await app.ready();
    }, 120_000);
    afterAll(async () => {
      await app?.close();
      await db?.close();
      await recorder?.close();
    });

    it("reads the kept groups and what the write touched, not every run or phase", async () => {
      await store(N);
      await warmThenWrite();
      const atN = await coldReads();
      await store(3 * N);
      await warmThenWrite();
      const at4N = await coldReads();
      // The runs are there: 4N seeded, and the last one written.
      expect(await db.prisma.run.count({ where: { scenario: "bench-team" } })).toBe(4 * N);
      expect(await db.prisma.run.count({ where: { scenario: "api-test" } })).toBe(1);
      // The marks a write appends (dirty_groups: its configuration, its peak group and its run) are read by key, and
      // whether they are still there depends on whether the background settler (a round a second) has taken them yet:
      // at most those three, at either size. CI once read the run's mark at N and found it taken at 4N.
      const marksRead = (reads: Record<string, Record<string, number>>) =>
        Object.values(reads).map((tables) => tables.dirty_groups ?? 0);
      for (const n of [...marksRead(atN), ...marksRead(at4N)]) expect(n).toBeLessThanOrEqual(3);
      const withoutMarks = (reads: Record<string, Record<string, number>>) =>
        Object.fromEntries(Object.entries(reads).map(([view, { dirty_groups: _marks, ...tables }]) => [view, tables]));
      // Per view, per table: the same rows read with four times the runs stored.
      expect(withoutMarks(at4N)).toEqual(withoutMarks(atN));
    }, 600_000);
  },
);
