// A long stream of status lines read the fast way (learned block layouts, rows staged in blocks and copied
// into columns, columns grown past their first capacity) must give, line for line, what each line gives when
// read alone the slow way. The lines are real ones from the fixtures, with the variations a long run meets.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { statusPoint, statusSeriesLength, statusSeriesProblems } from "../../../model/status-series.js";
import { appendStatusLine, parseYcsbOutput } from "../../../runner/ycsb-output/index.js";
import { StatusLineReader } from "../../../runner/ycsb-output/status-line.js";
import { StatusSeriesBuilder } from "../../../runner/ycsb-output/status-series-builder.js";

const FIXTURES = fileURLToPath(new URL("../../fixtures/ycsb/", import.meta.url));
const statusLinesOf = (dir: string) =>
  readFileSync(`${FIXTURES}${dir}/stderr.txt`, "utf8")
    .split("\n")
    .filter((l) => l.includes(" sec: "));

/** Each line read alone by a fresh reader: no layout learned, one line per series. */
function aloneEach(lines: string[]) {
  return lines.map((line) => {
    const warnings: string[] = [];
    const b = new StatusSeriesBuilder(1);
    expect(appendStatusLine(line, b, (m) => warnings.push(m))).toBe(true);
    return { point: statusPoint(b.finish(), 0), warnings };
  });
}

/** All lines read as one stream, the way parseYcsbOutput reads stderr; columns start small so they must grow. */
function asStream(lines: string[], firstCapacity: number) {
  const warnings: string[][] = lines.map(() => []);
  let line = 0;
  const builder = new StatusSeriesBuilder(firstCapacity);
  const reader = new StatusLineReader(builder, (m) => warnings[line]!.push(m));
  const bytes = Buffer.from(lines.join("\n") + "\n");
  for (let pos = 0; line < lines.length; line++) {
    const nl = bytes.indexOf(10, pos);
    expect(reader.read(bytes, pos, nl)).toBe(true);
    pos = nl + 1;
  }
  return { series: builder.finish(), warnings };
}

/** Replaces the n-th block's text on a line. */
const withBlock = (line: string, from: string, to: string) => {
  expect(line).toContain(from);
  return line.replace(from, to);
};

describe("a long stream of status lines", () => {
  it("reads every line as it reads it alone, across blocks, new groups, new percentiles and growth", () => {
    const hdr = statusLinesOf("hdr-v1/client-0");
    const intended = statusLinesOf("intended");
    const lines: string[] = [];
    for (let i = 0; i < 1800; i++) {
      let line = i < 600 || i >= 1300 ? hdr[i % hdr.length]! : intended[i % intended.length]!;
      // A new group first printed well into the stream (after several blocks of rows).
      if (i >= 700 && i % 3 === 0)
        line += " [INSERT: Count=7, Max=90, Min=3, Avg=12.5, 90=40, 99=90, 99.9=90, 99.99=90]";
      // A percentile key the layout did not have, then back to the usual layout.
      if (i === 900) line = withBlock(line, "99.99=", "99.999=1, 99.99=");
      // An empty window (Avg=NaN, Min=Long.MAX_VALUE), a broken value, a group printed twice on one line.
      if (i === 1000) line += " [SCAN: Count=0, Max=0, Min=9223372036854775807, Avg=NaN, 90=0, 99=0, 99.9=0, 99.99=0]";
      if (i === 1001) line += " [SCAN: Count=12, Max=x7, Min=1, Avg=2, 90=3, 99=4, 99.9=5, 99.99=6]";
      if (i === 1002)
        line += " [INSERT: Count=1, Max=1, Min=1, Avg=1, 90=1] [INSERT: Count=2, Max=2, Min=2, Avg=2, 99=2]";
      // Values longer than 15 digits and a value in exponent form: read the general way.
      if (i === 1100)
        line += " [UPDATE: Count=5, Max=1234567890123456789, Min=1, Avg=1.0E7, 90=2, 99=3, 99.9=4, 99.99=5]";
      // No date (YCSB before 0.2), a timestamp that is not ASCII, and a block cut short.
      if (i === 1200) line = line.slice(line.indexOf(" ", line.indexOf(" ") + 1));
      if (i === 1201) line = `2026-11-22 04:32:37:19\u00e9${line.slice(23)}`;
      if (i === 1202) line = line.slice(0, line.lastIndexOf(","));
      lines.push(line);
    }
    const alone = aloneEach(lines);
    const firstSeen = [...new Set(lines.flatMap((l) => [...l.matchAll(/\[([\w-]+): Count=[1-9]/g)].map((m) => m[1]!)))];
    expect(firstSeen).toEqual(expect.arrayContaining(["READ", "UPDATE", "Intended-READ", "INSERT", "SCAN"]));
    for (const firstCapacity of [16, 4096]) {
      const { series, warnings } = asStream(lines, firstCapacity);
      expect(statusSeriesProblems(series)).toEqual([]);
      expect(statusSeriesLength(series)).toBe(lines.length);
      for (let i = 0; i < lines.length; i++) {
        expect({ line: i, point: statusPoint(series, i), warnings: warnings[i] }).toEqual({
          line: i,
          point: alone[i]!.point,
          warnings: alone[i]!.warnings,
        });
      }
      // Groups and keys in first-seen order, as a reader of the document expects.
      expect(Object.keys(series.perOperation)).toEqual(firstSeen);
      expect(Object.keys(series.perOperation.READ!.percentilesUs)).toEqual(["90", "99", "99.9", "99.99", "99.999"]);
    }
    // The spot checks that make the comparison above mean something.
    const { series } = asStream(lines, 16);
    expect(series.perOperation.INSERT!.count[699]).toBeNull();
    expect(series.perOperation.INSERT!.count[702]).toBe(7);
    expect(series.perOperation.INSERT!.count[1002]).toBe(2);
    expect(series.perOperation.INSERT!.percentilesUs["90"]![1002]).toBeNull();
    expect(series.perOperation.READ!.percentilesUs["99.999"]![900]).toBe(1);
    expect(series.perOperation.SCAN!.avgUs[1000]).toBeNull();
    expect(series.perOperation.SCAN!.maxUs[1001]).toBeNull();
    expect(series.perOperation.UPDATE!.avgUs[1100]).toBe(1e7);
    expect(series.at[1200]).toBeNull();
    expect(series.at[1201]).toBe("2026-11-22 04:32:37:19\u00e9");
    expect(series.at[1203]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d:\d{3}$/);
  });

  it("parseYcsbOutput gives the same series from bytes and from text", () => {
    const dir = "intended";
    const stdout = readFileSync(`${FIXTURES}${dir}/stdout.txt`);
    const stderr = Buffer.from(statusLinesOf(dir).join("\n").repeat(1).concat("\n").repeat(300));
    const fromBytes = parseYcsbOutput(stdout, stderr);
    const fromText = parseYcsbOutput(stdout.toString("utf8"), stderr.toString("utf8"));
    expect(statusSeriesLength(fromBytes.statusSeries)).toBeGreaterThan(1000);
    expect(fromBytes).toEqual(fromText);
  });
});
