import { describe, expect, it } from "vitest";
import { analyseScaling } from "../../model/aggregate/scaling.js";

describe("scaling analysis: seed 002's score only where seed 002's cluster sizes are", () => {
  it("gives no seed 002 score to a series at 1, 2 and 4 nodes, only each 1 -> k efficiency", () => {
    // 540 -> 1,550 -> 3,024 ops/s: what a measured series at 1/2/4 nodes looked like under a "seed 002" label (186 %, ...).
    const a = analyseScaling([
      { nodes: 1, throughputOpsSec: 540 },
      { nodes: 2, throughputOpsSec: 1550 },
      { nodes: 4, throughputOpsSec: 3024 },
    ]);
    expect(a.score).toBeNull();
    expect(a.steps.map((s) => [s.fromNodes, s.toNodes])).toEqual([
      [1, 2],
      [1, 4],
    ]);
    expect(a.steps[0]!.efficiency).toBeCloseTo((1550 / 540 - 1) / 1, 9);
    expect(a.steps[1]!.efficiency).toBeCloseTo((3024 / 540 - 1) / 3, 9);
  });

  it("scores a series at 4, 6 and 8 nodes from those three, as seed 002 did, even with other sizes measured", () => {
    // Seed 002, Cassandra read-heavy: 4->6 +21.07 % (linear +50 %), 4->8 +64.38 % (linear +100 %): 53.26 %.
    const points = [
      { nodes: 4, throughputOpsSec: 100 },
      { nodes: 6, throughputOpsSec: 121.07 },
      { nodes: 8, throughputOpsSec: 164.38 },
    ];
    expect(analyseScaling(points).score! * 100).toBeCloseTo(53.26, 2);
    const withTwo = analyseScaling([{ nodes: 2, throughputOpsSec: 55 }, ...points]);
    expect(withTwo.score! * 100).toBeCloseTo(53.26, 2);
    expect(withTwo.baseNodes).toBe(2);
    expect(analyseScaling(points.slice(0, 2)).score).toBeNull();
  });
});
