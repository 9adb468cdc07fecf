import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ClientOutputSchema } from "../../../model/result-document.js";
import { checkAgainst } from "../../../model/result-validation.js";
import { statusPoint, statusSeriesLength, statusSeriesProblems } from "../../../model/status-series.js";
import { appendStatusLine, parseYcsbOutput, YcsbOutputError } from "../../../runner/ycsb-output/index.js";
import { StatusSeriesBuilder } from "../../../runner/ycsb-output/status-series-builder.js";

const FIXTURES = fileURLToPath(new URL("../../fixtures/ycsb/", import.meta.url));
const real = (dir: string, file = "stdout.txt") => readFileSync(`${FIXTURES}${dir}/${file}`, "utf8");

const HEAD = `[OVERALL], RunTime(ms), 1000
[OVERALL], Throughput(ops/sec), 10.0
`;
const CLEANUP = `[CLEANUP], Operations, 1
[CLEANUP], AverageLatency(us), 2.0
[CLEANUP], MinLatency(us), 2
[CLEANUP], MaxLatency(us), 2
[CLEANUP], 95thPercentileLatency(us), 2
[CLEANUP], 99thPercentileLatency(us), 2
`;
const READ = `[READ], Operations, 10
[READ], AverageLatency(us), 100.5
[READ], MinLatency(us), 50
[READ], MaxLatency(us), 300
[READ], 95thPercentileLatency(us), 250
[READ], 99thPercentileLatency(us), 300
[READ], Return=OK, 10
`;

function thrown(fn: () => unknown): YcsbOutputError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(YcsbOutputError);
    return err as YcsbOutputError;
  }
  throw new Error("expected a YcsbOutputError");
}

