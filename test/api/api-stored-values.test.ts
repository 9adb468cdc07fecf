import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../api/build.js";
import { type Database, openDatabase } from "../../api/db/open.js";
import { rebuildAggregates } from "../../api/store/aggregates/rebuild.js";
import { clientHistograms, createHistogram, decodeHistogram, encodeHistogram } from "../../model/hdr/index.js";
import { auth, fixtureDocument, fixtureHdr, freshPostgresDatabase, testConfig } from "./api-helpers.js";

/** A client's READ histogram re-recorded at another precision (2 significant digits instead of YCSB's 3). */
function coarser(encoded: string): string {
  const fine = decodeHistogram(encoded);
  const coarse = createHistogram(
    { lowestDiscernibleValue: 1, numberOfSignificantValueDigits: 2 },
    fine.highestTrackableValue,
  );
  for (let i = 0; i < fine.countsArrayLength; i++) {
    const count = fine.getCountAtIndex(i);
    if (count > 0) coarse.recordValueWithCount(fine.valueFromIndex(i), count);
  }
  return encodeHistogram(coarse);
}

// Whatever is stored (written by an older version, by hand, or by a bug), every view answers: a value outside the
// contract reads as unknown, never as a 500 (DESIGN.md: a stored value can never make a view fail).
describe.each(["pglite", "postgres"] as const)("every view survives any stored value on %s", (kind) => {
  let db: Database;
  let app: FastifyInstance;
  const sql = (text: string) => db.prisma.$executeRawUnsafe(text);

  const histograms = (c: 0 | 1) =>
    clientHistograms(["READ", "UPDATE"].map((operation) => ({ operation, text: fixtureHdr("hdr-v2", c, operation) })));
  const twoClients = (runId: string, o: Partial<Parameters<typeof fixtureDocument>[0]> = {}) =>
    ([0, 1] as const).map((c) => ({
      ...fixtureDocument({ runId, client: c, scenario: "stored-values", ...o }),
      hdrHistograms: histograms(c),
    }));

  beforeAll(async () => {
    const url = kind === "postgres" ? await freshPostgresDatabase("api_stored_values") : undefined;
    db = await openDatabase(url ? { databaseUrl: url } : {});
    app = await buildApp(testConfig(), { database: db, logLevel: "silent" });
    const runs = [
      "sv-ok",
      "sv-huge",
      "sv-nonfinite",
      "sv-json",
      "sv-histogram",
      "sv-precision",
      "sv-index",
      "sv-phase",
    ];
    for (const [i, id] of runs.entries()) {
      for (const threads of [4, 8]) {
        const r = await app.inject({
          method: "POST",
          url: "/api/v1/results",
          headers: auth,
          payload: twoClients(id, { nodes: 1 + (i % 3), threads, phaseName: `a-t${threads}`, phaseIndex: threads }),
        });
        expect(r.statusCode, r.body).toBe(201);
      }
    }
    const ops = (runId: string) => `client_result_id IN (SELECT id FROM client_results WHERE run_id = '${runId}')`;
    // Values no document may carry any more, as a hand edit or an older version could have stored them.
    await sql(
      `UPDATE operation_stats SET avg_us = 1e308, min_us = 1e308, count = 9223372036854775807 WHERE ${ops("sv-huge")}`,
    );
    await sql(`UPDATE client_results SET throughput_ops_sec = 1e308, runtime_ms = 1e308 WHERE run_id = 'sv-huge'`);
    await sql(`UPDATE phases SET throughput_sum = 1e308 WHERE run_id = 'sv-huge'`);
    await sql(
      `UPDATE operation_stats SET avg_us = 'NaN', max_us = 'Infinity', min_us = '-Infinity' WHERE ${ops("sv-nonfinite")}`,
    );
    await sql(
      `UPDATE client_results SET throughput_ops_sec = 'Infinity', runtime_ms = 'NaN' WHERE run_id = 'sv-nonfinite'`,
    );
    await sql(`UPDATE phases SET throughput_sum = 'NaN', target = 'Infinity' WHERE run_id = 'sv-nonfinite'`);
    await sql(
      `UPDATE operation_stats SET percentiles_us = '{"99": "slow", "abc": null, "50": -3}', histogram_buckets = '{"not": "a list"}', returns = '7' WHERE ${ops("sv-json")}`,
    );
    await sql(`UPDATE status_series SET points = '"text"' WHERE ${ops("sv-json")}`);
    await sql(`UPDATE validity_verdicts SET reasons = '"x"', verdict = 'odd' WHERE ${ops("sv-json")}`);
    await sql(`UPDATE phases SET properties = 'null' WHERE run_id = 'sv-json'`);
    await sql(
      `UPDATE operation_stats SET hdr_histogram = 'not a histogram at all' WHERE operation = 'READ' AND ${ops("sv-histogram")}`,
    );
    // Two clients of one phase whose histograms differ in precision (3 and 2 significant digits).
    const [read1] = await db.prisma.$queryRawUnsafe<{ id: number; h: string }[]>(
      `SELECT o.client_result_id AS id, o.hdr_histogram AS h FROM operation_stats o JOIN client_results c ON c.id = o.client_result_id WHERE c.run_id = 'sv-precision' AND c.client_index = 1 AND o.operation = 'READ' LIMIT 1`,
    );
    await db.prisma
      .$executeRaw`UPDATE operation_stats SET hdr_histogram = ${coarser(read1!.h)} WHERE client_result_id = ${read1!.id} AND operation = 'READ'`;
    // Clients 0 and 5 of a 2-client phase (stored before client indexes were checked).
    await sql(`UPDATE client_results SET client_index = 5 WHERE run_id = 'sv-index' AND client_index = 1`);
    await sql(`UPDATE phases SET clients_reported = 2 WHERE run_id = 'sv-index'`);
    await sql(`UPDATE phases SET clients = 0, threads_per_client = 0 WHERE run_id = 'sv-phase'`);
    // As a store an older version wrote is opened: the aggregates ingest keeps are rebuilt from what is stored.
    await sql(`DELETE FROM aggregate_versions`);
    expect(await rebuildAggregates(db.prisma)).toEqual(["phase-operations", "groups", "run-headlines"]);
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  const views = [
    "/api/v1/runs",
    "/api/v1/runs?format=csv",
    "/api/v1/runs?limit=1000&verdict=valid",
    "/api/v1/scaling",
    "/api/v1/scaling?format=csv",
    "/api/v1/durability",
    "/api/v1/durability?format=csv",
    "/api/v1/sweeps",
    "/api/v1/sweeps?format=csv",
    "/api/v1/repeatability",
    "/api/v1/anova",
    "/api/v1/compare?runs=sv-ok,sv-huge,sv-nonfinite,sv-json,sv-histogram,sv-precision,sv-index,sv-phase",
    "/api/v1/compare?runs=sv-huge,sv-nonfinite,sv-json&format=csv",
    ...["sv-ok", "sv-huge", "sv-nonfinite", "sv-json", "sv-histogram", "sv-precision", "sv-index", "sv-phase"].flatMap(
      (id) => [`/api/v1/runs/${id}`, `/api/v1/runs/${id}?format=csv`, `/api/v1/runs/${id}/phases/a-t4/series`],
    ),
  ];
  it.each(views)("GET %s answers 200", async (url) => {
    const r = await app.inject({ url });
    expect(r.statusCode, r.body.slice(0, 300)).toBe(200);
    if (!url.includes("format=csv")) expect(() => JSON.parse(r.body)).not.toThrow();
  });

  it("values outside the contract read as unknown, and a client numbered outside 0..N-1 leaves its phase incomplete", async () => {
    const huge = (await app.inject({ url: "/api/v1/runs/sv-huge" })).json();
    for (const p of huge.phases) {
      expect(p.aggregate.operations.READ?.avgUs ?? null).toBeNull();
      expect(p.aggregate.throughputOpsSec).toBeLessThan(1e12);
      expect(p.aggregate.complete).toBe(false);
    }
    const index = (await app.inject({ url: "/api/v1/runs/sv-index" })).json();
    expect(index.phases.map((p: { aggregate: { complete: boolean } }) => p.aggregate.complete)).toEqual([false, false]);
    // Nor do such phases count as complete in the aggregate views.
    const scaling = (await app.inject({ url: "/api/v1/scaling?scenario=stored-values" })).json();
    for (const s of scaling.series) for (const p of s.points) expect(p.throughputOpsSec).toBeLessThan(1e12);
  });

  it("two clients whose histograms differ in precision merge at the coarser one", async () => {
    const r = (await app.inject({ url: "/api/v1/runs/sv-precision" })).json();
    const read = r.phases.find((p: { phase: { name: string } }) => p.phase.name === "a-t4").aggregate.operations.READ;
    expect(read.percentileMethod).toBe("merged-hdr");
    const ok = (await app.inject({ url: "/api/v1/runs/sv-ok" })).json().phases[0].aggregate.operations.READ;
    // Within the coarser histogram's resolution (2 significant digits: 1%) of the same data at full precision.
    expect(Math.abs(read.percentilesUs["99"] - ok.percentilesUs["99"]) / ok.percentilesUs["99"]).toBeLessThan(0.02);
    const series = (await app.inject({ url: "/api/v1/runs/sv-precision/phases/a-t4/series" })).json();
    expect(series.latency.READ.count).toBe(read.count);
  });

  it("a histogram that does not decode falls back to the clients' own percentiles, labelled", async () => {
    const r = (await app.inject({ url: "/api/v1/runs/sv-histogram" })).json();
    expect(r.phases[0].aggregate.operations.READ.percentileMethod).toBe("max-of-clients");
    expect(r.phases[0].aggregate.operations.UPDATE.percentileMethod).toBe("merged-hdr");
  });
});
