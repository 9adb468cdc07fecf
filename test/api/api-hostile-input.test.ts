import type { FastifyInstance } from "fastify";
import { Float64Histogram } from "hdr-histogram-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../api/build.js";
import { type Database, openDatabase } from "../../api/db/open.js";
import { clientHistograms, encodeHistogram } from "../../model/hdr/index.js";
import { auth, fixtureDocument, fixtureHdr, freshPostgresDatabase, testConfig } from "./api-helpers.js";

const DEEP = "\u0001deeply nested\u0001";

/** A histogram of `count` recordings of `valueUs` each. */
function histogramOf(count: number, valueUs: number): string {
  const h = new Float64Histogram(1, 2, 3);
  h.autoResize = true;
  h.recordValueWithCount(valueUs, count);
  return encodeHistogram(h);
}

// A hostile or careless writer (issue: the results service cannot be broken or fooled by one user): every document the
// store could not take, or that contradicts itself, is a 400 naming the field and writes nothing; reads never reach
// the database with text or numbers it cannot take.
describe.each(["pglite", "postgres"] as const)("hostile input on %s", (kind) => {
  let db: Database;
  let app: FastifyInstance;

  beforeAll(async () => {
    const url = kind === "postgres" ? await freshPostgresDatabase("api_hostile") : undefined;
    db = await openDatabase(url ? { databaseUrl: url } : {});
    app = await buildApp(testConfig({ bodyLimit: 8 * 1024 * 1024 }), { database: db, logLevel: "silent" });
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  const postRaw = (payload: string) =>
    app.inject({
      method: "POST",
      url: "/api/v1/results",
      payload,
      headers: { ...auth, "content-type": "application/json" },
    });
  // JSON.stringify cannot write 5000 levels: the nested text is spliced in where the DEEP marker stands.
  const post = (body: unknown) =>
    postRaw(JSON.stringify(body).replace(JSON.stringify(DEEP), "[".repeat(5000) + "]".repeat(5000)));
  const stored = async () => ({
    runs: await db.prisma.run.count(),
    clients: await db.prisma.clientResult.count(),
    ops: await db.prisma.operationStat.count(),
  });

  const doc = (runId: string, o: Parameters<typeof fixtureDocument>[0] extends infer T ? Partial<T> : never = {}) =>
    fixtureDocument({ runId, ...o }) as any;

  describe("400 naming the field, nothing stored", () => {
    const cases: [string, (d: any) => void, string][] = [
      ["an integer >= 2^31", (d) => (d.phase.index = 2 ** 31), "/phase/index"],
      ["threads >= 2^31", (d) => (d.phase.threadsPerClient = 2 ** 31), "/phase/threadsPerClient"],
      ["a count >= 2^63", (d) => (d.result.operations.READ.count = 2 ** 63), "/result/operations/READ/count"],
      ["year 0000", (d) => (d.startedAt = "0000-01-01T00:00:00Z"), "/startedAt"],
      ["2024-02-30", (d) => (d.run.startedAt = "2024-02-30T00:00:00Z"), "/run/startedAt"],
      ["U+0000", (d) => (d.run.scenario = "a\u0000b"), "/run/scenario"],
      ["a lone surrogate", (d) => (d.run.engineVersion = "5.0\ud800"), "/run/engineVersion"],
      [
        "a 1 MB operation name",
        (d) => (d.result.operations["R".repeat(1_000_000)] = d.result.operations.READ),
        `/result/operations/${"R".repeat(40)}...`,
      ],
      [
        "a 1 MB property name",
        (d) => (d.phase.properties["p".repeat(1_000_000)] = "1"),
        `/phase/properties/${"p".repeat(40)}...`,
      ],
      ["nesting depth 5000", (d) => (d.run.provenance = { stack: "s", deep: DEEP }), "/run/provenance/deep"],
      ["avgUs 1e308", (d) => (d.result.operations.READ.avgUs = 1e308), "/result/operations/READ/avgUs"],
      [
        "minUs > maxUs",
        (d) => (d.result.operations.UPDATE.minUs = d.result.operations.UPDATE.maxUs + 1),
        "/result/operations/UPDATE/minUs",
      ],
      [
        "p50 > p99",
        (d) => (d.result.operations.READ.percentilesUs["50"] = d.result.operations.READ.percentilesUs["99"] + 1),
        "/result/operations/READ/percentilesUs/95",
      ],
      [
        "throughput 10x operations / runtime",
        (d) => (d.result.overall.throughputOpsSec *= 10),
        "/result/overall/throughputOpsSec",
      ],
      ["finishedAt < startedAt", (d) => (d.finishedAt = "2026-11-22T04:00:00.000Z"), "/finishedAt"],
      ["client 5 of a 2-client phase", (d) => (d.client.index = 5), "/client/index"],
      ["client.count other than phase.clients", (d) => (d.client.count = 3), "/client/count"],
      [
        "a published source",
        (d) => (d.run.source = { kind: "published", citation: "Lineate 2014", seed: "002" }),
        "/run/source/kind",
      ],
      ["an unknown field in client", (d) => (d.client.rack = "r1"), "/client/rack"],
      ["an unknown field in result", (d) => (d.result.note = "x"), "/result/note"],
      ["an unknown field in resources", (d) => (d.resources[0].memPct = 3), "/resources/0/memPct"],
    ];
    it.each(cases)("%s", async (_name, spoil, path) => {
      const before = await stored();
      const d = doc("hostile-input");
      spoil(d);
      const r = await post(d);
      expect(r.statusCode, r.body).toBe(400);
      const fields = r.json().fields as { path: string }[];
      expect(
        fields.map((f) => f.path),
        r.body,
      ).toContain(path);
      expect(await stored()).toEqual(before);
    });
  });

  it("a published document does not join a study's series (Lineate's scalability score stays its own)", async () => {
    const d = doc("fake-lineate", { engine: "cassandra", nodes: 8 });
    d.run.source = { kind: "published", citation: "Lineate (2014)", seed: "002" };
    d.run.scenario = "lineate-2014";
    const r = await post(d);
    expect(r.statusCode).toBe(400);
    expect(await db.prisma.source.count({ where: { kind: "published" } })).toBe(0);
  });

  it("clients of one phase that disagree on clients or threads are refused with 409 naming the field", async () => {
    expect((await post(doc("phase-facts", { client: 0 }))).statusCode).toBe(201);
    const threads = doc("phase-facts", { client: 1, threads: 8 });
    const r = await post(threads);
    expect(r.statusCode, r.body).toBe(409);
    expect(r.json().message).toMatch(/threadsPerClient/);
    const clients = doc("phase-facts", { client: 1, clients: 3 });
    const r2 = await post(clients);
    expect(r2.statusCode, r2.body).toBe(409);
    expect(r2.json().message).toMatch(/clients/);
    // Within one batch too.
    const r3 = await post([
      doc("phase-facts-batch", { client: 0 }),
      doc("phase-facts-batch", { client: 1, threads: 16 }),
    ]);
    expect(r3.statusCode).toBe(409);
    expect(await db.prisma.clientResult.count({ where: { runId: { in: ["phase-facts", "phase-facts-batch"] } } })).toBe(
      1,
    );
  });

  it("a run's phases posted one by one are stored however each states the run's end; finishedAt is the latest", async () => {
    // A runner posts each phase as it ends: the run's finishedAt the store keeps is the end of its latest phase so far.
    const first = doc("phase-by-phase", { phaseName: "a-t4", phaseIndex: 2 });
    expect((await post(first)).statusCode).toBe(201);
    const second = doc("phase-by-phase", { phaseName: "b-t4", phaseIndex: 3 });
    second.startedAt = "2026-11-22T04:33:00.000Z";
    second.finishedAt = "2026-11-22T04:33:20.000Z";
    const r = await post(second);
    expect(r.statusCode, r.body).toBe(201);
    const last = doc("phase-by-phase", { phaseName: "c-t4", phaseIndex: 4 });
    last.startedAt = "2026-11-22T04:33:30.000Z";
    last.finishedAt = "2026-11-22T04:33:40.000Z";
    last.run.finishedAt = "2026-11-22T04:33:41.000Z";
    expect((await post(last)).statusCode).toBe(201);
    const run = await db.prisma.run.findUnique({ where: { id: "phase-by-phase" }, select: { finishedAt: true } });
    expect(run?.finishedAt?.toISOString()).toBe("2026-11-22T04:33:41.000Z");
  });

  it("the same document with its keys in another order is a duplicate, not a conflict", async () => {
    const d = doc("reordered");
    expect((await post(d)).statusCode).toBe(201);
    const reversed = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(reversed)
        : v && typeof v === "object"
          ? Object.fromEntries(
              Object.entries(v)
                .reverse()
                .map(([k, x]) => [k, reversed(x)]),
            )
          : v;
    const r = await post(reversed(d));
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ created: 0, duplicates: 1, conflicts: 0 });
  });

  it.each([
    ["/api/v1/runs/%00", "/id"],
    ["/api/v1/runs?scenario=a%00b", "/scenario"],
    ["/api/v1/runs?nodes=2147483648", "/nodes"],
    ["/api/v1/runs?offset=9223372036854775807", "/offset"],
    ["/api/v1/compare?runs=a%00", "/runs"],
    ["/api/v1/runs/x/phases/%00/series", "/phase"],
    ["/api/v1/reference?seed=%00", "/seed"],
  ])("GET %s is a 400 naming %s", async (url, path) => {
    const r = await app.inject({ url });
    expect(r.statusCode, r.body).toBe(400);
    expect(r.json().fields.map((f: { path: string }) => f.path)).toContain(path);
  });
  // What still got through before (issue 28, "what is wrong today"), each with its expected answer.
  describe("what still got through: refused naming the field, or stored as one", () => {
    const errorOf = async (r: { statusCode: number; json(): any; body: string }, status: number) => {
      expect(r.statusCode, r.body.slice(0, 400)).toBe(status);
      return r.json() as { message: string; fields?: { path: string; message: string }[] };
    };

    it("clients of one phase that disagree on hardware, replication, region or start: 409 naming the fact", async () => {
      expect((await post(doc("hw", { client: 0 }))).statusCode).toBe(201);
      const spoils: [string, (d: any) => void, RegExp][] = [
        ["instance type", (d) => (d.run.instanceTypes.data = "t3.micro"), /instanceTypes\/data/],
        ["replication", (d) => (d.run.replication = 1), /replication/],
        ["region", (d) => (d.run.region = "eu-west-1"), /region/],
        ["start", (d) => (d.run.startedAt = "2026-11-23T04:32:40.000Z"), /startedAt/],
      ];
      for (const [name, spoil, field] of spoils) {
        const d = doc("hw", { client: 1 });
        spoil(d);
        expect((await errorOf(await post(d), 409)).message, name).toMatch(field);
      }
      expect(await db.prisma.clientResult.count({ where: { runId: "hw" } })).toBe(1);
    });

    it("two documents of one batch that disagree: the conflict is named as the batch's, nothing stored", async () => {
      const other = doc("in-batch", { client: 1, engine: "hbase" });
      const { message } = await errorOf(await post([doc("in-batch", { client: 0 }), other]), 409);
      expect(message).toMatch(/documents 0 and 1 of this batch disagree on run in-batch's engine/);
      expect(message).not.toMatch(/already stored/);
      expect(await db.prisma.run.count({ where: { id: "in-batch" } })).toBe(0);
    });

    const withHistograms = (runId: string) => {
      const d = doc(runId);
      d.hdrHistograms = clientHistograms(
        ["READ", "UPDATE"].map((operation) => ({ operation, text: fixtureHdr("hdr-v2", 0, operation) })),
      );
      return d;
    };

    it("a histogram that contradicts its document's count and percentiles: 400 naming it, nothing stored", async () => {
      expect((await post(withHistograms("hist-ok"))).statusCode).toBe(201);
      const before = await stored();
      const d = withHistograms("hist-bad");
      d.hdrHistograms.READ = histogramOf(7, 10_000_000);
      const { fields } = await errorOf(await post(d), 400);
      expect(fields!.find((f) => f.path === "/hdrHistograms/READ")?.message).toMatch(/holds 7 recordings/);
      expect(await stored()).toEqual(before);
    });

    it("a histogram of an operation the document never ran (DELETE, 5e12 counts): 400 naming it", async () => {
      const d = withHistograms("hist-delete");
      d.hdrHistograms.DELETE = histogramOf(5e12, 1000);
      const { fields } = await errorOf(await post(d), 400);
      expect(fields!.find((f) => f.path === "/hdrHistograms/DELETE")?.message).toMatch(/no operation group DELETE/);
    });

    it("a phase named in NFC and in NFD is one phase", async () => {
      expect((await post(doc("nfc", { client: 0, phaseName: "caf\u00e9-t4" }))).statusCode).toBe(201);
      expect((await post(doc("nfc", { client: 1, phaseName: "cafe\u0301-t4" }))).statusCode).toBe(201);
      const phases = await db.prisma.phase.findMany({ where: { runId: "nfc" } });
      expect(phases.map((p) => p.name)).toEqual(["caf\u00e9-t4"]);
      expect(await db.prisma.clientResult.count({ where: { runId: "nfc" } })).toBe(2);
    });

    it.each([
      ["a zero-width space in the scenario", (d: any) => (d.run.scenario = "api-test\u200b"), "/run/scenario"],
      [
        "an RTL override in the engine version",
        (d: any) => (d.run.engineVersion = "5.0.4\u202e"),
        "/run/engineVersion",
      ],
    ])("%s: 400 naming the field", async (_name, spoil, path) => {
      const d = doc("invisible");
      spoil(d);
      const { fields } = await errorOf(await post(d), 400);
      expect(fields!.map((f) => f.path)).toContain(path);
    });

    it('a repeated key ("id":"A","id":"B"): 400 naming it, nothing stored', async () => {
      const text = JSON.stringify(doc("dup-A")).replace('"id":"dup-A"', '"id":"dup-A","id":"dup-B"');
      const { fields } = await errorOf(await postRaw(text), 400);
      expect(fields!.map((f) => f.path)).toContain("/run/id");
      expect(await db.prisma.run.count({ where: { id: { in: ["dup-A", "dup-B"] } } })).toBe(0);
    });

    it("JSON declared UTF-16: 415, never read as UTF-8", async () => {
      const r = await app.inject({
        method: "POST",
        url: "/api/v1/results",
        payload: JSON.stringify(doc("utf16")),
        headers: { ...auth, "content-type": "application/json; charset=utf-16" },
      });
      expect((await errorOf(r, 415)).message).toMatch(/UTF-8/);
    });

    it.each([
      ["/api/v1/sweeps?nonce=1", "/nonce"],
      ["/api/v1/runs?nodes=true", "/nodes"],
      ["/api/v1/regressions?order=size", "/order"],
      ["/api/v1/regressions?last=0", "/last"],
    ])("GET %s is a 400 naming %s", async (url, path) => {
      const { fields } = await errorOf(await app.inject({ url }), 400);
      expect(fields!.map((f) => f.path)).toContain(path);
    });

    it("a method a path does not take is a 405 with Allow, not a 404", async () => {
      const r = await app.inject({ method: "TRACE" as "GET", url: "/api/v1/runs" });
      expect(r.statusCode).toBe(405);
      expect(r.headers.allow).toBe("GET");
      expect((await app.inject({ method: "PUT", url: "/api/v1/results" })).headers.allow).toBe("POST");
      // DELETE /runs/ is the list's path with an empty id, not a delete of the run "".
      const empty = await app.inject({ method: "DELETE", url: "/api/v1/runs/", headers: auth });
      expect([empty.statusCode, empty.headers.allow]).toEqual([405, "GET"]);
    });

    it("the served OpenAPI document states what the routes do: optional bodies, defaulted parameters, each status", async () => {
      const spec = (await app.inject({ url: "/docs/json" })).json();
      expect(spec.paths["/api/v1/reference/load"].post.requestBody.required).toBe(false);
      expect(spec.paths["/api/v1/baselines/{runId}"].put.requestBody.required).toBe(false);
      expect(spec.paths["/api/v1/results/"].post.requestBody.required).toBe(true);
      const order = spec.paths["/api/v1/regressions/"].get.parameters.find((p: { name: string }) => p.name === "order");
      expect(order.required).toBe(false);
      expect(Object.keys(spec.paths["/api/v1/runs/{id}"].get.responses)).toEqual(
        expect.arrayContaining(["200", "304", "400", "404", "503"]),
      );
      expect(Object.keys(spec.paths["/api/v1/reference/load"].post.responses)).toEqual(
        expect.arrayContaining(["400", "401", "413", "415"]),
      );
      expect(spec.paths["/api/v1/ingest/s3"].post.responses["502"]).toBeDefined();
    });
  });
});