describe("parseYcsbOutput on excerpts", () => {
  it("parses a minimal summary and conforms to the schema", () => {
    const r = parseYcsbOutput(HEAD + READ + CLEANUP);
    expect(checkAgainst(ClientOutputSchema, r)).toEqual([]);
    expect(r.overall).toEqual({ runtimeMs: 1000, throughputOpsSec: 10 });
    expect(r.operations.READ).toEqual({
      count: 10,
      avgUs: 100.5,
      minUs: 50,
      maxUs: 300,
      percentilesUs: { "95": 250, "99": 300 },
      returns: { OK: 10 },
    });
    expect(r.warnings).toEqual([]);
  });

  it("keeps percentile keys as printed numbers, including ordinals and decimals", () => {
    const lines = ["1st", "2nd", "3rd", "50th", "99.9", "99.99"]
      .map((p, i) => `[READ], ${p}PercentileLatency(us), ${i + 1}`)
      .join("\n");
    const r = parseYcsbOutput(
      HEAD +
        READ +
        lines +
        "\n" +
        CLEANUP +
        `[CLEANUP], 1stPercentileLatency(us), 1\n[CLEANUP], 2ndPercentileLatency(us), 1\n[CLEANUP], 3rdPercentileLatency(us), 1\n[CLEANUP], 50thPercentileLatency(us), 1\n[CLEANUP], 99.9PercentileLatency(us), 1\n[CLEANUP], 99.99PercentileLatency(us), 2\n`,
    );
    expect(Object.keys(r.operations.READ!.percentilesUs).sort()).toEqual(
      ["1", "2", "3", "50", "95", "99", "99.9", "99.99"].sort(),
    );
    expect(r.operations.READ!.percentilesUs["99.99"]).toBe(6);
  });

  it("keeps unknown lines verbatim and still parses the rest", () => {
    const noise = "WARNING: An illegal reflective access operation has occurred\nsomething odd, with commas\n";
    const r = parseYcsbOutput(noise + HEAD + READ + CLEANUP, "SLF4J: no binding\nStarting test.\n");
    expect(r.unknownLines).toEqual([
      "WARNING: An illegal reflective access operation has occurred",
      "something odd, with commas",
      "SLF4J: no binding",
    ]);
    expect(r.operations.READ!.count).toBe(10);
  });

  it("the JVM's notice of options from the environment is not an unknown line", () => {
    const jvm = "Picked up JAVA_TOOL_OPTIONS: -XX:TieredStopAtLevel=1\nNOTE: Picked up JDK_JAVA_OPTIONS: -Xss1m\n";
    const r = parseYcsbOutput(HEAD + READ + CLEANUP, `${jvm}Starting test.\n`);
    expect(r.unknownLines).toEqual([]);
    expect(r.operations.READ!.count).toBe(10);
  });

  it("a value that does not parse is a warning and stays null, never 0", () => {
    const r = parseYcsbOutput(
      HEAD +
        READ.replace("AverageLatency(us), 100.5", "AverageLatency(us), NaN").replace(
          "MinLatency(us), 50",
          "MinLatency(us), ",
        ) +
        CLEANUP,
    );
    expect(r.operations.READ!.avgUs).toBeNull();
    expect(r.operations.READ!.minUs).toBeNull();
    expect(r.warnings.some((w) => w.includes("line 4") && w.includes("AverageLatency(us)") && w.includes("NaN"))).toBe(
      true,
    );
    expect(r.warnings.some((w) => w.includes("MinLatency(us)"))).toBe(true);
    expect(checkAgainst(ClientOutputSchema, r)).toEqual([]);
  });

  it("a group without an Operations line is left out with a warning, not counted as 0", () => {
    const r = parseYcsbOutput(HEAD + READ.replace("[READ], Operations, 10\n", "") + CLEANUP);
    expect(r.operations.READ).toBeUndefined();
    expect(r.warnings.join("\n")).toMatch(/\[READ\] has no valid Operations line/);
  });

  it("a bad Return= count is a warning, not a zero", () => {
    const r = parseYcsbOutput(HEAD + READ.replace("Return=OK, 10", "Return=OK, ten") + CLEANUP);
    expect(r.operations.READ!.returns).toEqual({});
    expect(r.warnings.join("\n")).toMatch(/Return=OK "ten"/);
  });

  it("a group missing its Return= lines in the middle of the summary is a warning; a summary line without a value is kept", () => {
    const r = parseYcsbOutput(HEAD + READ.replace("[READ], Return=OK, 10\n", "") + "[READ], Weird\n" + CLEANUP);
    expect(r.operations.READ!.returns).toEqual({});
    expect(r.warnings.join("\n")).toMatch(/\[READ\] has no Return= lines/);
    expect(r.unknownLines).toEqual(["[READ], Weird"]);
  });

  it("a summary cut cleanly between groups is caught by the totals (warning)", () => {
    const text = real("intended");
    const start = text.indexOf("[UPDATE], Operations");
    const end = text.indexOf("[Intended-READ], Operations");
    const r = parseYcsbOutput(text.slice(0, start) + text.slice(end));
    expect(r.operations.UPDATE).toBeUndefined();
    expect(r.warnings.join("\n")).toMatch(
      /Return= counts add up to \d+ operations but \[OVERALL\] Throughput x RunTime gives 4000/,
    );
  });

  it("reads Java's exponent form and keeps unknown group entries in extra", () => {
    const r = parseYcsbOutput(HEAD.replace("10.0", "1.0E7") + READ + "[READ], SomethingNew(us), 12\n" + CLEANUP);
    expect(r.overall.throughputOpsSec).toBe(1e7);
    expect(r.warnings.join("\n")).toMatch(/Return= counts add up to 10 operations but .* gives 10000000/);
    expect(r.operations.READ!.extra).toEqual({ "SomethingNew(us)": 12 });
  });

  it("CRLF line endings parse the same as LF", () => {
    const out = real("failed");
    const err = real("failed", "stderr.txt");
    expect(parseYcsbOutput(out.replaceAll("\n", "\r\n"), err.replaceAll("\n", "\r\n"))).toEqual(
      parseYcsbOutput(out, err),
    );
  });

  it("GC groups map to per-collector and total entries", () => {
    const gc = `[TOTAL_GCS_PS_Scavenge], Count, 3\n[TOTAL_GC_TIME_PS_Scavenge], Time(ms), 12\n[TOTAL_GC_TIME_%_PS_Scavenge], Time(%), 1.2\n[TOTAL_GCs], Count, 3\n[TOTAL_GC_TIME], Time(ms), 12\n[TOTAL_GC_TIME_%], Time(%), 1.2\n`;
    const r = parseYcsbOutput(HEAD + gc + READ + CLEANUP);
    expect(r.gc).toEqual({
      PS_Scavenge: { count: 3, timeMs: 12, timePct: 1.2 },
      "": { count: 3, timeMs: 12, timePct: 1.2 },
    });
  });
});

