import { describe, expect, it } from "vitest";
import { clientBoundNotice, studyPageUrl } from "../../cli/start-notices.js";
import { FIRST_BENCHMARK, localCell, scaleOf } from "../../model/local-cell.js";
import { buildPlan } from "../../model/plan.js";
import { scenario } from "../../model/scenarios.js";
import type { PhaseView, RunDetail } from "../../web/src/api.js";
import { citationYear, defaultScenario, defaultWorkload, newestRecurring } from "../../web/src/defaults.js";
import { distinctLooks } from "../../web/src/palette.js";
import { axisType } from "../../web/src/scales.js";
import { reasonCode, verdictNote } from "../../web/src/verdicts.js";
import { changeText, percentText } from "../../web/src/views/common.js";
import { compareEntries, referenceEntry, unequalSetups } from "../../web/src/views/compare-groups.js";

function run(id: string, over: Partial<RunDetail["run"]> = {}, phase: Partial<PhaseView> = {}): RunDetail {
  return {
    run: {
      id,
      scenario: "s",
      engine: "cassandra",
      engineVersion: "5.0.4",
      preset: "balanced",
      nodes: 1,
      instanceTypes: { data: "local", client: "local" },
      standIn: null,
      quarantine: null,
      replication: 1,
      repeat: 0,
      startedAt: "2026-01-01T00:00:00Z",
      source: { kind: "measured" },
      verdict: "valid",
      reasons: [],
      workloads: ["a"],
      throughputOpsSec: 100,
      peak: null,
      records: 10_000,
      finishedAt: null,
      ...over,
    },
    cost: { priced: false, statement: "local run" },
    phases: [
      {
        name: "a",
        index: 0,
        operationCount: null,
        kind: "workload",
        workload: "a",
        threadsPerClient: 4,
        clients: 1,
        throughputOpsSec: 100,
        runtimeMs: 1000,
        operations: {},
        verdict: "valid",
        reasons: [],
        runId: id,
        repeat: 0,
        target: null,
        clientsReported: 1,
        ...phase,
      },
    ],
  };
}

describe("npm start's first benchmark is a cell of a study", () => {
  it("keeps the study's name, engines and presets; one thread count and a target replace its steps and their resets", () => {
    const spec = localCell(scenario(FIRST_BENCHMARK.scenario), {
      scale: FIRST_BENCHMARK.scale,
      threadsPerClient: 4,
      targetOpsSec: 300,
    });
    expect(spec.name).toBe("usa-2015-durability");
    expect(spec.threads).toEqual({ perClient: 4 });
    expect(spec.resets?.step).toBeUndefined();
    expect(spec.departures!.at(-1)!.what).toBe(
      "run on one machine at scale 0.0005: 4 thread(s) per client at a target of 300 ops/s, not the study's thread steps",
    );
    const plan = buildPlan(spec, { engine: "cassandra", preset: "durable", scale: FIRST_BENCHMARK.scale });
    const measured = plan.phases.filter((p) => p.kind === "workload");
    expect(measured.map((p) => [p.name, p.threadsPerClient, p.target])).toEqual([
      ["a-target300", 4, 300],
      ["b-target300", 4, 300],
    ]);
    expect(plan.deployment.recordCount).toBe(10_000);
    expect(scaleOf(spec, 1, 10_000)).toBe(0.0005);
  });

  it("says once what client-bound means and how to get a valid run; names the study's page", () => {
    const phases = [
      {
        phase: "load",
        verdict: "warning",
        reasons: [
          {
            code: "client-bound",
            message: "client CPU averaged 93% (> 70%): the client, not the database, may be the limit",
          },
        ],
      },
      { phase: "a", verdict: "valid", reasons: [] },
    ];
    const notice = clientBoundNotice(phases, { cores: 2, engine: "cassandra", scenario: "usa-2015-durability" })!;
    expect(notice).toMatch(
      /^benchmark: 1 of 2 phase\(s\) came back warning \(client-bound\) \(CPU up to 93 %\): YCSB, cassandra and the dashboard share this machine's 2 core\(s\)/,
    );
    expect(notice).toContain("npm start -- --target 150");
    expect(notice).toContain("stacks/Pulumi.usa-2015-durability.yaml");
    expect(clientBoundNotice([phases[1]!], { cores: 2, engine: "cassandra", scenario: "x" })).toBeNull();
    expect(studyPageUrl("http://h:1", "usa-2015-durability")).toBe("http://h:1/?view=study&seed=004");
    expect(studyPageUrl("http://h:1", "quickstart")).toBe("http://h:1/?view=runs&scenario=quickstart");
  });
});

