import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../api/build.js";
import { type Database, openDatabase } from "../../api/db/open.js";
import { loadReferenceData } from "../../api/store/reference-data.js";
import type { ResultDocument } from "../../model/result-document.js";
import { seededRandom as random } from "../support/seeded-random.js";
import { auth, fixtureDocument, freshPostgresDatabase, testConfig } from "./api-helpers.js";

/**
 * One run of a configuration's history: a real client's output (test/fixtures/ycsb) with its throughput scaled by
 * `factor` and its runtime by 1/factor (the same operations in less or more time: the document stays consistent).
 */
function historyRun(
  id: string,
  day: number,
  version: string,
  factor: number,
  preset: "balanced" | "durable",
): ResultDocument {
  const d = fixtureDocument({ runId: id, clients: 1, preset, scenario: "history" });
  const overall = d.result.overall;
  return {
    ...d,
    run: { ...d.run, engineVersion: version, startedAt: new Date(Date.UTC(2026, 0, 1 + day)).toISOString() },
    result: {
      ...d.result,
      overall: {
        ...overall,
        runtimeMs: overall.runtimeMs / factor,
        throughputOpsSec: overall.throughputOpsSec * factor,
      },
    },
  };
}

describe("dashboard API: facets, timeline, regressions and baselines (Postgres)", () => {
  let db: Database;
  let app: FastifyInstance;
  // A 12 % drop planted between 5.0.4 and 5.0.5 under 1 % noise; a second configuration with 2 % noise and nothing else.
  const stepRuns = Array.from({ length: 24 }, (_, i) => ({
    id: `step-${String(i).padStart(2, "0")}`,
    day: i,
    version: i < 12 ? "5.0.4" : "5.0.5",
  }));
  const noiseRuns = Array.from({ length: 24 }, (_, i) => ({
    id: `noise-${String(i).padStart(2, "0")}`,
    day: i,
    version: "5.0.4",
  }));

  beforeAll(async () => {
    db = await openDatabase({ databaseUrl: await freshPostgresDatabase("api_dashboard") });
    app = await buildApp(testConfig(), { database: db, logLevel: "silent" });
    await loadReferenceData(db.prisma, ["002"]);
    const gauss = (r: () => number) => Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
    const r1 = random(17);
    const r2 = random(23);
    const docs = [
      ...stepRuns.map((s, i) =>
        historyRun(s.id, s.day, s.version, (i < 12 ? 1 : 0.88) * (1 + 0.01 * gauss(r1)), "balanced"),
      ),
      ...noiseRuns.map((s) => historyRun(s.id, s.day, s.version, 1 + 0.02 * gauss(r2), "durable")),
    ];
    const r = await app.inject({ method: "POST", url: "/api/v1/results", payload: docs, headers: auth });
    expect(r.statusCode, r.body).toBe(201);
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  const get = async (url: string) => {
    const r = await app.inject({ url });
    expect(r.statusCode, r.body).toBe(200);
    return r.json();
  };

  it("GET /facets: every filter's values with their runs, without listing a run", async () => {
    const f = await get("/api/v1/facets");
    const published = (await get("/api/v1/runs?source=published&limit=1")).total;
    expect(published).toBeGreaterThan(0);
    expect([f.runs, f.measured, f.published]).toEqual([48 + published, 48, published]);
    expect(f.engines.reduce((a: number, e: { runs: number }) => a + e.runs, 0)).toBe(f.runs);
    expect(f.presets.filter((p: { value: string }) => p.value === "durable")).toEqual([{ value: "durable", runs: 24 }]);
    expect(
      f.versions.filter(
        (v: { engine: string; value: string }) => v.engine === "cassandra" && v.value.startsWith("5.0"),
      ),
    ).toEqual([
      { engine: "cassandra", value: "5.0.4", runs: 36 },
      { engine: "cassandra", value: "5.0.5", runs: 12 },
    ]);
    expect(f.scenarioPresets).toContainEqual({ scenario: "history", presets: ["balanced", "durable"] });
    expect(f.sources.map((s: { id: string }) => s.id)).toContain("published:002");
    expect(f.workloads.map((w: { value: string }) => w.value)).toContain("a");
  });

  it("GET /timeline: the latest measured runs, newest first, with each run's peak; `more` when the limit cut", async () => {
    const t = await get("/api/v1/timeline?limit=5&scenario=history");
    expect(t.more).toBe(true);
    expect(t.runs.map((r: { id: string }) => r.id)).toEqual(
      ["noise-23", "step-23", "noise-22", "step-22", "noise-21"].sort((a, b) =>
        a.slice(-2) === b.slice(-2) ? a.localeCompare(b) : b.slice(-2).localeCompare(a.slice(-2)),
      ),
    );
    expect(
      t.runs.every(
        (r: { peak: { workload: string; throughput: { n: number } } }) =>
          r.peak.workload === "a" && r.peak.throughput.n === 1,
      ),
    ).toBe(true);
    expect(
      (await get("/api/v1/timeline?limit=5000")).runs.some((r: { id: string }) => r.id.startsWith("web-published")),
    ).toBe(false);
  });

  it("GET /regressions finds the planted drop at the version change and flags nothing in noise alone", async () => {
    const out = await get("/api/v1/regressions?scenario=history");
    expect(out.method).toMatch(/E-Divisive/);
    const step = out.histories.find(
      (h: { configuration: { preset: string } }) => h.configuration.preset === "balanced",
    );
    const noise = out.histories.find(
      (h: { configuration: { preset: string } }) => h.configuration.preset === "durable",
    );
    expect(step.runs.map((r: { id: string }) => r.id)).toEqual(stepRuns.map((s) => s.id));
    expect(step.changes).toHaveLength(1);
    const c = step.changes[0];
    expect([c.index, c.runId, c.previousRunId, c.fromVersion, c.toVersion, c.kind]).toEqual([
      12,
      "step-12",
      "step-11",
      "5.0.4",
      "5.0.5",
      "regression",
    ]);
    expect(c.change).toBeCloseTo(-0.12, 1);
    expect(c.pValue).toBeLessThan(0.001);
    expect(noise.runs).toHaveLength(24);
    expect(noise.changes).toEqual([]);
    // Ordered by version, the change is where the version changes too.
    const byVersion = await get("/api/v1/regressions?scenario=history&order=version&preset=balanced");
    expect(byVersion.order).toBe("version");
    expect(byVersion.histories[0].changes.map((x: { toVersion: string }) => x.toVersion)).toEqual(["5.0.5"]);
    // A window (the view's first answer): the configuration's newest 10 runs, oldest first, and no change left in it.
    const window = (await get("/api/v1/regressions?scenario=history&preset=balanced&last=10")).histories[0];
    expect(window.runs.map((r: { id: string }) => r.id)).toEqual(stepRuns.slice(-10).map((s) => s.id));
    expect(window.changes).toEqual([]);
  });

  it("a run pinned as its configuration's baseline: every run's difference to it, replaced by the next pin, unpinned", async () => {
    expect((await app.inject({ method: "PUT", url: "/api/v1/baselines/step-03" })).statusCode).toBe(401);
    expect((await app.inject({ method: "PUT", url: "/api/v1/baselines/nope", headers: auth })).statusCode).toBe(404);
    expect(
      (await app.inject({ method: "PUT", url: "/api/v1/baselines/web-published-lineate-cassandra-n4", headers: auth }))
        .statusCode,
    ).toBe(404);
    const published = (await get("/api/v1/runs?source=published&limit=1")).runs[0].id;
    expect((await app.inject({ method: "PUT", url: `/api/v1/baselines/${published}`, headers: auth })).statusCode).toBe(
      409,
    );

    const pin = await app.inject({
      method: "PUT",
      url: "/api/v1/baselines/step-03",
      headers: auth,
      payload: { note: "5.0.4 reference" },
    });
    expect(pin.statusCode, pin.body).toBe(200);
    expect(pin.json()).toEqual({
      configurationId: JSON.stringify(["history", "cassandra", "balanced", 3, "i4i.xlarge"]),
      runId: "step-03",
      replaced: null,
    });
    const list = await get("/api/v1/baselines");
    expect(list.baselines).toHaveLength(1);
    expect(list.baselines[0]).toMatchObject({
      runId: "step-03",
      note: "5.0.4 reference",
      engineVersion: "5.0.4",
      configuration: { scenario: "history", preset: "balanced", nodes: 3 },
    });
    const base = list.baselines[0].workloads[0].throughput.mean;

    const step = (await get("/api/v1/regressions?scenario=history&preset=balanced")).histories[0];
    expect(step.baseline).toEqual({ runId: "step-03", throughputOpsSec: base });
    const byId = new Map(
      step.runs.map((r: { id: string; changeFromBaseline: number; throughput: { mean: number } }) => [r.id, r]),
    );
    expect((byId.get("step-03") as { changeFromBaseline: number }).changeFromBaseline).toBe(0);
    const late = byId.get("step-20") as { changeFromBaseline: number; throughput: { mean: number } };
    expect(late.changeFromBaseline).toBeCloseTo((late.throughput.mean - base) / base, 12);
    expect(late.changeFromBaseline).toBeLessThan(-0.08);
    // The noise configuration has its own baseline slot: none pinned.
    expect((await get("/api/v1/regressions?scenario=history&preset=durable")).histories[0].baseline).toBeNull();

    const again = await app.inject({ method: "PUT", url: "/api/v1/baselines/step-05", headers: auth });
    expect(again.json().replaced).toBe("step-03");
    expect((await get("/api/v1/baselines")).baselines.map((b: { runId: string }) => b.runId)).toEqual(["step-05"]);
    expect((await app.inject({ method: "DELETE", url: "/api/v1/baselines/step-03", headers: auth })).statusCode).toBe(
      404,
    );
    expect((await app.inject({ method: "DELETE", url: "/api/v1/baselines/step-05", headers: auth })).statusCode).toBe(
      200,
    );
    expect((await get("/api/v1/baselines")).baselines).toEqual([]);
  });
});
