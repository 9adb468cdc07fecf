import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../api/build.js";
import { type Database, openDatabase } from "../api/db/open.js";
import { ingestDocuments } from "../api/store/ingest.js";
import { auth, fixtureDocument, freshPostgresDatabase, testConfig } from "./api-helpers.js";

// One writer beside the dashboard's viewers on Postgres (issue 28): with one 2-client phase posted a second, every
// write dropped every cached answer, sixteen viewers recomputing /durability and /sweeps took the pool's connections,
// and pool timeouts became 503 "database unavailable" on a healthy database, /health included, while the writer
// waited up to 21.6 s per POST. What must hold whatever the machine's speed (timings are bench/api.ts's): no answer
// refused, every write acknowledged and stored once, /health answering throughout.

/** The seeded runs: each a thread sweep of 4 phases on 2 clients, over engines and cluster sizes (as bench/api.ts). */
const SEEDED_RUNS = 240;
const WRITES = 8;
const VIEWERS = 12;
/** The heavy views read over every phase stored; unfiltered, each write changes (and drops) their answers. */
const VIEWED = ["/api/v1/durability", "/api/v1/sweeps", "/api/v1/repeatability", "/health"];

const ENGINES = ["cassandra", "mongodb", "couchbase", "hbase"] as const;
const PRESETS = ["throughput", "balanced", "durable"] as const;

function seededRun(r: number) {
  return [4, 8, 16, 32].flatMap((threads, p) =>
    ([0, 1] as const).map((client) =>
      fixtureDocument({
        runId: `viewed-${r}`,
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

interface Answer {
  path: string;
  status: number;
  body: string;
}

describe("one writer posting a 2-client phase a second beside viewers of the heavy views (Postgres)", () => {
  let db: Database;
  let app: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    const url = await freshPostgresDatabase("api_writer_viewers");
    // As served: the default pool, the default compute slots, the response cache on.
    db = await openDatabase({ databaseUrl: url });
    const docs = Array.from({ length: SEEDED_RUNS }, (_, r) => seededRun(r)).flat();
    for (let i = 0; i < docs.length; i += 400) await ingestDocuments(db.prisma, docs.slice(i, i + 400));
    app = await buildApp(testConfig(), { database: db, logLevel: "silent" });
    base = await app.listen({ host: "127.0.0.1", port: 0 });
  }, 300_000);
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  it("every write is acknowledged and stored once, no view is refused, and /health answers 200 throughout", async () => {
    const answers: Answer[] = [];
    const health: Answer[] = [];
    const get = async (path: string, into: Answer[]) => {
      try {
        const res = await fetch(`${base}${path}`);
        into.push({ path, status: res.status, body: await res.text() });
      } catch (err) {
        into.push({ path, status: 0, body: String(err) });
      }
    };
    let writing = true;
    const writes: { runId: string; status: number; body: string }[] = [];
    const writer = async () => {
      for (let n = 0; n < WRITES; n++) {
        const started = performance.now();
        const runId = `written-${n}`;
        // A phase of a run that every unfiltered view covers: each write drops their cached answers.
        const body = JSON.stringify(
          seededRun(n)
            .slice(0, 2)
            .map((d) => ({ ...d, run: { ...d.run, id: runId } })),
        );
        const res = await fetch(`${base}/api/v1/results`, {
          method: "POST",
          body,
          headers: { ...auth, "content-type": "application/json" },
        });
        writes.push({ runId, status: res.status, body: await res.text() });
        // One phase a second, as a fleet finishing phases posts them (a pace, not a measurement).
        await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (performance.now() - started))));
      }
      writing = false;
    };
    const viewer = async (v: number) => {
      // Each viewer starts on another view, so every view is asked for at once from the first write on.
      for (let k = v; writing; k++) await get(VIEWED[k % VIEWED.length]!, answers);
    };
    const prober = async () => {
      while (writing) {
        await get("/health", health);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    await Promise.all([writer(), prober(), ...Array.from({ length: VIEWERS }, (_, v) => viewer(v))]);

    // Every write acknowledged as created, both of its documents.
    expect(writes.map((w) => [w.runId, w.status, w.status === 201 ? JSON.parse(w.body).created : w.body])).toEqual(
      Array.from({ length: WRITES }, (_, n) => [`written-${n}`, 201, 2]),
    );
    // Stored once: one phase and two client results per written run, and nothing else added.
    const stored = await db.prisma.$queryRaw<{ run_id: string; phases: number; clients: number }[]>`
      SELECT p.run_id, count(DISTINCT p.id)::int AS phases, count(c.id)::int AS clients
      FROM phases p JOIN client_results c ON c.phase_id = p.id WHERE p.run_id LIKE 'written-%' GROUP BY p.run_id ORDER BY p.run_id`;
    expect(stored).toEqual(
      Array.from({ length: WRITES }, (_, n) => ({ run_id: `written-${n}`, phases: 1, clients: 2 })).sort((a, b) =>
        a.run_id.localeCompare(b.run_id),
      ),
    );
    expect(await db.prisma.clientResult.count()).toBe(SEEDED_RUNS * 8 + WRITES * 2);

    // The viewers were there throughout: every view was asked for while the writes went on, and none was refused.
    for (const path of VIEWED) expect(answers.filter((a) => a.path === path).length, path).toBeGreaterThan(0);
    const refused = answers.filter((a) => a.status !== 200).map((a) => `${a.path} ${a.status} ${a.body.slice(0, 200)}`);
    expect(refused).toEqual([]);
    expect(answers.filter((a) => a.body.includes("database unavailable"))).toEqual([]);
    // /health, asked every 100 ms from the first write to the last, answered 200 each time.
    expect(health.length).toBeGreaterThan(0);
    expect(health.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.body}`)).toEqual([]);

    // The answers after the last write see it: an answer kept from before a write would miss its run.
    const runs = await fetch(`${base}/api/v1/runs`).then((r) => r.json() as Promise<{ total: number }>);
    expect(runs.total).toBe(SEEDED_RUNS + WRITES);
  }, 300_000);
});
