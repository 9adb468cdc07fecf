import { describe, expect, it } from "vitest";
import { type LaneResult, lanesPassed, parseRunSummary, renderLaneSummary } from "../../scripts/lane-summary.js";

const lane = (name: string, over: Partial<LaneResult> = {}): LaneResult => ({
  lane: name,
  summary: { passed: 2, failed: 0, skipped: 1, files: [{ file: `test/${name}-a.test.ts`, ms: 5_000 }] },
  exitCode: 0,
  wallMs: 61_000,
  ...over,
});

describe("one summary of lanes run side by side (scripts/lane-summary.ts)", () => {
  it("sums every lane's counts and ranks the files of all lanes together", () => {
    const slow = lane("machines", {
      summary: { passed: 3, failed: 1, skipped: 0, files: [{ file: "test/rehearse-x.test.ts", ms: 600_000 }] },
    });
    const text = renderLaneSummary([lane("unit"), slow, lane("services")]);
    expect(text).toMatch(/tests: 7 passed, 1 failed, 2 skipped\n$/);
    const listed = text.split("\n").filter((l) => l.includes(" s  test/"));
    expect(listed[0]).toContain("test/rehearse-x.test.ts  (machines)");
    expect(listed).toHaveLength(3);
    expect(text).toContain("lane machines: 61 s wall, exit 0");
  });

  it("counts a lane that ended without a summary as a failure, and the run as failed", () => {
    const crashed = lane("services", { summary: undefined, exitCode: null });
    expect(renderLaneSummary([lane("unit"), crashed])).toContain("tests: 2 passed, 1 failed, 1 skipped");
    expect(renderLaneSummary([crashed])).toContain(
      "lane services: 61 s wall, ended without a summary (exit by signal)",
    );
    expect(lanesPassed([lane("unit"), crashed])).toBe(false);
    expect(lanesPassed([lane("unit"), lane("machines")])).toBe(true);
    expect(lanesPassed([lane("unit", { exitCode: 1 })])).toBe(false);
  });

  it("refuses a summary file that is not the reporter's, naming the field", () => {
    expect(() => parseRunSummary('{"passed":1,"failed":-1,"skipped":0,"files":[]}', "x.json")).toThrow(
      "x.json: failed is not a count",
    );
    expect(() => parseRunSummary('{"passed":1,"failed":0,"skipped":0}', "x.json")).toThrow(
      "x.json: files is not a list",
    );
    expect(parseRunSummary('{"passed":1,"failed":0,"skipped":0,"files":[]}', "x.json").passed).toBe(1);
  });
});
