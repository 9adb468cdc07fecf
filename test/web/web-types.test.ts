import type { Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { describe, expect, expectTypeOf, it } from "vitest";
import { PhaseResult, RunSummary } from "../../model/api-schemas.js";
import { phaseView, runRow } from "../../web/src/api/runs.js";
import type { PhaseView, RunRow } from "../../web/src/api.js";

/**
 * The dashboard's types are the API's schemas, not a second model mapped by hand: a column added to a schema reaches
 * the views without an edit in web/src/api (tsc checks the types, these tests the values the mappers pass on).
 */
describe("the dashboard's types come from the API's schemas", () => {
  it("a run row has every column of the API's run, under the API's names", () => {
    expectTypeOf<keyof RunRow>().toEqualTypeOf<keyof Static<typeof RunSummary>>();
    const run = Value.Create(RunSummary);
    const row = runRow({ ...run, quarantine: { reason: "r", at: "t" }, phases: 3 });
    for (const column of Object.keys(RunSummary.properties)) expect(row, column).toHaveProperty(column);
    expect(row.instanceTypes).toEqual(run.instanceTypes);
    expect(row.quarantine).toEqual({ reason: "r", at: "t" });
  });

  it("a phase carries every field of the API's phase description and of its operations", () => {
    expectTypeOf<PhaseView>().toMatchTypeOf<Omit<Static<typeof PhaseResult>["phase"], "workload">>();
    const raw = Value.Create(PhaseResult);
    const op = {
      count: 1,
      avgUs: 2,
      minUs: 1,
      maxUs: 9,
      percentilesUs: { "99": 8, "99.9": null },
      percentileMethod: "merged-hdr" as const,
      averageOfClientAveragesUs: 2,
    };
    const view = phaseView({
      ...raw,
      phase: { ...raw.phase, workload: "a" },
      aggregate: { ...raw.aggregate, operations: { READ: op } },
    });
    for (const field of Object.keys(PhaseResult.properties.phase.properties)) expect(view, field).toHaveProperty(field);
    // Percentiles no client printed are left out; every other field of the operation passes through.
    expect(view.operations.READ).toEqual({ ...op, percentilesUs: { "99": 8 } });
  });
});
