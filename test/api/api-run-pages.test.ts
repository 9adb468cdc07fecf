import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../api/db/open.js";
import { ingestDocuments } from "../../api/store/ingest.js";
import { type RunFilters, runWhere } from "../../api/store/queries/filters.js";
import { listRuns } from "../../api/store/queries/runs.js";
import type { ResultDocument } from "../../model/result-document.js";
import { fixtureDocument, type RecordedStore, recordedStore, storedAndServed } from "./api-helpers.js";

// The run pages read as statements shaped as their answers (api/store/queries/runs.ts, series.ts; issue 28: Prisma's
// nested includes sent one statement per relation and assembled them in the API's thread, most of a page's time
// beside a writer). /runs filters in SQL of its own (filters.ts runsWhereSql): it must select, order and count the
// runs Prisma's runWhere selects, for every filter.

const ENGINES = ["cassandra", "mongodb", "couchbase", "hbase"] as const;
const PRESETS = ["throughput", "balanced", "durable"] as const;

/** Twelve runs over engines, presets, node counts, scenarios, machines, workloads, start dates and verdicts. */
function runs(): ResultDocument[][] {
  return Array.from({ length: 12 }, (_, r) =>
    ([0, 1] as const).map((client) => {
      const d = fixtureDocument({
        runId: `page-${String(r).padStart(2, "0")}`,
        client,
        engine: ENGINES[r % 4],
        preset: PRESETS[r % 3],
        nodes: 1 + (r % 3) * 2,
        scenario: r % 2 ? "pages-odd" : "pages-even",
        phaseName: r % 5 === 0 ? "b-t4" : "a-t4",
      });
      d.run.startedAt = new Date(Date.parse("2026-11-01T00:00:00.000Z") + r * 86_400_000).toISOString();
      if (r % 4 === 3) d.run.instanceTypes = { data: "i4i.2xlarge", client: "c7i.2xlarge" };
      if (r % 5 === 0) d.phase = { ...d.phase, workload: "b" };
      if (r === 7) d.run.engineVersion = "4.1.7";
      if (r === 4 && client === 1)
        d.validity = { verdict: "invalid", reasons: [{ code: "errors", message: "25% of operations failed" }] };
      if (r === 9) d.validity = { verdict: "warning", reasons: [{ code: "short", message: "ran 9 s" }] };
      return d;
    }),
  );
}

const FILTERS: RunFilters[] = [
  {},
  { engine: "mongodb" },
  { version: "4.1.7" },
  { preset: "durable" },
  { nodes: 3 },
  { scenario: "pages-odd" },
  { instanceType: "i4i.2xlarge" },
  { instanceType: "c7i.2xlarge" },
  { source: "measured" },
  { source: "published" },
  { workload: "b" },
  { from: "2026-11-05T00:00:00.000Z" },
  { to: "2026-11-05T00:00:00.000Z" },
  { from: "2026-11-03T00:00:00.000Z", to: "2026-11-09T12:00:00.000Z" },
  { verdict: "invalid" },
  { verdict: "warning" },
  { quarantined: "exclude" },
  { quarantined: "only" },
  { engine: "cassandra", nodes: 1, workload: "b", quarantined: "include" },
];

describe.each(["pglite", "postgres"] as const)("the run pages on %s", (kind) => {
  let store: RecordedStore;
  let db: Database;
  let app: FastifyInstance;
  const get = async (url: string) => {
    const res = await app.inject(`/api/v1${url}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    store = await recordedStore(kind, "api_run_pages");
    db = store.db;
    app = await storedAndServed(db, runs());
    const published = fixtureDocument({ runId: "page-published", scenario: "pages-even" });
    published.run.source = { kind: "published", citation: "Lineate (2014)", seed: "002" };
    await ingestDocuments(db.prisma, [published], [], { allowPublished: true });
    await db.prisma.$executeRawUnsafe(
      "UPDATE runs SET quarantined_at = now(), quarantine_reason = 'drill' WHERE id IN ('page-02', 'page-05')",
    );
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await store?.close();
  });

  it.each(FILTERS.map((f) => [JSON.stringify(f), f] as const))(
    "/runs %s selects, orders and counts the runs Prisma's runWhere selects",
    async (_, f) => {
      const expected = await db.prisma.run.findMany({
        where: runWhere(f),
        orderBy: [{ startedAt: "desc" }, { id: "asc" }],
        select: { id: true },
      });
      const all = await listRuns(db.prisma, f, { limit: 100, offset: 0 });
      expect(all.runs.map((r) => r.id)).toEqual(expected.map((r) => r.id));
      expect(all.total).toBe(expected.length);
      // A page in the middle: the same order, cut at the same place.
      const page = await listRuns(db.prisma, f, { limit: 3, offset: 2 });
      expect(page.runs.map((r) => r.id)).toEqual(expected.slice(2, 5).map((r) => r.id));
      expect(page.total).toBe(expected.length);
    },
  );

  it("a filter that selects something selects the runs it names (the cases above are not all empty)", async () => {
    const counts = await Promise.all(
      FILTERS.map(async (f) => (await listRuns(db.prisma, f, { limit: 100, offset: 0 })).total),
    );
    expect(counts.filter((n) => n > 0).length).toBeGreaterThanOrEqual(FILTERS.length - 1);
    expect(counts[FILTERS.findIndex((f) => f.quarantined === "only")]).toBe(2);
    expect(counts[FILTERS.findIndex((f) => f.verdict === "invalid")]).toBe(1);
  });

  /** The statements that read a phase's clients, and whether each also read the phase's other parts. */
  const reading = (table: string) => store.sent.filter((s) => new RegExp(`\\b"?${table}"?\\b`).test(s));

  it("a run's page reads every phase's clients, verdicts and kept groups in one statement", async () => {
    const page = await store.record(() => get("/runs/page-04"));
    expect(page.phases).toHaveLength(1);
    expect(page.phases[0].verdict).toBe("invalid");
    expect(page.phases[0].reasons).toEqual(["25% of operations failed"]);
    expect(Object.keys(page.phases[0].aggregate.operations).length).toBeGreaterThan(0);
    const clients = reading("client_results");
    expect(clients).toHaveLength(1);
    expect(clients[0]).toMatch(/validity_verdicts/);
    expect(clients[0]).toMatch(/phase_operations/);
  });

  it("compare reads the phases of every run compared in one statement", async () => {
    const compared = await store.record(() => get("/compare?runs=page-01,page-04,page-09"));
    expect(compared.runs.map((r: { run: { id: string } }) => r.run.id)).toEqual(["page-01", "page-04", "page-09"]);
    const clients = reading("client_results");
    expect(clients).toHaveLength(1);
    expect(clients[0]).toMatch(/phase_operations/);
  });

  it("a phase's series reads its clients' series and histograms and its merged groups in one statement", async () => {
    const series = await store.record(() => get("/runs/page-01/phases/a-t4/series"));
    expect(series.clients).toHaveLength(2);
    expect(series.clients[0].status.elapsedSec.length).toBeGreaterThan(0);
    const reads = reading("status_series");
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatch(/operation_stats/);
    expect(reads[0]).toMatch(/phase_operations/);
    expect(reading("client_results")).toHaveLength(1);
  });
});
