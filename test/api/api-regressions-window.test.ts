import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../api/db/open.js";
import { regressions } from "../../api/store/histories.js";
import { ingestDocuments } from "../../api/store/ingest.js";
import { quarantineRun } from "../../api/store/run-admin.js";
import type { ResultDocument } from "../../model/result-document.js";
import { fixtureDocument, freshPostgresDatabase } from "./api-helpers.js";

// GET /regressions?last= reads each configuration's window in one statement (its runs and their phases as JSON,
// api/store/queries/history-runs.ts); without `last` Prisma reads every run. Each window must be the tail of the
// whole history, value for value: the peak over two load levels, throughputs that are not whole numbers, a verdict, a
// quarantined run left out. On both stores.

const LAST = 5;
const RUNS = 14;

/** Run k of a configuration: two load levels (t4, t8), each at a throughput no run shares. */
function historyRun(preset: "balanced" | "durable", k: number): ResultDocument[] {
  return [
    { name: "a-t4", index: 2, threads: 4, factor: 1 + k * 0.0137 },
    { name: "a-t8", index: 3, threads: 8, factor: 1.31 + k * 0.0071 },
  ].map((level) => {
    const d = fixtureDocument({
      runId: `window-${preset}-${k}`,
      clients: 1,
      preset,
      scenario: "window",
      phaseName: level.name,
      phaseIndex: level.index,
      threads: level.threads,
    });
    d.run.startedAt = new Date(Date.UTC(2026, 0, 1 + k)).toISOString();
    d.run.engineVersion = k < 7 ? "5.0.4" : "5.0.5";
    const overall = d.result.overall;
    d.result.overall = {
      ...overall,
      runtimeMs: overall.runtimeMs / level.factor,
      throughputOpsSec: overall.throughputOpsSec * level.factor,
    };
    if (preset === "durable" && k === RUNS - 2 && level.name === "a-t8")
      d.validity = { verdict: "invalid", reasons: [{ code: "planted", message: "planted for the test" }] };
    return d;
  });
}

describe.each(["pglite", "postgres"] as const)("a history's window on %s", (kind) => {
  let db: Database;

  beforeAll(async () => {
    db =
      kind === "postgres"
        ? await openDatabase({ databaseUrl: await freshPostgresDatabase("regressions_window") })
        : await openDatabase({});
    const docs = (["balanced", "durable"] as const).flatMap((p) =>
      Array.from({ length: RUNS }, (_, k) => historyRun(p, k)).flat(),
    );
    await ingestDocuments(db.prisma, docs);
    expect((await quarantineRun(db.prisma, `window-balanced-${RUNS - 1}`, "disk full", "test")).status).toBe("done");
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  it("answers each configuration's newest runs as the whole history's tail, value for value", async () => {
    const whole = await regressions(db.prisma, { scenario: "window" }, "time");
    const window = await regressions(db.prisma, { scenario: "window" }, "time", LAST);
    expect(window.histories.map((h) => h.configurationId)).toEqual(whole.histories.map((h) => h.configurationId));
    expect(whole.histories.map((h) => h.runs.length)).toEqual([RUNS - 1, RUNS]);
    for (const [i, h] of window.histories.entries()) {
      expect(h.runs).toEqual(whole.histories[i]!.runs.slice(-LAST));
      expect(h.runs.map((r) => r.id)).not.toContain(`window-balanced-${RUNS - 1}`);
    }
    const durable = window.histories.find((h) => h.configuration.preset === "durable")!;
    // The invalid t8 phase leaves the peak to the valid t4 phase of that run.
    expect(durable.runs.find((r) => r.id === `window-durable-${RUNS - 2}`)!.phase).toBe("a-t4");
    expect(durable.runs.find((r) => r.id === `window-durable-${RUNS - 1}`)!.phase).toBe("a-t8");
    expect(durable.runs.every((r) => !Number.isInteger(r.throughput.mean))).toBe(true);
  });
});
