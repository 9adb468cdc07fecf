import { describe, expect, test } from "vitest";
import { maxOfClientPercentiles } from "../../model/aggregate/index.js";

/** The rule as first written (a list per key, Math.max over it): the loops must answer the same. */
function reference(inputs: { percentilesUs: Record<string, number> }[]): Record<string, number | null> {
  const keys = [...new Set(inputs.flatMap((o) => Object.keys(o.percentilesUs)))].sort((a, b) => Number(a) - Number(b));
  const out: Record<string, number | null> = {};
  for (const k of keys) {
    const vs = inputs.map((o) => o.percentilesUs[k]).filter((v): v is number => v !== undefined);
    out[k] = vs.length === inputs.length && vs.length ? Math.max(...vs) : null;
  }
  return out;
}

describe("each percentile's largest over a phase's clients (model/aggregate/phase.ts)", () => {
  test("is null where a client lacks the percentile, the largest value where all have it, keys in numeric order", () => {
    expect(
      maxOfClientPercentiles([
        { percentilesUs: { "99": 10, "95": 5, "99.9": 20 } },
        { percentilesUs: { "95": 7, "99": 9 } },
      ]),
    ).toEqual({ "95": 7, "99": 10, "99.9": null });
    expect(Object.keys(maxOfClientPercentiles([{ percentilesUs: { "100": 1, "99": 2, "9": 3 } }]))).toEqual([
      "9",
      "99",
      "100",
    ]);
    expect(maxOfClientPercentiles([])).toEqual({});
  });

  test("answers as the list-per-key rule on generated clients", () => {
    let seed = 11;
    const random = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    const keys = ["50", "90", "95", "99", "99.9", "99.99", "100"];
    for (let i = 0; i < 500; i++) {
      const inputs = Array.from({ length: 1 + Math.floor(random() * 6) }, () => ({
        percentilesUs: Object.fromEntries(
          keys.filter(() => random() < 0.8).map((k) => [k, Math.round(random() * 1e6) / 10]),
        ),
      }));
      expect(maxOfClientPercentiles(inputs)).toEqual(reference(inputs));
    }
  });
});
