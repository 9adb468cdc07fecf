import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../api/build.js";
import { type Database, openDatabase } from "../../api/db/open.js";
import { hdrLogKey, resultKey, withPrefix } from "../../model/results-layout.js";
import { createBucket, startMoto } from "../runner/runner-helpers.js";
import { auth, fixtureDocument, fixtureHdr, freshPostgresDatabase, testConfig } from "./api-helpers.js";

const PHASE = { index: 2, name: "a-t4" };

// One bad object in a bucket is reported by its key and skipped; every other object of the prefix imports. On both
// stores: a refused document must leave nothing behind on either, and Postgres reports errors its own way.
describe.each(["pglite", "postgres"] as const)("S3 import with bad objects among good ones (moto) on %s", (kind) => {
  let moto: Awaited<ReturnType<typeof startMoto>>;
  let s3: S3Client;
  let db: Database;
  let app: FastifyInstance;
  const bucket = "ycsb-robust";
  const prefix = "team/2026";
  const key = (runId: string, client: number) => withPrefix(prefix, resultKey(runId, PHASE.index, PHASE.name, client));
  const put = (k: string, body: string) => s3.send(new PutObjectCommand({ Bucket: bucket, Key: k, Body: body }));
  const doc = (runId: string, client: 0 | 1, o: Record<string, unknown> = {}) =>
    ({ ...fixtureDocument({ runId, client, phaseIndex: PHASE.index, phaseName: PHASE.name }), ...o }) as any;

  beforeAll(async () => {
    moto = await startMoto();
    await createBucket(moto.endpoint, bucket);
    s3 = new S3Client({
      region: "us-east-1",
      endpoint: moto.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: "test", secretAccessKey: "test" },
    });
    // Good runs.
    for (const runId of ["good-1", "good-2"])
      for (const c of [0, 1] as const) await put(key(runId, c), JSON.stringify(doc(runId, c)));
    // A NUL byte in a string (a corrupt upload), in a batch with good documents.
    const nul = doc("nul-run", 0);
    nul.run.scenario = "api\u0000test";
    await put(key("nul-run", 0), JSON.stringify(nul));
    // The same run id as good-1 with another engine: a run-identity conflict (409 by POST).
    const other = doc("good-1", 0);
    other.run.engine = "hbase";
    await put(
      withPrefix(prefix, resultKey("good-1", 5, "b-t4", 0)),
      JSON.stringify({ ...other, phase: { ...other.phase, name: "b-t4", index: 5 } }),
    );
    // A client of run hdr-run whose READ interval log is garbage (its result carries no histograms: merged here).
    for (const c of [0, 1] as const) {
      await put(key("hdr-run", c), JSON.stringify(doc("hdr-run", c)));
      for (const op of ["READ", "UPDATE"]) {
        const text =
          c === 1 && op === "READ"
            ? "#[StartTime: 1]\n0.000,1.000,2.0,HISTFAAAAGarbage!!\n"
            : fixtureHdr("hdr-v2", c, op);
        await put(withPrefix(prefix, hdrLogKey("hdr-run", PHASE.index, PHASE.name, c, op)), text);
      }
    }
    const url = kind === "postgres" ? await freshPostgresDatabase("api_s3_robust") : undefined;
    db = await openDatabase(url ? { databaseUrl: url } : {});
    app = await buildApp(testConfig({ s3: { region: "us-east-1", endpoint: moto.endpoint } }), {
      database: db,
      logLevel: "silent",
    });
  }, 300_000);
  afterAll(async () => {
    await app?.close();
    await db?.close();
    s3?.destroy();
    await moto?.stop();
  });

  const ingest = () =>
    app.inject({ method: "POST", url: "/api/v1/ingest/s3", payload: { bucket, prefix }, headers: auth });

  it("reports each bad object by key and imports all the others", async () => {
    const r = await ingest();
    expect(r.statusCode, r.body).toBe(200);
    const report = r.json();
    expect(report.invalid.map((x: { key: string }) => x.key).sort()).toEqual(
      [key("nul-run", 0), withPrefix(prefix, hdrLogKey("hdr-run", PHASE.index, PHASE.name, 1, "READ"))].sort(),
    );
    expect(report.invalid.find((x: { key: string }) => x.key === key("nul-run", 0)).errors[0].path).toBe(
      "/run/scenario",
    );
    expect(report.conflicts).toEqual([
      { key: withPrefix(prefix, resultKey("good-1", 5, "b-t4", 0)), message: expect.stringMatching(/engine/) },
    ]);
    expect(report.created).toBe(6);
    for (const runId of ["good-1", "good-2", "hdr-run"])
      expect(await db.prisma.clientResult.count({ where: { runId } })).toBe(2);
    expect(await db.prisma.run.count({ where: { id: "nul-run" } })).toBe(0);
    // hdr-run imported with the logs that decode: UPDATE merged from both clients, READ from the clients' own percentiles.
    const run = (await app.inject({ url: "/api/v1/runs/hdr-run" })).json();
    expect(run.phases[0].aggregate.operations.UPDATE.percentileMethod).toBe("merged-hdr");
    expect(run.phases[0].aggregate.operations.READ.percentileMethod).toBe("max-of-clients");
  });

  it("the next import does not stumble on them again: nothing new, nothing reported", async () => {
    const r = (await ingest()).json();
    expect(r).toMatchObject({ imported: 0, created: 0, invalid: [], conflicts: [] });
  });

  it("a bad object fixed in place (new ETag) imports", async () => {
    await put(key("nul-run", 0), JSON.stringify(doc("nul-run", 0)));
    const r = (await ingest()).json();
    expect(r).toMatchObject({ imported: 1, created: 1, invalid: [], conflicts: [] });
  });
  // Whoever may write one run's prefix must not store results under another run (issue 28): a document of run
  // "victim", client 1, under run-A's client-0 key is refused naming each field, and run-A's HDR logs merge into nothing.
  it("a document under another run's, phase's or client's key is refused naming the fields; odd keys are reported", async () => {
    const misplacedKey = withPrefix(prefix, resultKey("run-A", PHASE.index, PHASE.name, 0));
    await put(misplacedKey, JSON.stringify(doc("victim", 1)));
    await put(
      withPrefix(prefix, hdrLogKey("run-A", PHASE.index, PHASE.name, 0, "READ")),
      fixtureHdr("hdr-v2", 0, "READ"),
    );
    const odd = [
      "runs/odd/phases/2-a-t4/client-0/result.json/",
      "runs/odd/phases/2-a-t4//client-0/result.json",
      "runs/odd/phases/2-a-t4/client-0/RESULT.JSON",
    ].map((k) => withPrefix(prefix, k));
    for (const k of odd) await put(k, JSON.stringify(doc("odd", 0)));
    const r = await ingest();
    expect(r.statusCode, r.body).toBe(200);
    const report = r.json() as {
      invalid: { key: string; errors: { path: string; message: string }[] }[];
      skipped: { key: string; reason: string }[];
    };
    const refused = report.invalid.find((x) => x.key === misplacedKey);
    expect(refused?.errors.map((e) => e.path).sort()).toEqual(["/client/index", "/run/id"]);
    expect(refused?.errors[0]?.message).toMatch(/imported only under its own run, phase and client/);
    expect(await db.prisma.run.count({ where: { id: { in: ["victim", "run-A", "odd"] } } })).toBe(0);
    expect(report.skipped.map((x) => x.key).sort()).toEqual([...odd].sort());
  });

  it("a bucket S3 does not have is a 502 naming S3's answer, not a 500", async () => {
    const r = await app.inject({
      method: "POST",
      url: "/api/v1/ingest/s3",
      payload: { bucket: "no-such-bucket-here" },
      headers: auth,
    });
    expect(r.statusCode, r.body).toBe(502);
    expect(r.json().message).toMatch(/NoSuchBucket/);
  });
});
