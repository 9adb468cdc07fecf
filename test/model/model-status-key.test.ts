import { describe, expect, it } from "vitest";
import { classifyKey, parseStatusKey, statusKey, statusLogKey } from "../../model/results-layout.js";

describe("an instance's status marker among a run's keys", () => {
  it("reads the run and instance of a status key, and nothing else", () => {
    expect(parseStatusKey(statusKey("r-1", "node-3"))).toEqual({ runId: "r-1", instance: "node-3" });
    expect(parseStatusKey(statusKey("r-1", "client-0"))).toEqual({ runId: "r-1", instance: "client-0" });
    expect(parseStatusKey(statusLogKey("r-1", "node-3"))).toBeUndefined();
    expect(parseStatusKey("runs/r-1/status/node-3.json/")).toBeUndefined();
    expect(parseStatusKey("runs/r-1/status/other.json")).toBeUndefined();
    // The importer still files it under the run's layout (not an unknown key to report).
    expect(classifyKey(statusKey("r-1", "node-3"))).toEqual({ kind: "layout" });
  });
});
