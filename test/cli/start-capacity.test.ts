import { describe, expect, it } from "vitest";
import { UsageError } from "../../cli/command.js";
import { benchmarkOutcome, benchmarkPlan, describeCell, withCapacityDefault } from "../../cli/commands/start.js";
import { FIRST_BENCHMARK, LOCAL_CAPACITY_SLO } from "../../model/local-cell.js";

/** `npm start -- --capacity`: the options a capacity search of the local benchmark takes, checked before anything starts. */
describe("npm start's capacity search", () => {
  it("--capacity without an SLO takes the local default; with one, keeps it", () => {
    expect(withCapacityDefault(["--capacity"])).toEqual(["--capacity", LOCAL_CAPACITY_SLO]);
    expect(withCapacityDefault(["--capacity", "--preset", "durable"])).toEqual([
      "--capacity",
      LOCAL_CAPACITY_SLO,
      "--preset",
      "durable",
    ]);
    expect(withCapacityDefault(["--capacity", "READ p95 50ms"])).toEqual(["--capacity", "READ p95 50ms"]);
    expect(withCapacityDefault(["--target", "100"])).toEqual(["--target", "100"]);
  });

  it("runs the first benchmark's cell searched instead of held at its target, and passes the search to local run", () => {
    const b = benchmarkPlan({ capacity: LOCAL_CAPACITY_SLO, resolution: "50" }, "cassandra");
    expect(b.scenario).toBe(FIRST_BENCHMARK.scenario);
    expect(b.threads).toBe(String(FIRST_BENCHMARK.threadsPerClient));
    expect(b.target).toBeUndefined();
    expect(b.capacity).toEqual(["--capacity", LOCAL_CAPACITY_SLO, "--resolution", "50"]);
    expect(describeCell(b)).toContain(`a capacity search under "${LOCAL_CAPACITY_SLO}"`);
    // Without --capacity the default benchmark is as it was: its fixed target, no search.
    const plain = benchmarkPlan({}, "cassandra");
    expect(plain.target).toBe(String(FIRST_BENCHMARK.targetOpsSec));
    expect(plain.capacity).toBeUndefined();
  });

  it("a bad SLO, a target beside the search or a refinement without it is a usage error naming the option", () => {
    expect(() => benchmarkPlan({ capacity: "fast please" }, "cassandra")).toThrow(UsageError);
    expect(() => benchmarkPlan({ capacity: "fast please" }, "cassandra")).toThrow(
      /--capacity: "fast please" is not an SLO/,
    );
    expect(() => benchmarkPlan({ capacity: LOCAL_CAPACITY_SLO, threads: "2", target: "100" }, "cassandra")).toThrow(
      "--target: a capacity search sets the target itself",
    );
    expect(() => benchmarkPlan({ resolution: "50" }, "cassandra")).toThrow("--resolution: only with --capacity");
  });

  it("its last line points at the Capacity and cost view", () => {
    const o = { interrupted: false, failed: 0, url: "http://127.0.0.1:8080", scenario: FIRST_BENCHMARK.scenario };
    expect(benchmarkOutcome({ ...o, capacity: true })).toBe(
      "benchmark: done; each search's ladder and its SLO in the Capacity and cost view: http://127.0.0.1:8080/?view=capacity",
    );
    expect(benchmarkOutcome(o)).toMatch(/beside the study's published figures/);
  });
});
