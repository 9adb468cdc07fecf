import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { laneOf } from "../../api/db/fair-queue.js";
import { type Database, openDatabase } from "../../api/db/open.js";
import { regressions } from "../../api/store/histories.js";
import { ingestDocuments } from "../../api/store/ingest.js";
import { fixtureDocument, freshPostgresDatabase } from "./api-helpers.js";
import { readsOf } from "./plan-rows.js";

// The Regressions view opens on a window of each history (each configuration's newest runs, GET /regressions?last=).
// What a test can state whatever the machine's speed is how many rows the answer's statements read from each table
// (EXPLAIN ANALYZE under the planner's own choices, the tables analyzed): the same with N and 4N runs stored in the
// same configurations, one of them not run since before the others began (a window read newest first across every
// configuration would pass every later run to reach it). Postgres only: the plans are Postgres's (PGlite runs the same planner).

/** Runs per configuration first; then three times as many more. */
const N = 1_000;
/** The window asked for: each configuration's newest runs (the view asks for more; fewer keeps the store small). */
const LAST = 10;
const PRESETS = ["throughput", "balanced", "durable"] as const;
const START = Date.parse("2026-01-01T00:00:00Z");

/** Run r of configuration `preset`: one phase on one client, an hour after run r - 1. */
function seededRun(r: number, preset: (typeof PRESETS)[number]) {
  const doc = fixtureDocument({ runId: `history-${preset}-${r}`, scenario: "history", clients: 1, preset, nodes: 3 });
  doc.run.startedAt = new Date(START + r * 3_600_000).toISOString();
  return doc;
}

/** A configuration not run lately: its LAST runs all started before every other configuration's first. */
function staleRun(k: number) {
  const doc = fixtureDocument({
    runId: `history-stale-${k}`,
    scenario: "history",
    clients: 1,
    preset: "balanced",
    nodes: 5,
  });
  doc.run.startedAt = new Date(START - (LAST - k) * 3_600_000).toISOString();
  return doc;
}

/** A pool that records the reads its clients send while `recording` holds. */
function recordingPool(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const state = { recording: false, sent: [] as { text: string; values: unknown[] }[] };
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as (...a: unknown[]) => unknown;
    (client as unknown as { query: (...a: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const q = args[0] as string | { text: string; values?: unknown[] };
      const text = typeof q === "string" ? q : q.text;
      if (state.recording && laneOf(text) === "read") {
        const values = typeof q === "string" ? (Array.isArray(args[1]) ? args[1] : []) : (q.values ?? []);
        state.sent.push({ text, values });
      }
      return query(...args);
    };
  });
  return { pool, state };
}

describe("the Regressions view's answer reads the same rows with N and 4N runs stored (Postgres)", () => {
  let url: string;
  let db: Database;
  let recorder: ReturnType<typeof recordingPool>;
  let stored = 0;

  const store = async (runs: number) => {
    const docs = Array.from({ length: runs }, (_, k) => PRESETS.map((p) => seededRun(stored + k, p))).flat();
    if (stored === 0) docs.push(...Array.from({ length: LAST }, (_, k) => staleRun(k)));
    for (let i = 0; i < docs.length; i += 400) await ingestDocuments(db.prisma, docs.slice(i, i + 400));
    stored += runs;
    await db.prisma.$executeRawUnsafe("ANALYZE");
  };

  /** The view's first answer (one scenario, every configuration in it, a window of each), and the rows it read. */
  const answer = async () => {
    recorder.state.sent.length = 0;
    recorder.state.recording = true;
    const out = await regressions(db.prisma, { scenario: "history" }, "time", LAST);
    recorder.state.recording = false;
    return { out, reads: await readsOf(url, [...recorder.state.sent]) };
  };

  beforeAll(async () => {
    url = await freshPostgresDatabase("regressions_reads");
    recorder = recordingPool(url);
    db = await openDatabase({ pool: recorder.pool });
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    await recorder?.pool.end().catch(() => {});
  });

  it("reads each configuration's newest runs through an index, not every run it holds", async () => {
    await store(N);
    const atN = await answer();
    await store(3 * N);
    const at4N = await answer();
    console.log(JSON.stringify({ atN: atN.reads, at4N: at4N.reads }));
    // The same answer's meaning: each configuration's newest LAST runs, oldest first.
    for (const { out, newest } of [
      { out: atN.out, newest: N - 1 },
      { out: at4N.out, newest: 4 * N - 1 },
    ]) {
      expect(out.histories.map((h) => `${h.configuration.preset}/${h.configuration.nodes}`).sort()).toEqual(
        [...PRESETS.map((p) => `${p}/3`), "balanced/5"].sort(),
      );
      for (const h of out.histories) {
        const p = h.configuration.preset;
        const window =
          h.configuration.nodes === 5
            ? Array.from({ length: LAST }, (_, k) => `history-stale-${k}`)
            : Array.from({ length: LAST }, (_, k) => `history-${p}-${newest - LAST + 1 + k}`);
        expect(h.runs.map((r) => r.id)).toEqual(window);
      }
    }
    expect(at4N.reads.runs).toBeGreaterThan(0);
    expect(at4N.reads).toEqual(atN.reads);
    // Without a window the history is every run, as before.
    const whole = await regressions(db.prisma, { scenario: "history", preset: "balanced" }, "time");
    expect(whole.histories.map((h) => h.runs.length).sort((a, b) => a - b)).toEqual([LAST, 4 * N]);
  }, 600_000);
});
