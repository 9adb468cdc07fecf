import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../api/db/open.js";
import { headlinesOf } from "../../api/store/aggregates/run-headlines.js";
import { settleAggregates } from "../../api/store/aggregates/settle.js";
import { ingestDocuments } from "../../api/store/ingest.js";
import type { ResultDocument } from "../../model/result-document.js";
import { fixtureDocument, type RecordedStore, recordedStore, storedAndServed } from "./api-helpers.js";

// Each run's headline kept on its row (api/store/aggregates/run-headlines.ts, issue 28): the runs explorer and the
// timeline list runs without reading their phases (a /runs page of 100 runs read about 3,600), and answer the same as
// when every headline is counted from the phases; a write not settled yet is counted from the phases, never missed.

/** A load phase and a thread sweep of workload a (2 clients), the last `missing` clients left out for a later write. */
function run(id: string, r: number, missing = 0): ResultDocument[] {
  const docs = [
    { phaseName: "load", kind: "load" as const, threads: 8 },
    ...[4, 8, 16].map((threads) => ({ phaseName: `a-t${threads}`, kind: "workload" as const, threads })),
  ].flatMap((p, i) =>
    ([0, 1] as const).map((client) => {
      const d = fixtureDocument({
        runId: id,
        scenario: "headlines",
        client,
        threads: p.threads,
        phaseName: p.phaseName,
        phaseIndex: i,
        nodes: 1 + (r % 3),
      });
      // The records each phase was given (YCSB recordcount): the run's scale is the most of them.
      d.phase = { ...d.phase, properties: { ...d.phase.properties, recordcount: String(1000 * (i + 1)) } };
      if (p.kind === "load") d.phase = { ...d.phase, kind: "load", workload: "a" };
      const f = 1 + ((r * 7 + i) % 5) / 10;
      d.result.overall = {
        runtimeMs: d.result.overall.runtimeMs / f,
        throughputOpsSec: d.result.overall.throughputOpsSec * f,
      };
      return d;
    }),
  );
  return missing ? docs.slice(0, docs.length - missing) : docs;
}

/** A statement that reads the phases of listed runs (Prisma's include, the records query, the headline's count). */
const READS_RUNS_PHASES = /FROM\s+("public"\.)?"?phases"?\s+(p\s+)?WHERE\s+(("public"\.)?"phases"\.|p\.)?"?run_id"?/i;

describe.each(["pglite", "postgres"] as const)("runs' kept headlines on %s", (kind) => {
  let store: RecordedStore;
  let db: Database;
  let app: FastifyInstance;

  const ask = async (url: string) => {
    const res = await app.inject(`/api/v1${url}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const VIEWS = ["/runs?scenario=headlines&limit=100", "/timeline?scenario=headlines&limit=50"];

  beforeAll(async () => {
    store = await recordedStore(kind, "api_headlines");
    db = store.db;
    app = await storedAndServed(
      db,
      Array.from({ length: 12 }, (_, r) => run(`headline-${r}`, r)),
    );
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await store?.close();
  });

  it("lists runs and the timeline without reading their phases once settled", async () => {
    await settleAggregates(db.prisma);
    for (const view of VIEWS) {
      await store.record(() => ask(view));
      expect(store.sent.length, view).toBeGreaterThan(0);
      expect(
        store.sent.filter((s) => READS_RUNS_PHASES.test(s)),
        view,
      ).toEqual([]);
    }
  });

  it("answers as when every headline is counted from the phases", async () => {
    const kept = await Promise.all(VIEWS.map(ask));
    expect(kept[0].runs).toHaveLength(12);
    expect(kept[0].runs[0]).toMatchObject({ phases: 4, workloads: ["a"], records: 4000 });
    expect(kept[0].runs.every((r: { peak: unknown }) => r.peak !== null)).toBe(true);
    await db.prisma.$executeRawUnsafe("UPDATE runs SET headline = NULL");
    expect(await Promise.all(VIEWS.map(ask))).toEqual(kept);
  });

  it("counts a run written since the last settling from its phases, and keeps it once settled", async () => {
    await settleAggregates(db.prisma);
    // A run whose last phase lacks a client, then that client: its peak moves to the last phase only then.
    await ingestDocuments(db.prisma, run("headline-late", 20, 1));
    await settleAggregates(db.prisma);
    const before = (await headlinesOf(db.prisma, ["headline-late"])).get("headline-late")!;
    await ingestDocuments(db.prisma, run("headline-late", 20).slice(-1));
    const pending = (await headlinesOf(db.prisma, ["headline-late"])).get("headline-late")!;
    expect(pending).not.toEqual(before);
    await settleAggregates(db.prisma);
    const stored = await db.prisma.$queryRawUnsafe<{ headline: unknown }[]>(
      "SELECT headline FROM runs WHERE id = 'headline-late'",
    );
    expect(stored[0]!.headline).toEqual(pending);
    expect((await headlinesOf(db.prisma, ["headline-late"])).get("headline-late")).toEqual(pending);
  });
});
