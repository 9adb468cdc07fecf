import { describe, expect, test } from "vitest";
import { answerDependency, answerKey } from "../../api/plugins/app/cache-keys.js";
import { ComputeQueue } from "../../api/plugins/app/compute-queue.js";
import { affects, runMatches, type TouchedRun, touchedByDocuments } from "../../api/store/touched.js";
import { fixtureDocument } from "./api-helpers.js";

const run: TouchedRun = {
  id: "r1",
  scenario: "lineate-2014",
  engine: "cassandra",
  engineVersion: "5.0.4",
  presets: ["balanced", "throughput"],
  nodes: 4,
  instanceTypes: ["i4i.xlarge", "c7i.xlarge"],
  sourceKind: "measured",
  startedAt: "2026-11-22T04:32:40.000Z",
  workloads: ["load", "a"],
};

describe("what a write touched drops only the answers it can change (api/store/touched.ts)", () => {
  test("a run matches the filters that select it, and no other", () => {
    expect(runMatches({}, run)).toBe(true);
    expect(
      runMatches(
        { engine: "cassandra", nodes: 4, preset: "throughput", workload: "load", instanceType: "c7i.xlarge" },
        run,
      ),
    ).toBe(true);
    expect(runMatches({ scenario: "datastax-2013" }, run)).toBe(false);
    expect(runMatches({ engine: "hbase" }, run)).toBe(false);
    expect(runMatches({ workload: "b" }, run)).toBe(false);
    expect(runMatches({ source: "published" }, run)).toBe(false);
    expect(runMatches({ from: "2026-11-23T00:00:00Z" }, run)).toBe(false);
    expect(runMatches({ to: "2026-11-23T00:00:00Z", version: "5.0.4" }, run)).toBe(true);
  });

  test("each kind of answer against each kind of write", () => {
    const write = { runs: [run] };
    expect(affects({ on: "runs", ids: ["r1", "r2"] }, write)).toBe(true);
    expect(affects({ on: "runs", ids: ["r2"] }, write)).toBe(false);
    expect(affects({ on: "filters", filters: { scenario: "lineate-2014" } }, write)).toBe(true);
    expect(affects({ on: "filters", filters: { scenario: "endpoint-2015" } }, write)).toBe(false);
    expect(affects({ on: "reference" }, write)).toBe(false);
    expect(affects({ on: "reference" }, { runs: [], reference: true })).toBe(true);
    expect(affects({ on: "filters", filters: {}, baselines: true }, { runs: [], baselines: true })).toBe(true);
    expect(affects({ on: "filters", filters: {} }, { runs: [], baselines: true })).toBe(false);
    expect(affects({ on: "anything" }, { runs: [] })).toBe(true);
    expect(affects({ on: "runs", ids: ["x"] }, { runs: [], everything: true })).toBe(true);
  });

  test("the runs a batch stored, with every preset and workload of their phases", () => {
    const docs = [
      fixtureDocument({ runId: "a", preset: "durable" }),
      fixtureDocument({ runId: "a", client: 1, phaseName: "load", phaseIndex: 0 }),
    ];
    docs[1]!.phase.kind = "load";
    docs[1]!.phase.properties["ycsblab.preset"] = "throughput";
    const [a] = touchedByDocuments(docs, () => "measured");
    expect(a).toMatchObject({
      id: "a",
      presets: ["durable", "throughput"],
      workloads: ["a", "load"],
      instanceTypes: ["i4i.xlarge", "c7i.xlarge"],
    });
  });
});

describe("an answer's key and dependency (api/plugins/app/cache-keys.ts)", () => {
  test("parameters in another order are one key; another value is another", () => {
    expect(answerKey("/api/v1/scaling", {}, { engine: "cassandra", nodes: 3 })).toBe(
      answerKey("/api/v1/scaling", {}, { nodes: 3, engine: "cassandra" }),
    );
    expect(answerKey("/api/v1/scaling", {}, { nodes: 3 })).not.toBe(answerKey("/api/v1/scaling", {}, { nodes: 4 }));
    expect(answerKey("/api/v1/runs/:id", { id: "a" }, {})).not.toBe(answerKey("/api/v1/runs/:id", { id: "b" }, {}));
  });

  test("a run's page depends on its run, compare on its runs, a view on its filters, the published tables on the loader", () => {
    expect(answerDependency("/api/v1/runs/:id", "/api/v1", { id: "a" }, {})).toEqual({ on: "runs", ids: ["a"] });
    expect(answerDependency("/api/v1/compare", "/api/v1", {}, { runs: "a, b" })).toEqual({
      on: "runs",
      ids: ["a", "b"],
    });
    expect(answerDependency("/api/v1/sweeps", "/api/v1", {}, { engine: "hbase" })).toEqual({
      on: "filters",
      filters: { engine: "hbase" },
    });
    expect(answerDependency("/api/v1/reference", "/api/v1", {}, {})).toEqual({ on: "reference" });
    expect(answerDependency("/api/v1/facets", "/api/v1", {}, {})).toEqual({ on: "anything" });
  });
});

describe("turns for computing answers (api/plugins/app/compute-queue.ts)", () => {
  const never = new AbortController().signal;

  test("at most `slots` at once; the others start as slots free", async () => {
    const q = new ComputeQueue(2);
    const a = await q.acquire("x", never);
    const b = await q.acquire("y", never);
    let third = false;
    const c = q.acquire("z", never).then((r) => ((third = true), r));
    await Promise.resolve();
    expect(third).toBe(false);
    expect(q.busy).toBe(2);
    a();
    (await c)();
    b();
    expect(q.busy).toBe(0);
  });

  test("addresses take turns: one client's pile of requests never goes before another client's one", async () => {
    const q = new ComputeQueue(1);
    const first = await q.acquire("attacker", never);
    const order: string[] = [];
    const waits = [...Array.from({ length: 5 }, (_, i) => ["attacker", `attacker-${i}`]), ["viewer", "viewer"]].map(
      ([address, name]) =>
        q.acquire(address!, never).then((release) => {
          order.push(name!);
          release();
        }),
    );
    first();
    await Promise.all(waits);
    expect(order.indexOf("viewer")).toBeLessThanOrEqual(1);
  });

  test("a request whose client left is dropped from the queue, never started", async () => {
    const q = new ComputeQueue(1);
    const first = await q.acquire("a", never);
    const gone = new AbortController();
    const dropped = q.acquire("b", gone.signal);
    gone.abort(new Error("client gone"));
    await expect(dropped).rejects.toThrow("client gone");
    expect(q.queued).toEqual({});
    first();
    expect(q.busy).toBe(0);
  });
});