describe("views: defaults, looks, verdicts, numbers", () => {
  it("open on the newest measured scenario they can draw, else the newest study; workload A", () => {
    const year = (s: string) => ({ "endpoint-2015": 2015, "lineate-2014": 2014 })[s] ?? null;
    expect(defaultScenario(["lineate-2014", "endpoint-2015", "web"], ["other", "web"], year)).toBe("web");
    expect(defaultScenario(["lineate-2014", "endpoint-2015"], ["other"], year)).toBe("endpoint-2015");
    expect(defaultWorkload(["b", "load", "a"])).toBe("a");
    expect(defaultWorkload(["load", "f", "b"])).toBe("b");
    expect(citationYear('End Point, "Benchmarking", 2015')).toBe(2015);
  });

  it("open a history or repeat view on the newest run whose configuration recurs, else the newest", () => {
    const runs = ["p1", "q1", "r1", "q2", "r2"].map((id) => ({ id, config: id[0]! }));
    expect(newestRecurring(runs, (r) => r.config)?.id).toBe("q1");
    expect(newestRecurring(runs.slice(0, 2), (r) => r.config)?.id).toBe("p1");
    expect(newestRecurring([], (r: { config: string }) => r.config)).toBeUndefined();
  });

  it("give every series its own colour, dash and marker; published ones never solid", () => {
    const looks = distinctLooks(
      Array.from({ length: 20 }, (_, i) => ({ colour: i % 2 ? "#0072B2" : "#D55E00", published: i % 3 === 0 })),
    );
    const keys = looks.map((l) => `${l.borderColor}|${JSON.stringify(l.borderDash ?? [])}|${l.pointStyle}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const [i, l] of looks.entries()) expect(i % 3 === 0 ? l.borderDash !== undefined : true).toBe(true);
  });

  it("log axes only beyond a decade; no -0 %", () => {
    expect(axisType("auto", [100, 900])).toBe("linear");
    expect(axisType("auto", [50_000, 1_300_000])).toBe("logarithmic");
    expect(percentText(-0.0004)).toBe("0 %");
    expect(changeText(-0.0004)).toBe("0.0 %");
    expect(changeText(0.1234)).toBe("+12.3 %");
  });

  it("name the verdicts a chart's hollow marks stand on", () => {
    expect(reasonCode("client CPU averaged 93% (> 70%): the client, not the database, may be the limit")).toBe(
      "client-bound",
    );
    expect(reasonCode("achieved 194 ops/s of the 300 ops/s target (64.7% < 95%)")).toBe("saturated");
    expect(verdictNote([{ verdict: "valid", reasons: [] }])).toBe("");
    expect(
      verdictNote([
        { verdict: "warning", reasons: ["client CPU averaged 93% (> 70%)"] },
        { verdict: "invalid", reasons: ["3 of 50 operations failed (6.00%)"] },
      ]),
    ).toMatch(/\(1 warning and 1 invalid: client-bound, failed operations\)/);
  });
});

describe("compare: runs stored as repeats pooled, an invalid run never the default reference, unequal setups said", () => {
  it("pools runs of one configuration with distinct repeat indexes, keeps two runs of one index apart", () => {
    const entries = compareEntries(
      [run("r0"), run("r1", { repeat: 1 }), run("other", { preset: "durable" })],
      undefined,
      undefined,
      true,
    );
    expect(entries.map((e) => [e.id, e.runs.length, e.phases.length])).toEqual([
      ["r0", 2, 2],
      ["other", 1, 1],
    ]);
    expect(compareEntries([run("x"), run("y")], undefined, undefined, true).map((e) => e.runs.length)).toEqual([1, 1]);
    expect(compareEntries([run("r0"), run("r1", { repeat: 1 })], undefined, undefined, false)).toHaveLength(2);
  });

  it("takes the first run not judged invalid as the reference, and names unequal loads, data and machines", () => {
    const entries = compareEntries(
      [
        run("bad", {}, { verdict: "invalid", reasons: ["6 of 100 operations failed (6.00%)"] }),
        run(
          "ok",
          { records: 20_000_000, instanceTypes: { data: "i4i.4xlarge", client: "local" } },
          { threadsPerClient: 128 },
        ),
      ],
      undefined,
      undefined,
      true,
    );
    expect(referenceEntry(entries, undefined, new Set()).id).toBe("ok");
    expect(referenceEntry(entries, "bad", new Set()).id).toBe("bad");
    expect(unequalSetups(entries)).toEqual([
      "unequal loads: 4 threads vs 128 threads",
      "unequal data sets: 10,000 vs 20,000,000 records",
      "different machines: local vs i4i.4xlarge",
    ]);
  });
});
