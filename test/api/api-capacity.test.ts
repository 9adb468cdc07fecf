import { readFileSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../api/build.js";
import { type Database, openDatabase } from "../../api/db/open.js";
import type { CapacityConfiguration } from "../../api/store/queries/capacity.js";
import { LOCAL_RUN_NO_PRICE, type ResultDocument } from "../../model/index.js";
import { auth, freshPostgresDatabase, ROOT, testConfig } from "./api-helpers.js";

/**
 * Real capacity searches (scripts/capture-capacity-fixtures.ts): YCSB's BasicDB with a fixed delay, 2 clients x 2
 * threads, so at most 4 x 1000 / delay ops/s; each search ran twice (the plan's repeats -r0 and -r1) in one run.
 */
const fixture = (delayMs: number): ResultDocument[] =>
  JSON.parse(readFileSync(`${ROOT}test/fixtures/capacity/basicdb-${delayMs}ms.json`, "utf8")) as ResultDocument[];
const BREAKING = { 10: 400, 5: 800 } as const;
const RESOLUTION = 50;

/** The same documents as another run: its id, machines or verdicts changed. */
function asRun(docs: ResultDocument[], id: string, change: (d: ResultDocument) => void = () => {}): ResultDocument[] {
  return docs.map((d) => {
    const copy = structuredClone(d);
    copy.run.id = id;
    change(copy);
    return copy;
  });
}

describe.each(["pglite", "postgres"] as const)("GET /capacity on %s", (kind) => {
  let db: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    const url = kind === "postgres" ? await freshPostgresDatabase("api_capacity") : undefined;
    db = await openDatabase(url ? { databaseUrl: url } : {});
    app = await buildApp(testConfig(), { database: db, logLevel: "silent" });
    const batches = [
      fixture(10),
      fixture(5),
      // On EC2 machines the configuration has a price ($/hour of its data nodes).
      asRun(fixture(10), "capacity-priced", (d) => (d.run.instanceTypes = { data: "m6i.large", client: "c6i.large" })),
      // A run whose every step was judged invalid: left out of the valid figures, counted with include=all.
      asRun(
        fixture(10),
        "capacity-invalid",
        (d) => (d.validity = { verdict: "invalid", reasons: [{ code: "test", message: "judged invalid" }] }),
      ),
    ];
    for (const docs of batches) {
      const r = await app.inject({ method: "POST", url: "/api/v1/results", payload: docs as object, headers: auth });
      expect(r.statusCode, r.body).toBe(201);
    }
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });
  const get = async (query = "") => {
    const r = await app.inject({ method: "GET", url: `/api/v1/capacity${query}` });
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as { configurations: CapacityConfiguration[]; leftOut: { invalid: number; incomplete: number } };
  };
  const local = (cs: CapacityConfiguration[], delayMs: number) =>
    cs.find((c) => c.instanceTypes.data === "local" && c.runs[0]!.runId === `capacity-basicdb-${delayMs}ms`)!;

  it("per configuration: the sustainable throughput over repeats, the step that broke and why, each step's percentiles", async () => {
    const { configurations, leftOut } = await get();
    expect(configurations).toHaveLength(3);
    expect(leftOut).toEqual({ invalid: 2, incomplete: 0 });
    for (const delayMs of [10, 5] as const) {
      const c = local(configurations, delayMs);
      expect(c.search).toBe("c-cap");
      expect(c.standIn).toBe("site.ycsb.BasicDB: no database");
      expect(c.slo).toEqual({ operations: ["READ"], percentile: 95, limitMs: 50, errorBudgetPct: 0 });
      expect(c.runs.map((r) => r.repeat)).toEqual([0, 1]);
      const values = c.runs.map((r) => r.result.sustainableOpsSec);
      expect(c.sustainable.n).toBe(2);
      expect(c.sustainable.mean).toBeCloseTo((values[0]! + values[1]!) / 2, 9);
      expect(c.sustainable.ci95).not.toBeNull();
      for (const { result } of c.runs) {
        const ladder = JSON.stringify(result.steps);
        expect(result.steps[0]).toMatchObject({ step: 0, role: "probe", target: null, pass: false });
        // Held at or below the breaking rate; broke within the resolution above it, on READ's intended p95.
        const held = result.steps.find((s) => s.step === result.heldStep)!;
        expect(held.target!, ladder).toBeLessThanOrEqual(BREAKING[delayMs]);
        expect(result.sustainableOpsSec).toBe(held.achievedOpsSec);
        expect(result.broke!.target - held.target!, ladder).toBeLessThanOrEqual(RESOLUTION);
        expect(result.broke!.breaches.join("; "), ladder).toMatch(/READ p95 intended [\d.]+ ms > 50 ms/);
        const read = result.steps
          .find((s) => s.step === result.broke!.step)!
          .operations.find((o) => o.operation === "READ")!;
        expect(read.intendedMs!).toBeGreaterThan(50);
        expect(read.opMs!).toBeLessThan(50);
        expect(result.price).toEqual({ priced: false, statement: LOCAL_RUN_NO_PRICE });
      }
      expect(c.price).toEqual({ priced: false, statement: LOCAL_RUN_NO_PRICE });
    }
    // A slower database sustains less.
    expect(local(configurations, 10).sustainable.mean!).toBeLessThan(local(configurations, 5).sustainable.mean!);
  });

  it("prices a configuration on EC2 machines: $/hour of its data nodes, ops/s per dollar-hour, $ per million operations", async () => {
    const { configurations } = await get();
    const priced = configurations.find((c) => c.instanceTypes.data === "m6i.large")!;
    if (!priced.price.priced) throw new Error(`not priced: ${priced.price.statement}`);
    // By hand: m6i.large on demand is 0.096 $/h (model/instance-types.ts) for each data node.
    const usdPerHour = priced.nodes * 0.096;
    const mean = priced.sustainable.mean!;
    expect(priced.price.usdPerHour).toBeCloseTo(usdPerHour, 9);
    // The runs carry no instance status markers: the table's on-demand price, and it says so.
    expect(priced.price.basis).toBe("on-demand");
    expect(priced.price.opsPerSecPerUsdHour!).toBeCloseTo(mean / usdPerHour, 6);
    expect(priced.price.usdPerMillionOps!).toBeCloseTo((usdPerHour / (mean * 3600)) * 1e6, 9);
    expect(priced.price.pricesAsOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("valid only by default; include=all counts the invalid run's searches; filters apply; CSV lists each configuration", async () => {
    const all = await get("?include=all");
    expect(all.leftOut).toEqual({ invalid: 0, incomplete: 0 });
    const ten = all.configurations.filter(
      (c) => c.instanceTypes.data === "local" && c.runs.some((r) => r.runId === "capacity-invalid"),
    );
    expect(ten).toHaveLength(1);
    expect(ten[0]!.sustainable.n).toBe(4);
    expect(ten[0]!.verdict).toBe("invalid");
    expect((await get("?engine=mongodb")).configurations).toEqual([]);
    const csv = await app.inject({ method: "GET", url: "/api/v1/capacity?format=csv" });
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split("\n")[0]).toContain("sustainableOpsSec");
    expect(csv.body.trim().split("\n")).toHaveLength(4);
  });

  it("each step is stored with its phase: its group, step and search", async () => {
    const phases = await db.prisma.phase.findMany({
      where: { runId: "capacity-basicdb-10ms" },
      orderBy: { index: "asc" },
    });
    expect(phases.length).toBeGreaterThan(2);
    for (const p of phases)
      expect(p.capacity).toMatchObject({ group: expect.stringMatching(/^c-cap-r[01]$/), search: { maxSteps: 8 } });
  });
});
