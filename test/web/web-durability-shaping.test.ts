import { Value } from "@sinclair/typebox/value";
import { describe, expect, it } from "vitest";
import { DurabilityRow, FacetsResponse, SweepSeries as SweepSchema } from "../../model/api-schemas.js";
import { durabilityCell, sweepSeries } from "../../web/src/api/aggregates.js";
import type { PublishedLatencyCell } from "../../web/src/api.js";
import {
  cellSeries,
  choose,
  commonLoads,
  equalLoadLevels,
  equalLoadSeries,
  filterOptions,
  peakNote,
  peakRows,
  presetDifferences,
  publishedSeries,
} from "../../web/src/views/durability-shaping.js";

/** The durability view's shaping on answers of the API's own shape (its schemas' defaults, the fields set here). */
const facets = Value.Create(FacetsResponse);
const stat = (mean: number, half: number | null) => ({
  n: half === null ? 1 : 3,
  mean,
  stdDev: null,
  ci95: half === null ? null : { low: mean - half, high: mean + half, halfWidth: half },
});
type Level = { threads: number; target?: number; ops: number; half?: number | null; p99Us?: number };

function levels(engine: string, preset: string, points: Level[], workload = "a", nodes = 1) {
  const point = Value.Create(SweepSchema.properties.points.items);
  return sweepSeries(
    {
      ...Value.Create(SweepSchema),
      engine,
      preset,
      workload,
      nodes,
      sourceKind: "measured",
      sourceId: "measured",
      points: points.map((l) => ({
        ...point,
        threads: l.threads,
        target: l.target ?? null,
        throughputOpsSec: l.ops,
        throughput: stat(l.ops, l.half ?? null),
        verdict: "valid",
        latency: { UPDATE: { count: 10, avgUs: 100, p99Us: l.p99Us ?? 2000, p99Method: "merged-hdr" as const } },
      })),
    },
    facets,
  );
}

function cell(
  engine: string,
  preset: string,
  ops: number,
  over: { nodes?: number; workload?: string; verdict?: string } = {},
) {
  return durabilityCell(
    {
      ...Value.Create(DurabilityRow),
      engine,
      preset,
      workload: over.workload ?? "a",
      nodes: over.nodes ?? 1,
      sourceKind: "measured",
      sourceId: "measured",
      throughputOpsSec: ops,
      throughput: stat(ops, null),
      peakThreads: [8],
      verdict: over.verdict ?? "valid",
      reasons: over.verdict ? ["client CPU averaged 93% (> 70%)"] : [],
      operations: {
        UPDATE: { count: 10, avgUs: 100, p99Us: 4000, p99Method: "merged-hdr" },
        CLEANUP: { count: 1, avgUs: 1, p99Us: 1, p99Method: "merged-hdr" },
      },
    },
    facets,
  );
}

const published = (preset: string, ms: number, printed = String(ms)): PublishedLatencyCell => ({
  scenario: "s",
  engine: "mongodb",
  preset,
  workload: "a",
  nodes: 1,
  operation: "UPDATE",
  ms,
  below: printed.startsWith("<"),
  printed,
  source: { kind: "published", citation: "Author, Title, 2015", seed: "004" },
});

describe("durability's loads in common", () => {
  it("are the loads (threads and target) every preset of the engine ran, in ascending threads", () => {
    const all = [
      levels("cassandra", "throughput", [
        { threads: 8, ops: 1 },
        { threads: 16, ops: 1 },
        { threads: 32, ops: 1 },
      ]),
      levels("cassandra", "balanced", [
        { threads: 32, ops: 1 },
        { threads: 16, ops: 1 },
      ]),
      levels("cassandra", "durable", [
        { threads: 16, ops: 1 },
        { threads: 16, target: 300, ops: 1 },
        { threads: 32, ops: 1 },
      ]),
    ];
    expect(commonLoads(all)).toEqual(["16", "32"]);
    // A target is part of the load: 16 threads at 300 ops/s is not 16 threads unthrottled.
    expect(commonLoads([all[2]!, levels("cassandra", "balanced", [{ threads: 16, target: 300, ops: 1 }])])).toEqual([
      "16@300",
    ]);
    // One preset is no comparison.
    expect(commonLoads([all[0]!])).toEqual([]);
  });

  it("the chosen load defaults to the highest any engine's presets share; levels of other workloads and sizes are left out", () => {
    const sweeps = [
      levels("cassandra", "throughput", [
        { threads: 8, ops: 1 },
        { threads: 32, ops: 1 },
      ]),
      levels("cassandra", "durable", [
        { threads: 8, ops: 1 },
        { threads: 32, ops: 1 },
      ]),
      levels("cassandra", "balanced", [{ threads: 64, ops: 1 }], "b"),
      levels("cassandra", "balanced", [{ threads: 64, ops: 1 }], "a", 3),
    ];
    const cells = [
      cell("cassandra", "throughput", 10),
      cell("cassandra", "durable", 8),
      cell("cassandra", "durable", 9, { nodes: 3 }),
    ];
    const c = choose({}, "s", { all: cells, measuredOps: ["READ", "UPDATE"], levels: sweeps, published: [] }, 0);
    expect(c).toMatchObject({ workload: "a", nodes: 1, op: "UPDATE", loads: ["8", "32"], load: "32" });
    expect(c.cells).toHaveLength(2);
    expect(c.levels).toHaveLength(2);
    const asked = choose(
      { nodes: "3", op: "READ", load: "8" },
      "s",
      { all: cells, measuredOps: ["READ"], levels: sweeps, published: [] },
      0,
    );
    expect(asked).toMatchObject({ nodes: 3, op: "READ", load: "8", loads: [] });
    expect(filterOptions(cells, c)).toEqual({ workloads: ["a"], nodeCounts: [1, 3], operations: ["UPDATE"] });
  });

  it("the equal-load series hold one value per preset in PRESETS' order, only of engines whose presets all ran it", () => {
    const c = {
      load: "16",
      levels: [
        levels("cassandra", "durable", [{ threads: 16, ops: 700, half: 10 }]),
        levels("cassandra", "throughput", [{ threads: 16, ops: 900, half: 10 }]),
        levels("mongodb", "throughput", [{ threads: 16, ops: 500 }]),
        levels("mongodb", "durable", [{ threads: 8, ops: 400 }]),
      ],
    };
    const equal = equalLoadLevels(c);
    expect(equal.map((s) => `${s.engine} ${s.preset}`)).toEqual(["cassandra durable", "cassandra throughput"]);
    const [series] = equalLoadSeries(
      equal,
      "16",
      (q) => q.throughputOpsSec,
      (q) => q.throughputCi,
    );
    expect(series!.label).toBe("cassandra (measured) at 16 threads");
    expect(series!.values).toEqual([900, null, 700]);
    expect(series!.errorBars).toEqual([{ low: 890, high: 910 }, null, { low: 690, high: 710 }]);
    expect(equalLoadLevels({ ...c, load: undefined })).toEqual([]);
  });
});