describe("input errors name what is wrong and where", () => {
  it("empty stdout", () => {
    expect(thrown(() => parseYcsbOutput("")).message).toMatch(/stdout.*empty/);
    expect(thrown(() => parseYcsbOutput(" \n\n")).message).toMatch(/empty/);
  });

  it("no [OVERALL] section (YCSB died before the summary)", () => {
    const e = thrown(() => parseYcsbOutput(real("load", "stderr.txt")));
    expect(e.message).toMatch(/no \[OVERALL\] section/);
  });

  it("cut mid-summary: the last group has Operations but no Return= lines", () => {
    const text = real("hdr-v2/client-0");
    const cut = text.slice(0, text.lastIndexOf("[UPDATE], Return="));
    const e = thrown(() => parseYcsbOutput(cut));
    expect(e.message).toMatch(/cut short.*\[UPDATE\].*Return=/);
    expect(e.line).toBe(cut.split("\n").length - 1);
  });

  it("cut after the Operations line of the last group", () => {
    const e = thrown(() => parseYcsbOutput(HEAD + READ + "[CLEANUP], Operations, 1\n"));
    expect(e.message).toMatch(/\[CLEANUP\].*average\/min\/max/);
  });

  it("cut inside the percentile lines of the last hdrhistogram group", () => {
    const e = thrown(() =>
      parseYcsbOutput(HEAD + READ + CLEANUP.replace("[CLEANUP], 99thPercentileLatency(us), 2\n", "")),
    );
    expect(e.message).toMatch(/fewer percentile lines/);
  });

  it("a last line without newline is a cut line", () => {
    const text = real("hdr-v1/client-1");
    const cut = text.slice(0, text.length - 3);
    const e = thrown(() => parseYcsbOutput(cut));
    expect(e.message).toMatch(/no newline.*cut short/);
    expect(e.stream).toBe("stdout");
    expect(e.line).toBe(cut.split("\n").length);
  });

  it("a cut status line on stderr names stderr", () => {
    const stderr = real("hdr-v1/client-1", "stderr.txt");
    const e = thrown(() => parseYcsbOutput(real("hdr-v1/client-1"), stderr.slice(0, stderr.length - 40)));
    expect(e.message).toMatch(/^stderr line \d+:/);
  });

  it("a truncated JSON array", () => {
    const text = real("json-array");
    const e = thrown(() => parseYcsbOutput(text.slice(0, Math.floor(text.length / 2))));
    expect(e.message).toMatch(/JSON array that starts on line 1 does not parse/);
  });

  it("[OVERALL] without a throughput line", () => {
    const e = thrown(() => parseYcsbOutput(HEAD.replace(/.*Throughput.*\n/, "") + READ + CLEANUP));
    expect(e.message).toMatch(/Throughput\(ops\/sec\)/);
  });
});

describe("never crashes: every cut and every dropped line of every fixture", () => {
  const dirs = [
    "hdr-v1/client-0",
    "hdr-v2/client-1",
    "histogram",
    "timeseries",
    "raw-stdout",
    "raw-file",
    "json-array",
    "intended",
    "load",
    "failed",
  ];
  // A fixed-seed generator: the same cuts on every run.
  let seed = 42;
  const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);

  it.each(dirs)("%s: a cut anywhere is a YcsbOutputError or a schema-valid result, never another exception", (dir) => {
    const out = real(dir);
    const err = real(dir, "stderr.txt");
    let errors = 0;
    for (let i = 0; i < 60; i++) {
      const cut = next(out.length);
      try {
        expect(checkAgainst(ClientOutputSchema, parseYcsbOutput(out.slice(0, cut), err))).toEqual([]);
      } catch (e) {
        if (!(e instanceof YcsbOutputError)) throw e;
        expect(e.message).toMatch(/line \d+|stdout: /);
        errors++;
      }
    }
    expect(errors).toBeGreaterThan(0);
    const lines = out.split("\n");
    for (let i = 0; i < 30; i++) {
      const drop = next(lines.length);
      try {
        const r = parseYcsbOutput(lines.filter((_, j) => j !== drop).join("\n"), err);
        expect(checkAgainst(ClientOutputSchema, r)).toEqual([]);
      } catch (e) {
        if (!(e instanceof YcsbOutputError)) throw e;
      }
    }
  });
});

