import { readFileSync } from "node:fs";
import { CreateBucketCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../api/build.js";
import { type Database, openDatabase } from "../../api/db/open.js";
import type { InstanceStatus } from "../../model/instance-status.js";
import { INSTANCE_TYPES, PRICE_SOURCE, PRICES_AS_OF } from "../../model/instance-types.js";
import type { ResultDocument } from "../../model/result-document.js";
import { resultKey, statusKey, withPrefix } from "../../model/results-layout.js";
import { LOCAL_RUN_NO_PRICE, NO_MARKERS } from "../../model/run-cost.js";
import { startMoto } from "../runner/runner-helpers.js";
import { extrasPerHour, handCost } from "../support/hand-cost.js";
import { auth, ROOT, testConfig } from "./api-helpers.js";

interface Captured {
  runId: string;
  results: ResultDocument[];
  statuses: InstanceStatus[];
}
/** Real runs' result documents and the status markers their instances wrote (scripts/capture-status-fixtures.ts). */
const captured = (name: string) =>
  JSON.parse(readFileSync(`${ROOT}test/fixtures/instance-status/${name}.json`, "utf8")) as Captured;
/** Its instances lived past the 60 s minimum; SHORT's did not. */
const FIXTURE = captured("status-basicdb");
/**
 * SHORT's markers as a run from before markers recorded volumes and addresses wrote them: the same markers without
 * the field (it is optional and was only added), so its cost counts instance-hours and says so.
 */
const SHORT = (() => {
  const c = captured("status-basicdb-short");
  return { ...c, statuses: c.statuses.map(({ billing: _, ...s }) => s as InstanceStatus) };
})();
/** A local benchmark's document (one client of one phase): a run on this machine. */
const LOCAL = [
  JSON.parse(readFileSync(`${ROOT}test/fixtures/local-benchmark/balanced-1-load.json`, "utf8")) as ResultDocument,
];

describe("a run's realized cost from its instances' status markers, imported from S3 (moto)", () => {
  let moto: Awaited<ReturnType<typeof startMoto>> | undefined;
  let s3: S3Client;
  let db: Database;
  let app: FastifyInstance;
  const bucket = "ycsb-costs";
  const prefix = "lab";

  beforeAll(async () => {
    moto = await startMoto();
    const endpoint = moto.endpoint;
    s3 = new S3Client({ region: "us-east-1", endpoint, forcePathStyle: true });
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
    const put = (key: string, body: unknown) =>
      s3.send(new PutObjectCommand({ Bucket: bucket, Key: withPrefix(prefix, key), Body: JSON.stringify(body) }));
    for (const d of [...FIXTURE.results, ...SHORT.results, ...LOCAL])
      await put(resultKey(d.run.id, d.phase.index, d.phase.name, d.client.index), d);
    for (const f of [FIXTURE, SHORT]) for (const s of f.statuses) await put(statusKey(f.runId, s.instance), s);
    db = await openDatabase({});
    app = await buildApp(testConfig({ s3: { region: "us-east-1", endpoint } }), { database: db, logLevel: "silent" });
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
    s3?.destroy();
    await moto?.stop();
  });

  const ingest = () =>
    app.inject({ method: "POST", url: "/api/v1/ingest/s3", payload: { bucket, prefix }, headers: auth });
  const runCost = async (id: string) => {
    const r = await app.inject({ method: "GET", url: `/api/v1/runs/${id}` });
    expect(r.statusCode, r.body).toBe(200);
    return r.json().cost;
  };

  it("the fixtures are real runs: a data node and a client each, with their boot times, one past a minute, one short", () => {
    for (const f of [FIXTURE, SHORT]) {
      expect(f.statuses.map((s) => [s.instance, s.stage])).toEqual([
        ["client-0", "done"],
        ["node-0", "done"],
      ]);
      for (const s of f.statuses) expect(s.bootedAt).toBeTruthy();
    }
    // The capture's markers carry what infra's cluster.json gives each role: the data node's root, 500 GiB gp3 data
    // volume (6,000 IOPS, 250 MiB/s) and 100 GiB log volume, the client's root, a public address each.
    const [client, node] = FIXTURE.statuses;
    expect(node!.billing).toEqual({
      volumes: [
        { type: "gp3", sizeGiB: 30 },
        { type: "gp3", sizeGiB: 500, iops: 6000, throughputMiBs: 250 },
        { type: "gp3", sizeGiB: 100 },
      ],
      publicIpv4: true,
    });
    expect(client!.billing).toEqual({ volumes: [{ type: "gp3", sizeGiB: 30 }], publicIpv4: true });
    for (const s of SHORT.statuses) expect(s.billing).toBeUndefined();
    const types = (f: Captured) =>
      f.statuses.map((s) => handCost(s, s.role === "data" ? "m6i.large" : "c6i.large").seconds);
    expect(Math.min(...types(FIXTURE))).toBeGreaterThan(60);
    expect(Math.max(...types(SHORT))).toBeLessThan(60);
  });

  it("stores each instance's span on import, once, and the run's page answers its cost as computed by hand", async () => {
    const first = await ingest();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ spans: 4, invalid: [], conflicts: [] });
    expect((await ingest()).json()).toMatchObject({ spans: 0, invalid: [] });

    for (const f of [FIXTURE, SHORT]) {
      const run = f.results[0]!.run;
      const types = { data: run.instanceTypes.data, client: run.instanceTypes.client };
      expect(types).toEqual({ data: "m6i.large", client: "c6i.large" });
      const byHand = f.statuses.map((s) => ({ s, ...handCost(s, s.role === "data" ? types.data : types.client) }));
      const cost = await runCost(f.runId);
      expect(cost.priced, JSON.stringify(cost)).toBe(true);
      expect(cost.basis).toBe("realized");
      expect(cost.usd).toBeCloseTo(
        byHand.reduce((a, h) => a + h.usd, 0),
        12,
      );
      for (const h of byHand) {
        const i = cost.instances.find((x: { instance: string }) => x.instance === h.s.instance);
        expect(i).toMatchObject({
          role: h.s.role,
          instanceType: h.s.role === "data" ? types.data : types.client,
          startedAt: h.s.bootedAt,
        });
        expect(i.billedSeconds).toBeCloseTo(h.billedSeconds, 9);
        expect(i.usd).toBeCloseTo(h.usd, 12);
        expect(i.parts.instance).toBeCloseTo(h.parts.instance, 12);
        if (h.parts.volumes === null) expect(i.parts).toMatchObject({ volumes: null, publicIpv4: null });
        else {
          expect(i.parts.volumes).toBeCloseTo(h.parts.volumes, 12);
          expect(i.parts.publicIpv4).toBeCloseTo(h.parts.publicIpv4!, 12);
        }
      }
      // One data node: the configuration's $/h is its price per hour (with its volumes and address when recorded),
      // whether or not the minimum applied.
      const node = f.statuses.find((s) => s.role === "data")!;
      const extras = extrasPerHour(node);
      expect(cost.configurationUsdPerHour).toBeCloseTo(
        INSTANCE_TYPES[types.data]!.usdPerHour! + (extras.volumes ?? 0) + (extras.publicIpv4 ?? 0),
        12,
      );
      expect(cost.covers).toMatch(/S3 requests are not counted/);
      expect(cost.pricesAsOf).toBe(PRICES_AS_OF);
      expect(cost.source).toBe(PRICE_SOURCE);
    }
    // The run whose markers recorded them counts every instance's volumes and address; the older one says it cannot.
    expect((await runCost(FIXTURE.runId)).covers).toMatch(/each instance's EBS volumes .* public IPv4 address/);
    expect((await runCost(FIXTURE.runId)).covers).not.toMatch(/not counted for/);
    expect((await runCost(SHORT.runId)).covers).toMatch(
      /volumes and public IPv4 addresses are not counted: no instance/,
    );
    // The short run's instances are billed the 60 s minimum each.
    expect((await runCost(SHORT.runId)).instances.map((i: { billedSeconds: number }) => i.billedSeconds)).toEqual([
      60, 60,
    ]);
  });

  it("a heartbeat rewritten later moves the instance's end, and the cost with it", async () => {
    const node = FIXTURE.statuses.find((s) => s.role === "data")!;
    const later = { ...node, heartbeatAt: new Date(Date.parse(node.at) + 3_600_000).toISOString() };
    await s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: withPrefix(prefix, statusKey(FIXTURE.runId, node.instance)),
        Body: JSON.stringify(later),
      }),
    );
    expect((await ingest()).json()).toMatchObject({ spans: 1 });
    const cost = await runCost(FIXTURE.runId);
    const i = cost.instances.find((x: { instance: string }) => x.instance === node.instance);
    expect(i.endedAt).toBe(later.heartbeatAt);
    expect(i.billedSeconds).toBeCloseTo((Date.parse(later.heartbeatAt) - Date.parse(node.bootedAt!)) / 1000, 6);
  });

  it("a marker that is no status is reported by key; a local run carries no price and says so", async () => {
    const key = withPrefix(prefix, statusKey(FIXTURE.runId, "client-1"));
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: '{"instance":"client-1"}' }));
    const r = (await ingest()).json();
    expect(r.invalid).toEqual([
      { key, errors: [{ path: "/", message: expect.stringMatching(/not an instance status/) }] },
    ]);
    expect(await runCost(LOCAL[0]!.run.id)).toEqual({ priced: false, statement: LOCAL_RUN_NO_PRICE });
    expect(NO_MARKERS).toMatch(/no boot status markers/);
  });
});
