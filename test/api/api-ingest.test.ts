import { readdirSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../api/build.js";
import { type Database, openDatabase } from "../../api/db/open.js";
import { durability } from "../../api/store/queries/durability.js";
import { clientHistograms, mergeHdrLogs } from "../../model/hdr/index.js";
import { auth, fixtureDocument, fixtureHdr, fixtureOutput, freshPostgresDatabase, testConfig } from "./api-helpers.js";

async function counts(db: Database) {
  const p = db.prisma;
  const [runs, phases, clients, ops, series, hdr, verdicts] = await Promise.all([
    p.run.count(),
    p.phase.count(),
    p.clientResult.count(),
    p.operationStat.count(),
    p.statusSeries.count(),
    // HDR log references, a JSON column of each client result (migration 20261219000000_hdr_logs_column).
    p.$queryRaw<
      { n: number }[]
    >`SELECT coalesce(sum(json_array_length(hdr_logs)), 0)::int AS n FROM client_results`.then((r) => Number(r[0]!.n)),
    p.validityVerdict.count(),
  ]);
  return { runs, phases, clients, ops, series, hdr, verdicts };
}

describe.each(["pglite", "postgres"] as const)("results API on %s", (kind) => {
  let db: Database;
  let app: FastifyInstance;
  let url: string | undefined;

  beforeAll(async () => {
    url = kind === "postgres" ? await freshPostgresDatabase("api_ingest") : undefined;
    db = await openDatabase(url ? { databaseUrl: url } : {});
    app = await buildApp(testConfig(), { database: db, logLevel: "silent" });
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  const post = (body: unknown, headers: Record<string, string> = auth) =>
    app.inject({ method: "POST", url: "/api/v1/results", payload: body as object, headers });

  it("applied the committed migrations", async () => {
    // Every migration committed under prisma/migrations, in order: a new one that is not applied fails here.
    const committed = readdirSync(new URL("../../prisma/migrations/", import.meta.url), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect(committed.length).toBeGreaterThanOrEqual(8);
    expect(db.appliedMigrations).toEqual(committed);
  });

  it("stores a document once, however often it is sent", async () => {
    const doc = fixtureDocument({ runId: "run-once", client: 0 });
    const first = await post(doc);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ created: 1, duplicates: 0, conflicts: 0 });
    const after1 = await counts(db);
    const again = await post(doc);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ created: 0, duplicates: 1 });
    expect(await counts(db)).toEqual(after1);
    const ops = Object.keys(doc.result.operations).length;
    expect(await db.prisma.operationStat.count({ where: { clientResult: { runId: "run-once" } } })).toBe(ops);
  });

  it("stores one copy when the same document arrives twice at once", async () => {
    const doc = fixtureDocument({ runId: "run-race", client: 1 });
    const rs = await Promise.all([post(doc), post(doc), post([doc, doc])]);
    const created = rs.reduce((a, r) => a + r.json().created, 0);
    expect(created).toBe(1);
    expect(await db.prisma.clientResult.count({ where: { runId: "run-race" } })).toBe(1);
    expect(await db.prisma.operationStat.count({ where: { clientResult: { runId: "run-race" } } })).toBe(
      Object.keys(doc.result.operations).length,
    );
  });

  it("stores one copy when two processes ingest at once", async () => {
    // Postgres: a second app with its own connection pool, as a second API process would have.
    const db2 = url ? await openDatabase({ databaseUrl: url }) : db;
    const app2 = await buildApp(testConfig(), { database: db2, logLevel: "silent" });
    try {
      const docs = [0, 1].map((c) => fixtureDocument({ runId: "run-two-procs", client: c as 0 | 1 }));
      const rs = await Promise.all([
        app.inject({ method: "POST", url: "/api/v1/results", payload: docs, headers: auth }),
        app2.inject({ method: "POST", url: "/api/v1/results", payload: [...docs].reverse(), headers: auth }),
        app2.inject({ method: "POST", url: "/api/v1/results", payload: docs[1], headers: auth }),
      ]);
      for (const r of rs) expect([200, 201]).toContain(r.statusCode);
      expect(rs.reduce((a, r) => a + r.json().created, 0)).toBe(2);
      expect(await db.prisma.clientResult.count({ where: { runId: "run-two-procs" } })).toBe(2);
      expect(await db.prisma.phase.count({ where: { runId: "run-two-procs" } })).toBe(1);
      // The phase totals kept under a row lock saw both clients, whichever process stored which.
      const phase = await db.prisma.phase.findFirstOrThrow({ where: { runId: "run-two-procs" } });
      expect(phase.clientsReported).toBe(2);
      expect(phase.throughputSum).toBeCloseTo(
        docs[0]!.result.overall.throughputOpsSec + docs[1]!.result.overall.throughputOpsSec,
        6,
      );
    } finally {
      await app2.close();
      if (db2 !== db) await db2.close();
    }
  });

  describe("bad input: 400 naming the field, nothing written", () => {
    const cases: [string, (d: Record<string, any>) => unknown, RegExp][] = [
      ["wrong type", (d) => ((d.run.nodes = "4"), d), /^\/run\/nodes$/],
      ["missing field", (d) => (delete d.phase.name, d), /^\/phase\/name$/],
      ["unknown field", (d) => ((d.run.color = "red"), d), /^\/run\/color$/],
      ["negative count", (d) => ((d.result.operations.READ.count = -1), d), /^\/result\/operations\/READ\/count$/],
      ["huge string", (d) => ((d.run.scenario = "x".repeat(500_000)), d), /^\/run\/scenario$/],
      ["SQL in an id", (d) => ((d.run.id = "x'; DROP TABLE runs; --"), d), /^\/run\/id$/],
      ["bad date", (d) => ((d.startedAt = "yesterday"), d), /^\/startedAt$/],
      [
        "status series columns of unequal length",
        (d) => (d.result.statusSeries.elapsedSec.push(99), d),
        /^\/result\/statusSeries\//,
      ],
      ["not a histogram", (d) => ((d.hdrHistograms = { READ: "SGVsbG8sIHdvcmxkIQ==" }), d), /^\/hdrHistograms\/READ$/],
      [
        "one bad document in a batch",
        (d) => [fixtureDocument({ runId: "batch-ok" }), ((d.phase.threadsPerClient = 0), d)],
        /^\/1\/phase\/threadsPerClient$/,
      ],
    ];
    it.each(cases)("%s", async (_name, mutate, field) => {
      const before = await counts(db);
      const body = mutate(structuredClone(fixtureDocument({ runId: "bad-input" })) as Record<string, any>);
      const r = await post(body);
      expect(r.statusCode, r.body).toBe(400);
      const json = r.json();
      expect(
        json.fields.some((f: { path: string }) => field.test(f.path)),
        JSON.stringify(json.fields),
      ).toBe(true);
      expect(json.message).toContain(json.fields[0].path);
      expect(await counts(db)).toEqual(before);
    });

    it("a body over the size limit is refused with 413", async () => {
      const before = await counts(db);
      const doc = fixtureDocument({ runId: "too-big" });
      doc.result.unknownLines = Array.from({ length: 40_000 }, (_, i) => `line ${i} ${"y".repeat(60)}`);
      const r = await post(doc);
      expect(r.statusCode).toBe(413);
      expect(await counts(db)).toEqual(before);
    });

    it("SQL-looking text in a free-text field is stored verbatim, as data", async () => {
      const doc = fixtureDocument({ runId: "sql-text", scenario: "a'); DROP TABLE client_results; --" });
      expect((await post(doc)).statusCode).toBe(201);
      const stored = await db.prisma.run.findUnique({ where: { id: "sql-text" } });
      expect(stored?.scenario).toBe("a'); DROP TABLE client_results; --");
      expect(await db.prisma.clientResult.count()).toBeGreaterThan(0);
    });

    it("a run id reused with another engine is a 409 and writes nothing", async () => {
      const before = await counts(db);
      const r = await post(fixtureDocument({ runId: "run-once", client: 1, engine: "hbase" }));
      expect(r.statusCode).toBe(409);
      expect(r.json().message).toMatch(/engine/);
      expect(await counts(db)).toEqual(before);
    });
  });

  it("writes need the bearer token; reads are open", async () => {
    const doc = fixtureDocument({ runId: "no-token" });
    expect((await post(doc, {})).statusCode).toBe(401);
    expect((await post(doc, { authorization: "Bearer wrong-token-0123456789" })).statusCode).toBe(401);
    expect((await app.inject({ url: "/api/v1/runs" })).statusCode).toBe(200);
    expect(await db.prisma.run.count({ where: { id: "no-token" } })).toBe(0);
  });

  it("aggregates a phase: throughput summed over clients, percentiles labelled max-of-clients without histograms", async () => {
    const docs = [0, 1].map((c) => fixtureDocument({ runId: "run-agg", client: c as 0 | 1 }));
    expect((await post(docs)).statusCode).toBe(201);
    const r = await app.inject({ url: "/api/v1/compare?runs=run-agg,missing-run" });
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(body.missing).toEqual(["missing-run"]);
    const phase = body.runs[0].phases[0];
    const outs = [fixtureOutput("hdr-v2", 0), fixtureOutput("hdr-v2", 1)];
    expect(phase.aggregate.throughputOpsSec).toBeCloseTo(
      outs[0]!.overall.throughputOpsSec + outs[1]!.overall.throughputOpsSec,
      6,
    );
    expect(phase.aggregate.complete).toBe(true);
    const read = phase.aggregate.operations.READ;
    const [r0, r1] = outs.map((o) => o.operations.READ!);
    expect(read.count).toBe(r0!.count + r1!.count);
    expect(read.avgUs).toBeCloseTo((r0!.avgUs! * r0!.count + r1!.avgUs! * r1!.count) / (r0!.count + r1!.count), 6);
    expect(read.percentileMethod).toBe("max-of-clients");
    expect(read.percentilesUs["99"]).toBe(Math.max(r0!.percentilesUs["99"]!, r1!.percentilesUs["99"]!));
    expect(read.averageOfClientAveragesUs).toBeCloseTo((r0!.avgUs! + r1!.avgUs!) / 2, 6);
  });

  it("merges the clients' histograms a posted document carries (as the runner writes them): percentiles merged-hdr", async () => {
    const docs = ([0, 1] as const).map((c) => ({
      ...fixtureDocument({ runId: "run-hist", client: c, scenario: "api-hist" }),
      hdrHistograms: clientHistograms(
        ["READ", "UPDATE"].map((operation) => ({ operation, text: fixtureHdr("hdr-v2", c, operation) })),
      ),
    }));
    expect((await post(docs)).statusCode).toBe(201);
    const r = await app.inject({ url: "/api/v1/runs/run-hist" });
    expect(r.statusCode, r.body).toBe(200);
    const read = r.json().phases[0].aggregate.operations.READ;
    expect(read.percentileMethod).toBe("merged-hdr");
    const merged = mergeHdrLogs(
      ([0, 1] as const).map((c) => ({
        client: `client-${c}`,
        operation: "READ",
        text: fixtureHdr("hdr-v2", c, "READ"),
      })),
      { percentiles: [50, 95, 99, 99.9] },
    );
    expect(merged.operations.READ!.count).toBe(
      docs[0]!.result.operations.READ!.count + docs[1]!.result.operations.READ!.count,
    );
    for (const p of ["50", "95", "99", "99.9"])
      expect(read.percentilesUs[p]).toBe(merged.operations.READ!.percentilesUs[p]);

    // The whole distribution: the spectrum's p99 is the merge's, the 1 ms buckets hold every recording once.
    const series = await app.inject({ url: "/api/v1/runs/run-hist/phases/a-t4/series" });
    expect(series.statusCode, series.body).toBe(200);
    const latency = series.json().latency.READ as {
      clients: number;
      count: number;
      spectrum: { percentile: number; valueUs: number }[];
      buckets: { count: number }[];
    };
    expect(latency.clients).toBe(2);
    expect(latency.count).toBe(merged.operations.READ!.count);
    expect(latency.spectrum.find((q) => q.percentile === 99)!.valueUs).toBe(
      merged.operations.READ!.percentilesUs["99"],
    );
    expect(latency.buckets.reduce((a, b) => a + b.count, 0)).toBe(merged.operations.READ!.count);
    // /durability's p99 of the cell is the same merge (labelled so), not the larger of the two clients' own.
    const dur = await app.inject({ url: "/api/v1/durability?scenario=api-hist" });
    expect(dur.statusCode, dur.body).toBe(200);
    const cell = (dur.json().rows as { operations: Record<string, { p99Us: number; p99Method: string }> }[])[0]!;
    expect(cell.operations.READ).toMatchObject({
      p99Us: merged.operations.READ!.percentilesUs["99"],
      p99Method: "merged-hdr",
    });
    const sweeps = await app.inject({ url: "/api/v1/sweeps?scenario=api-hist" });
    const point = (
      sweeps.json().series as { points: { latency: Record<string, { p99Us: number; p99Method: string }> }[] }[]
    )[0]!.points[0]!;
    expect(point.latency.READ).toMatchObject({
      p99Us: merged.operations.READ!.percentilesUs["99"],
      p99Method: "merged-hdr",
    });
    // Past the merge limit (a query over a whole database) the p99 is the clients' max, and says so: computed from the
    // phases, as a view does when a filter (here a date range) cuts through the groups ingest keeps.
    const [r0, r1] = docs.map((d) => d.result.operations.READ!.percentilesUs["99"]!);
    const [big] = (await durability(db.prisma, { scenario: "api-hist", from: "1970-01-01T00:00:00Z" }, 2)).rows;
    expect(big!.operations.READ).toMatchObject({ p99Us: Math.max(r0!, r1!), p99Method: "max-of-clients" });
    // A phase whose clients carried no histograms has no merged distribution (a partial merge would hide tail).
    await post(([0, 1] as const).map((c) => fixtureDocument({ runId: "run-no-hist", client: c })));
    expect((await app.inject({ url: "/api/v1/runs/run-no-hist/phases/a-t4/series" })).json().latency).toEqual({});
    // Nor one where only some clients did.
    await post([
      { ...fixtureDocument({ runId: "run-half-hist", client: 0 }), hdrHistograms: docs[0]!.hdrHistograms },
      fixtureDocument({ runId: "run-half-hist", client: 1 }),
    ]);
    expect((await app.inject({ url: "/api/v1/runs/run-half-hist/phases/a-t4/series" })).json().latency).toEqual({});
  });

  it("filters runs and answers CSV", async () => {
    const r = await app.inject({ url: "/api/v1/runs?engine=cassandra&nodes=3&workload=a&source=measured" });
    expect(r.statusCode).toBe(200);
    expect(r.json().runs.map((x: { id: string }) => x.id)).toContain("run-agg");
    expect((await app.inject({ url: "/api/v1/runs?engine=hbase" })).json().total).toBe(0);
    const bad = await app.inject({ url: "/api/v1/runs?nodes=many" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields[0].path).toBe("/nodes");
    const csv = await app.inject({ url: "/api/v1/compare?runs=run-agg&format=csv" });
    expect(csv.headers["content-type"]).toMatch(/^text\/csv/);
    const lines = csv.body.trim().split("\r\n");
    expect(lines[0]).toContain("operation");
    expect(lines.length).toBeGreaterThan(2);
  });

  it("serves the OpenAPI document", async () => {
    const r = await app.inject({ url: "/docs/json" });
    expect(r.statusCode).toBe(200);
    const paths = Object.keys(r.json().paths);
    for (const p of ["/api/v1/results/", "/api/v1/runs/", "/api/v1/compare/", "/api/v1/scaling/", "/api/v1/ingest/s3"])
      expect(paths).toContain(p);
  });
});
