import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../api/build.js";
import { type Database, openDatabase } from "../../api/db/open.js";
import { bodyThreads, THREAD_MIN_BYTES } from "../../api/ingest-body/threads.js";
import { legacyDocumentHash } from "../../api/store/document-hash.js";
import type { ResultDocument } from "../../model/result-document.js";
import { auth, fixtureDocument, freshPostgresDatabase, testConfig } from "./api-helpers.js";

// Large ingest bodies are read on a thread beside the API's (api/ingest-body/threads.ts): the same batch
// posted to a service reading on threads and to one reading on its own thread must answer and store exactly alike,
// and every body the threads do not accept must get the API thread's own answer.

const batch = (tag: string, throughputBy = 1): ResultDocument[] =>
  Array.from({ length: 40 }, (_, i) => {
    const d = fixtureDocument({
      runId: `threads-${tag}-${Math.floor(i / 10)}`,
      client: (i % 2) as 0 | 1,
      clients: 2,
      phaseName: `a-t${Math.floor(i / 2) % 5}`,
      phaseIndex: Math.floor(i / 2) % 5,
    });
    d.result.overall.throughputOpsSec *= throughputBy;
    d.result.overall.runtimeMs /= throughputBy;
    return d;
  });

describe("a body's reading threads", () => {
  it("read a large body where this runtime runs, and leave small ones and closed threads to the API's thread", async () => {
    const threads = bodyThreads(1, (m) => {
      throw new Error(m);
    });
    const text = JSON.stringify(batch("direct"));
    expect(text.length).toBeGreaterThan(THREAD_MIN_BYTES);
    const read = await threads.read(text);
    expect(read?.hashes).toHaveLength(40);
    expect(await threads.read(JSON.stringify(batch("direct")[0]))).toBeNull();
    await threads.close();
    expect(await threads.read(text)).toBeNull();
  });
});

describe.each(["pglite", "postgres"] as const)("ingest read on threads and on the API's thread, on %s", (kind) => {
  const services: { db: Database; app: FastifyInstance }[] = [];
  beforeAll(async () => {
    for (const readThreads of [1, 0]) {
      const url = kind === "postgres" ? await freshPostgresDatabase(`api_ingest_threads_${readThreads}`) : undefined;
      const db = await openDatabase(url ? { databaseUrl: url } : {});
      const config = testConfig({ bodyLimit: 64 * 1024 * 1024, ingestReadThreads: readThreads });
      services.push({ db, app: await buildApp(config, { database: db, logLevel: "silent" }) });
    }
  });
  afterAll(async () => {
    for (const s of services) {
      await s.app.close();
      await s.db.close();
    }
  });

  const post = (body: string) =>
    Promise.all(
      services.map(({ app }) =>
        app.inject({
          method: "POST",
          url: "/api/v1/results",
          headers: { ...auth, "content-type": "application/json" },
          payload: body,
        }),
      ),
    );
  /** Everything ingest wrote for the batch's clients, in a fixed order, as text. */
  const stored = ({ db }: { db: Database }) =>
    db.prisma.$queryRaw<Record<string, unknown>[]>`
      SELECT c.run_id, p.name, c.client_index, c.document_hash, c.throughput_ops_sec, c.hdr_logs::text AS hdr_logs,
             s.points::text AS points, v.verdict,
             (SELECT string_agg(o.operation || ':' || o.count || ':' || o.percentiles_us::text, ',' ORDER BY o.operation)
              FROM operation_stats o WHERE o.client_result_id = c.id) AS operations
      FROM client_results c JOIN phases p ON p.id = c.phase_id
      LEFT JOIN status_series s ON s.client_result_id = c.id LEFT JOIN validity_verdicts v ON v.client_result_id = c.id
      WHERE c.run_id LIKE 'threads-%' ORDER BY c.run_id, p.name, c.client_index`;

  it("answers and stores a large batch alike", async () => {
    const [onThreads, here] = await post(JSON.stringify(batch("a")));
    expect(onThreads!.statusCode).toBe(201);
    expect(onThreads!.json()).toEqual(here!.json());
    expect(onThreads!.json().created).toBe(40);
    const [a, b] = await Promise.all(services.map(stored));
    expect(a).toHaveLength(40);
    expect(a).toEqual(b);
  });

  it("reports the batch sent again as duplicates, and a changed one as conflicts, alike", async () => {
    const [again, againHere] = await post(JSON.stringify(batch("a")));
    expect(again!.statusCode).toBe(200);
    expect(again!.json()).toEqual(againHere!.json());
    expect(again!.json().duplicates).toBe(40);
    const [changed, changedHere] = await post(JSON.stringify(batch("a", 1.5)));
    expect(changed!.json()).toEqual(changedHere!.json());
    expect(changed!.json().conflicts).toBe(40);
  });

  it("knows a document stored under its hash as sent (before hashes were canonical) as a duplicate", async () => {
    const docs = batch("a");
    for (const { db } of services)
      await db.prisma.$executeRaw`
        UPDATE client_results c SET document_hash = ${legacyDocumentHash(docs[0]!)}
        FROM phases p WHERE p.id = c.phase_id AND c.run_id = ${docs[0]!.run.id} AND p.name = ${docs[0]!.phase.name}
          AND c.client_index = ${docs[0]!.client.index}`;
    const [onThreads, here] = await post(JSON.stringify(docs));
    expect(onThreads!.json()).toEqual(here!.json());
    expect(onThreads!.json().duplicates).toBe(40);
  });

  const text = JSON.stringify(batch("hostile"));
  const hostile = {
    "a repeated key": text.replace('"schemaVersion":1,', '"schemaVersion":1,"schemaVersion":1,'),
    "a __proto__ key": text.replace('"schemaVersion":1,', '"__proto__":{"x":1},"schemaVersion":1,'),
    "a constructor key": text.replace('"schemaVersion":1,', '"constructor":{"prototype":{"x":1}},"schemaVersion":1,'),
    "text that is not JSON": text.slice(0, -1),
    "a document that fails the check": text.replace('"nodes":3', '"nodes":-3'),
  };
  it.each(Object.entries(hostile))(
    "answers a large body with %s as the API's thread does, storing nothing",
    async (_, body) => {
      expect(body.length).toBeGreaterThan(THREAD_MIN_BYTES);
      const [onThreads, here] = await post(body);
      expect(onThreads!.statusCode).toBe(400);
      expect(onThreads!.json()).toEqual(here!.json());
      const [rows] = await services[0]!.db.prisma.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM client_results WHERE run_id LIKE 'threads-hostile-%'`;
      expect(Number(rows!.n)).toBe(0);
    },
  );
});