describe("durability's bars and rows", () => {
  it("a series per engine and source, a value per preset, the cell's verdict beside it; published p99s keep their printed text", () => {
    const cells = [
      cell("cassandra", "durable", 5),
      cell("cassandra", "throughput", 9, { verdict: "warning" }),
      cell("mongodb", "balanced", 7),
    ];
    const series = cellSeries(cells, (x) => x.throughputOpsSec);
    expect(series.map((s) => [s.label, s.values])).toEqual([
      ["cassandra (measured)", [9, null, 5]],
      ["mongodb (measured)", [null, 7, null]],
    ]);
    expect(series[0]!.verdicts!.map((v) => v?.verdict ?? null)).toEqual(["warning", null, "valid"]);
    const pub = publishedSeries(
      [
        published("throughput", 1, "<1ms"),
        published("durable", 40.5),
        { ...published("balanced", 3), operation: "READ" },
      ],
      "UPDATE",
    );
    expect(pub.map((s) => [s.values, s.printed])).toEqual([
      [
        [1, null, 40.5],
        ["<1ms", null, "40.5"],
      ],
    ]);
  });

  it("the peak table's rows carry p99 in ms at the peak and at the equal load, and the invalid phases left out", () => {
    const cells = [cell("cassandra", "throughput", 900)];
    const sweeps = [
      levels("cassandra", "throughput", [{ threads: 16, ops: 850, p99Us: 3000 }]),
      levels("cassandra", "durable", [{ threads: 16, ops: 600 }]),
    ];
    const c = choose({}, "s", { all: cells, measuredOps: ["UPDATE"], levels: sweeps, published: [] }, 2);
    const [row] = peakRows(c, equalLoadLevels(c), []);
    expect(row).toMatchObject({ p99Ms: 4, equalThroughput: 850, equalP99Ms: 3, leftOut: "", baseline: undefined });
    expect(peakNote(c)).toContain("Left out: 2 phase(s) judged invalid");
  });

  it("each preset against the engine's first preset: one repeat is noise unknown, CIs make it within or beyond the noise", () => {
    const sweeps = [
      levels("cassandra", "throughput", [{ threads: 16, ops: 1000, half: 10 }]),
      levels("cassandra", "balanced", [{ threads: 16, ops: 1005, half: 10 }]),
      levels("cassandra", "durable", [{ threads: 16, ops: 500, half: 10 }]),
    ];
    const cells = [cell("cassandra", "throughput", 1), cell("cassandra", "durable", 1)];
    const c = choose({}, "s", { all: cells, measuredOps: [], levels: sweeps, published: [] }, 0);
    const atLoad = presetDifferences(c, equalLoadLevels(c));
    expect(atLoad.map((d) => [d.key, d.verdict])).toEqual([
      ["cassandra|throughput|balanced", "within noise"],
      ["cassandra|throughput|durable", "exceeds noise"],
    ]);
    expect(atLoad[1]!.what).toBe("cassandra: durable vs throughput at 16 threads");
    expect(atLoad[1]!.change).toBeCloseTo(-0.5);
    // No equal load: the measured peaks, one repeat each.
    const peaks = presetDifferences({ ...c, load: undefined }, []);
    expect(peaks).toEqual([
      {
        key: "cassandra|throughput|durable",
        what: "cassandra: durable vs throughput, each at its peak",
        change: 0,
        verdict: "noise unknown",
        words: "rests on one repeat each: the noise is unknown, so this difference may be noise",
      },
    ]);
  });
});
