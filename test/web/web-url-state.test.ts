import { describe, expect, it } from "vitest";
import { allInOrder } from "../../web/src/api.js";
import { seriesToCsv, toCsv } from "../../web/src/csv.js";
import { listParam, parseState, serializeState, withParams } from "../../web/src/url-state.js";

describe("URL state", () => {
  it("round-trips a view state into one canonical permalink", () => {
    const state = parseState("?workload=a&view=scaling&scenario=lineate-2014&empty=");
    expect(state).toEqual({ view: "scaling", params: { workload: "a", scenario: "lineate-2014" } });
    expect(serializeState(state)).toBe("?view=scaling&scenario=lineate-2014&workload=a");
    expect(parseState(serializeState(state))).toEqual(state);
  });
  it("falls back to the runs explorer for an unknown view", () => {
    expect(parseState("?view=nope&engine=hbase")).toEqual({ view: "runs", params: { engine: "hbase" } });
    expect(parseState("")).toEqual({ view: "runs", params: {} });
  });
  it("sets and clears parameters", () => {
    const s = withParams(
      { view: "runs", params: { engine: "hbase", page: "3" } },
      { page: undefined, preset: "durable", engine: "" },
    );
    expect(s).toEqual({ view: "runs", params: { preset: "durable" } });
  });
  it("encodes run ids with reserved characters", () => {
    const s = { view: "compare" as const, params: { runs: "a:1,b&c" } };
    expect(parseState(serializeState(s))).toEqual(s);
    expect(listParam(" a:1, ,b&c,a:1 ")).toEqual(["a:1", "b&c"]);
  });
});

describe("CSV export", () => {
  it("quotes fields with commas, quotes and line breaks", () => {
    expect(
      toCsv(
        ["a", "b"],
        [
          ["x,y", 'say "hi"'],
          [1.5, null],
          ["line\nbreak", Number.NaN],
        ],
      ),
    ).toBe('a,b\r\n"x,y","say ""hi"""\r\n1.5,\r\n"line\nbreak",\r\n');
  });
  it("writes one line per point of every series", () => {
    const csv = seriesToCsv("nodes", "ops", [
      {
        label: "cassandra",
        points: [
          { x: 4, y: 10 },
          { x: 8, y: 18 },
        ],
      },
      { label: "mongodb: Lineate 2014, Table 1", points: [{ x: 4, y: 12 }] },
    ]);
    expect(csv.trim().split("\r\n")).toEqual([
      "series,nodes,ops",
      "cassandra,4,10",
      "cassandra,8,18",
      '"mongodb: Lineate 2014, Table 1",4,12',
    ]);
  });
});

describe("allInOrder", () => {
  const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));
  const failLater = (ms: number, message: string) =>
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(message)), ms));
  it("gives every value in argument order", async () => {
    await expect(allInOrder([later(20, "scaling"), Promise.resolve(2)])).resolves.toEqual(["scaling", 2]);
  });
  it("reports the first request in argument order that failed, not the first failure to arrive", async () => {
    const own = failLater(30, "GET /scaling failed (404)");
    const helper = Promise.reject(new Error("GET /runs failed (404)"));
    await expect(allInOrder([own, helper])).rejects.toThrow("GET /scaling failed (404)");
    await expect(allInOrder([Promise.resolve(1), helper])).rejects.toThrow("GET /runs failed (404)");
  });
});
