import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../api/build.js";
import { type Database, openDatabase } from "../../api/db/open.js";
import { loadReferenceData } from "../../api/store/reference-data.js";
import { auth, fixtureDocument, freshPostgresDatabase, testConfig } from "./api-helpers.js";

const ALICE = "alice-token-0123456789abcdef";

// A token holder can take a bad run out of the views: quarantine (listed with its reason, in no aggregate) or delete.
describe.each(["pglite", "postgres"] as const)("quarantine and delete of runs on %s", (kind) => {
  let db: Database;
  let app: FastifyInstance;

  beforeAll(async () => {
    const url = kind === "postgres" ? await freshPostgresDatabase("api_run_admin") : undefined;
    db = await openDatabase(url ? { databaseUrl: url } : {});
    app = await buildApp(testConfig({ namedTokens: [{ name: "alice", token: ALICE }] }), {
      database: db,
      logLevel: "silent",
    });
    await loadReferenceData(db.prisma, ["002"]);
    for (const [id, nodes, repeat] of [
      ["keep-3", 3, 0],
      ["keep-3b", 3, 1],
      ["bad-6", 6, 0],
    ] as const) {
      const docs = ([0, 1] as const).map((c) =>
        fixtureDocument({ runId: id, client: c, nodes, repeat, scenario: "admin" }),
      );
      expect(
        (await app.inject({ method: "POST", url: "/api/v1/results", payload: docs, headers: auth })).statusCode,
      ).toBe(201);
    }
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  const get = async (url: string) => (await app.inject({ url })).json();
  const nodesIn = async () =>
    ((await get("/api/v1/scaling?scenario=admin")).series as { points: { nodes: number }[] }[]).flatMap((s) =>
      s.points.map((p) => p.nodes),
    );
  const runsIn = async (view: string) => JSON.stringify(await get(`/api/v1/${view}?scenario=admin`));
  // /sweeps counts a series' runs rather than listing them: a quarantined run leaves the count.
  const sweepRuns = async () =>
    ((await get("/api/v1/sweeps?scenario=admin")).series as { runCount: number }[]).reduce((n, s) => n + s.runCount, 0);

  it("quarantine hides a run from every aggregate, keeps it listed with its reason, and can be lifted", async () => {
    expect(await nodesIn()).toEqual([3, 6]);
    const sweepRunsBefore = await sweepRuns();
    const noToken = await app.inject({
      method: "POST",
      url: "/api/v1/runs/bad-6/quarantine",
      payload: { reason: "disk full on node 2" },
    });
    expect(noToken.statusCode).toBe(401);
    const r = await app.inject({
      method: "POST",
      url: "/api/v1/runs/bad-6/quarantine",
      payload: { reason: "disk full on node 2" },
      headers: auth,
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().quarantine.reason).toBe("disk full on node 2");

    expect(await nodesIn()).toEqual([3]);
    for (const view of ["durability", "repeatability"]) expect(await runsIn(view)).not.toContain("bad-6");
    expect(await sweepRuns()).toBe(sweepRunsBefore - 1);
    const listed = (await get("/api/v1/runs?scenario=admin")).runs as {
      id: string;
      quarantine: { reason: string } | null;
    }[];
    expect(listed.find((x) => x.id === "bad-6")?.quarantine?.reason).toBe("disk full on node 2");
    expect(listed.find((x) => x.id === "keep-3")?.quarantine).toBeNull();
    expect(
      ((await get("/api/v1/runs?scenario=admin&quarantined=exclude")).runs as { id: string }[]).map((x) => x.id),
    ).not.toContain("bad-6");
    expect((await get("/api/v1/runs/bad-6")).run.quarantine.reason).toBe("disk full on node 2");

    const lifted = await app.inject({ method: "DELETE", url: "/api/v1/runs/bad-6/quarantine", headers: auth });
    expect(lifted.json()).toEqual({ id: "bad-6", quarantine: null });
    expect(await nodesIn()).toEqual([3, 6]);
  });

  it("delete removes a run and everything under it, nothing else", async () => {
    const before = await db.prisma.clientResult.count();
    expect((await app.inject({ method: "DELETE", url: "/api/v1/runs/bad-6" })).statusCode).toBe(401);
    const r = await app.inject({ method: "DELETE", url: "/api/v1/runs/bad-6", headers: auth });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ deleted: "bad-6", clientResults: 2 });
    expect(await db.prisma.clientResult.count()).toBe(before - 2);
    expect(await db.prisma.operationStat.count({ where: { clientResult: { runId: "bad-6" } } })).toBe(0);
    expect((await app.inject({ url: "/api/v1/runs/bad-6" })).statusCode).toBe(404);
    expect(await nodesIn()).toEqual([3]);
    expect((await app.inject({ method: "DELETE", url: "/api/v1/runs/bad-6", headers: auth })).statusCode).toBe(404);
  });

  it("quarantine, its second reason, release and delete are audited: who (the token's name), when, why, the state before", async () => {
    const asAlice = { authorization: `Bearer ${ALICE}` };
    const q = (reason: string, headers: Record<string, string>) =>
      app.inject({ method: "POST", url: "/api/v1/runs/keep-3b/quarantine", payload: { reason }, headers });
    expect((await q("client 1 saturated", asAlice)).statusCode).toBe(200);
    // Quarantining again replaces the reason and time the run shows, and the audit keeps the first.
    expect((await q("\u202eclient 0 also\u202c", auth)).statusCode).toBe(200);
    expect(
      (await app.inject({ method: "DELETE", url: "/api/v1/runs/keep-3b/quarantine", headers: asAlice })).statusCode,
    ).toBe(200);
    expect((await app.inject({ method: "DELETE", url: "/api/v1/runs/keep-3b", headers: auth })).statusCode).toBe(200);
    const r = await app.inject({ url: "/api/v1/runs/keep-3b/audit" });
    expect(r.statusCode, r.body).toBe(200);
    const { exists, entries } = r.json() as {
      exists: boolean;
      entries: {
        action: string;
        actor: string;
        at: string;
        reason: string | null;
        previous: Record<string, unknown>;
      }[];
    };
    expect(exists).toBe(false);
    expect(entries.map((e) => [e.action, e.actor, e.reason])).toEqual([
      ["quarantine", "alice", "client 1 saturated"],
      ["quarantine", "write-token", "\u202eclient 0 also\u202c"],
      ["release", "alice", null],
      ["delete", "write-token", null],
    ]);
    expect(entries[0]!.previous).toEqual({ quarantine: null });
    expect((entries[1]!.previous.quarantine as { reason: string }).reason).toBe("client 1 saturated");
    expect(entries[3]!.previous).toMatchObject({
      scenario: "admin",
      engine: "cassandra",
      nodes: 3,
      quarantine: null,
      phases: 1,
      clientResults: 2,
    });
    for (const e of entries) expect(Date.parse(e.at)).not.toBeNaN();
    expect((await app.inject({ url: "/api/v1/runs/never-stored/audit" })).statusCode).toBe(404);
  });

  it("published runs change only through the reference loader", async () => {
    const published = await db.prisma.run.findFirstOrThrow({ where: { source: { kind: "published" } } });
    const del = await app.inject({ method: "DELETE", url: `/api/v1/runs/${published.id}`, headers: auth });
    expect(del.statusCode).toBe(409);
    expect(del.json().message).toMatch(/reference loader/);
    const q = await app.inject({
      method: "POST",
      url: `/api/v1/runs/${published.id}/quarantine`,
      payload: { reason: "x" },
      headers: auth,
    });
    expect(q.statusCode).toBe(409);
  });
});