describe("status lines in every form", () => {
  const warnings: string[] = [];
  const warn = (m: string) => warnings.push(m);
  /** The lines appended to a fresh series, checked for equal column lengths. */
  const parse = (lines: string[], w = warn) => {
    const b = new StatusSeriesBuilder();
    const taken = lines.map((l) => appendStatusLine(l, b, w));
    const series = b.finish();
    expect(statusSeriesProblems(series)).toEqual([]);
    return { series, taken };
  };

  it("hdrhistogram form with date, estimate and percentiles", () => {
    const { series } = parse([
      "2024-05-01 10:00:00:123 70 sec: 12345 operations; 1234.5 current ops/sec; est completion in 1 hour 2 minutes [READ: Count=10, Max=90, Min=1, Avg=20.5, 90=50, 99=80, 99.9=90, 99.99=90] [UPDATE: Count=0, Max=0, Min=9223372036854775807, Avg=NaN, 90=0, 99=0, 99.9=0, 99.99=0] ",
    ]);
    expect(series).toEqual({
      at: ["2024-05-01 10:00:00:123"],
      elapsedSec: [70],
      operations: [12345],
      opsPerSec: [1234.5],
      estCompletionSec: [3720],
      perOperation: {
        READ: {
          count: [10],
          avgUs: [20.5],
          minUs: [1],
          maxUs: [90],
          percentilesUs: { "90": [50], "99": [80], "99.9": [90], "99.99": [90] },
        },
        // An empty window: no average, no min/max, no percentiles (all null, never 0).
        UPDATE: { count: [0], avgUs: [null], minUs: [null], maxUs: [null], percentilesUs: {} },
      },
    });
    expect(statusPoint(series, 0)).toEqual({
      at: "2024-05-01 10:00:00:123",
      elapsedSec: 70,
      operations: 12345,
      opsPerSec: 1234.5,
      estCompletionSec: 3720,
      perOperation: {
        READ: {
          count: 10,
          avgUs: 20.5,
          minUs: 1,
          maxUs: 90,
          percentilesUs: { "90": 50, "99": 80, "99.9": 90, "99.99": 90 },
        },
        UPDATE: { count: 0, avgUs: null },
      },
    });
    expect(warnings).toEqual([]);
  });

  it("a group first printed on a later line is padded with null before it, and a missing percentile is null", () => {
    const { series } = parse([
      "2024-05-01 10:00:01:000 1 sec: 10 operations; ∞ current ops/sec; [READ: Count=10, Max=9, Min=1, Avg=5, 90=8, 99=9]",
      "2024-05-01 10:00:02:000 2 sec: 30 operations; 20 current ops/sec; [READ: Count=10, Max=9, Min=1, Avg=5, 90=8, 99=9] [INSERT: Count=10, Max=7, Min=2, Avg=4, 90=6, 99=7]",
      "2024-05-01 10:00:03:000 3 sec: 45 operations; 15 current ops/sec; [INSERT: Count=10, Max=7, Min=2, Avg=4, 99=7] [READ: Count=5, Max=3, Min=1, Avg=2, 90=3, 99=3]",
      "2024-05-01 10:00:04:000 4 sec: 50 operations; 5 current ops/sec; [READ: Count=5, Max=3, Min=1, Avg=2, 90=3, 99=3]",
    ]);
    expect(statusSeriesLength(series)).toBe(4);
    expect(series.opsPerSec).toEqual([null, 20, 15, 5]);
    expect(series.estCompletionSec).toEqual([null, null, null, null]);
    expect(series.perOperation.READ!.count).toEqual([10, 10, 5, 5]);
    expect(series.perOperation.INSERT).toEqual({
      count: [null, 10, 10, null],
      avgUs: [null, 4, 4, null],
      minUs: [null, 2, 2, null],
      maxUs: [null, 7, 7, null],
      percentilesUs: { "90": [null, 6, null, null], "99": [null, 7, 7, null] },
    });
    expect(Object.keys(series.perOperation)).toEqual(["READ", "INSERT"]);
    expect(statusPoint(series, 0).perOperation).toEqual({
      READ: { count: 10, avgUs: 5, minUs: 1, maxUs: 9, percentilesUs: { "90": 8, "99": 9 } },
    });
    expect(Object.keys(statusPoint(series, 3).perOperation)).toEqual(["READ"]);
    expect(() => statusPoint(series, 4)).toThrow(/status line 4 is out of range: the series has 4 lines/);
  });

  it("the old form without a date (YCSB 0.1.x) and histogram/timeseries averages", () => {
    const { series } = parse([
      " 10 sec: 1000 operations; 100 current ops/sec; [UPDATE AverageLatency(us)=1234.5] [READ AverageLatency(us)=NaN]",
    ]);
    expect(series).toEqual({
      at: [null],
      elapsedSec: [10],
      operations: [1000],
      opsPerSec: [100],
      estCompletionSec: [null],
      perOperation: {
        UPDATE: { count: [null], avgUs: [1234.5], minUs: [null], maxUs: [null], percentilesUs: {} },
        READ: { count: [null], avgUs: [null], minUs: [null], maxUs: [null], percentilesUs: {} },
      },
    });
  });

  it("the raw form", () => {
    const { series } = parse([
      "2026-11-22 04:33:39:240 1 sec: 499 operations; 480 current ops/sec; est completion in 2 seconds READ count: 249, average latency(us): 978.93 UPDATE count: 230, average latency(us): 1041.99 ",
    ]);
    expect(series.estCompletionSec).toEqual([2]);
    expect(statusPoint(series, 0).perOperation).toEqual({
      READ: { count: 249, avgUs: 978.93 },
      UPDATE: { count: 230, avgUs: 1041.99 },
    });
  });

  it("broken values are warnings, and lines that are not status lines are not taken", () => {
    const local: string[] = [];
    const { series, taken } = parse(
      [
        "5 sec: 10 operations; 2 current ops/sec; [READ: Count=x, Avg=1]",
        "Maximum execution time specified as: 10 secs",
        "abc sec: 10 operations;",
      ],
      (m) => local.push(m),
    );
    expect(taken).toEqual([true, false, false]);
    expect(statusSeriesLength(series)).toBe(1);
    expect(series.perOperation).toEqual({});
    expect(local.join("\n")).toMatch(/\[READ\] Count=x is not a number/);
  });

  it("columns of unequal length are named as a problem", () => {
    const { series } = parse(["5 sec: 10 operations; 2 current ops/sec; [READ: Count=1, Max=1, Min=1, Avg=1, 99=1]"]);
    series.perOperation.READ!.percentilesUs["99"]!.push(2);
    expect(statusSeriesProblems(series)).toEqual([
      {
        path: "/statusSeries/perOperation/READ/percentilesUs/99",
        message: "has 2 entries, the series has 1 status lines (elapsedSec)",
      },
    ]);
    expect(
      checkAgainst(ClientOutputSchema, {
        ...parseYcsbOutput(real("intended"), real("intended", "stderr.txt")),
        statusSeries: series,
      }),
    ).toHaveLength(1);
  });

  it("status lines merged into stdout are found there", () => {
    const stderr = real("intended", "stderr.txt");
    const merged = stderr + real("intended");
    const r = parseYcsbOutput(merged);
    expect(r.statusSeries).toEqual(parseYcsbOutput(real("intended"), stderr).statusSeries);
    expect(statusSeriesLength(r.statusSeries)).toBeGreaterThan(0);
  });
});
