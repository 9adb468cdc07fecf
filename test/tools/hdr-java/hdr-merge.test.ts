import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { decodeFromCompressedBase64, encodeIntoCompressedBase64 } from "hdr-histogram-js";
import { describe, expect, it } from "vitest";
import {
  createHistogram,
  decodeHistogram,
  HdrLogError,
  type HdrLogInput,
  inflatePayload,
  mergeHdrLogs,
  parseHdrLogText,
} from "../../../model/hdr/index.js";
import { mergeHdrDirectories } from "../../../runner/hdr-files.js";
import { javaReencode } from "../../../tools/hdr-java/java-hdr.js";
import { clientDirs, dataLines, ENCODINGS, hdrFiles, stdoutOperations } from "./hdr-helpers.js";

const logsOf = (dirs: string[]): HdrLogInput[] =>
  dirs.flatMap((dir) =>
    hdrFiles(dir).map((file) => ({
      client: dir,
      operation: basename(file, ".hdr"),
      text: readFileSync(file, "utf8"),
      source: file,
    })),
  );

describe.each(ENCODINGS)("HDR merge of real YCSB %s logs", (encoding) => {
  const dirs = clientDirs(encoding);

  it("merged count per operation equals the sum of the clients' [OP], Operations", async () => {
    const merged = await mergeHdrDirectories(dirs);
    const expected: Record<string, number> = {};
    for (const dir of dirs) {
      for (const [op, n] of Object.entries(stdoutOperations(dir))) expected[op] = (expected[op] ?? 0) + n;
    }
    expect(Object.keys(expected).sort()).toEqual(Object.keys(merged.operations).sort());
    for (const [op, n] of Object.entries(expected)) expect(merged.operations[op]!.count, op).toBe(n);
    expect(merged.clients).toBe(2);
  });

  it("reads every data line of every log as an interval (none dropped for a missing base time)", () => {
    for (const dir of dirs) {
      for (const file of hdrFiles(dir)) {
        const text = readFileSync(file, "utf8");
        const log = parseHdrLogText(text, file);
        expect(log.baseTimeSec).toBeUndefined(); // YCSB writes no base-time line
        expect(log.intervals.length, file).toBe(dataLines(text).length);
      }
    }
    const merged = mergeHdrLogs(logsOf(dirs));
    for (const summary of merged.logs) {
      expect(summary.intervalsMerged, summary.source).toBe(summary.intervalLines);
    }
    const lines = dirs.flatMap(hdrFiles).reduce((n, f) => n + dataLines(readFileSync(f, "utf8")).length, 0);
    expect(merged.intervals).toBe(lines);
  });

  it("a window merges exactly the intervals starting inside [from, to), and windows partition the run", () => {
    const logs = logsOf(dirs);
    const [fromSec, toSec] = [3.5, 9.5];
    const windowed = mergeHdrLogs(logs, { fromSec, toSec });
    // Independent expectation: decode each interval on its own and keep those whose start lies in the window.
    const expected: Record<string, number> = {};
    for (const log of logs) {
      const { intervals } = parseHdrLogText(log.text, log.source);
      const first = intervals[0]!.startSec;
      for (const interval of intervals) {
        const rel = interval.startSec - first;
        if (rel >= fromSec && rel < toSec) {
          expected[log.operation] = (expected[log.operation] ?? 0) + decodeHistogram(interval.payload).totalCount;
        }
      }
    }
    for (const [op, n] of Object.entries(expected)) expect(windowed.operations[op]?.count, op).toBe(n);
    const all = mergeHdrLogs(logs);
    expect(windowed.operations.READ!.count).toBeGreaterThan(0);
    expect(windowed.operations.READ!.count).toBeLessThan(all.operations.READ!.count);
    const before = mergeHdrLogs(logs, { toSec: fromSec });
    const after = mergeHdrLogs(logs, { fromSec });
    expect(before.operations.READ!.count + after.operations.READ!.count).toBe(all.operations.READ!.count);
  });

  it("merged percentiles come from the merged histogram, not from averaging the clients' percentiles", () => {
    const logs = logsOf(dirs).filter((l) => l.operation === "READ");
    const merged = mergeHdrLogs(logs, { percentiles: [99.9] }).operations.READ!;
    // Reference: one library histogram fed every interval through hdr-histogram-js's own add().
    const reference = createHistogram({ lowestDiscernibleValue: 1, numberOfSignificantValueDigits: 3 });
    for (const log of logs) {
      for (const i of parseHdrLogText(log.text).intervals) reference.add(decodeHistogram(i.payload));
    }
    expect(merged.count).toBe(reference.totalCount);
    expect(merged.percentilesUs["99.9"]).toBe(reference.getValueAtPercentile(99.9));
    expect(merged.maxUs).toBe(reference.maxValue);
    expect(merged.avgUs).toBeCloseTo(reference.mean, 9);
  });
});

describe("V1 and V2 decoding", () => {
  it("the same recordings give the same histogram whether written as V1 (2.1.4) or V2 (Java 2.1.12 re-encoding)", () => {
    const tmp = mkdtempSync(join(tmpdir(), "hdr-reencode-"));
    let compared = 0;
    for (const dir of clientDirs("v1")) {
      for (const file of hdrFiles(dir)) {
        const out = join(tmp, `${basename(dir)}-${basename(file)}`);
        javaReencode("2.1.12", file, out);
        const v1 = parseHdrLogText(readFileSync(file, "utf8"), file).intervals;
        const v2 = parseHdrLogText(readFileSync(out, "utf8"), out).intervals;
        expect(v2.length).toBe(v1.length);
        v1.forEach((interval, k) => {
          expect(inflatePayload(interval.payload).encoding).toBe("V1");
          expect(inflatePayload(v2[k]!.payload).encoding).toBe("V2");
          const a = decodeHistogram(interval.payload);
          const b = decodeHistogram(v2[k]!.payload);
          expect(b.totalCount, `${file} interval ${k}`).toBe(a.totalCount);
          expect(b.maxValue).toBe(a.maxValue);
          const length = Math.max(a.countsArrayLength, b.countsArrayLength);
          for (let i = 0; i < length; i++) {
            if (a.getCountAtIndex(i) !== b.getCountAtIndex(i)) {
              expect.fail(`${file} interval ${k}: bucket ${i} V1=${a.getCountAtIndex(i)} V2=${b.getCountAtIndex(i)}`);
            }
          }
          compared++;
        });
      }
    }
    expect(compared).toBeGreaterThan(10);
  });

  it("our V2 decoder agrees with hdr-histogram-js's own V2 decoder on real YCSB logs", () => {
    for (const dir of clientDirs("v2")) {
      for (const file of hdrFiles(dir)) {
        for (const interval of parseHdrLogText(readFileSync(file, "utf8"), file).intervals) {
          const ours = decodeHistogram(interval.payload);
          const lib = decodeFromCompressedBase64(interval.payload, 64);
          expect(ours.totalCount).toBe(lib.totalCount);
          expect(ours.maxValue).toBe(lib.maxValue);
          for (const p of [50, 90, 99, 99.9, 100])
            expect(ours.getValueAtPercentile(p)).toBe(lib.getValueAtPercentile(p));
        }
      }
    }
  });

  it("V2 counts too large for 32-bit words decode exactly (LEB128 words of 5 to 9 bytes)", () => {
    const h = createHistogram({ lowestDiscernibleValue: 1, numberOfSignificantValueDigits: 3 }, 2 ** 20);
    const counts: [number, number][] = [
      [3, 2 ** 27 + 5],
      [1000, 2 ** 40 + 1],
      [70_000, 2 ** 52 - 3],
      [5, 1],
    ];
    for (const [value, count] of counts) h.recordValueWithCount(value, count);
    const decoded = decodeHistogram(encodeIntoCompressedBase64(h));
    for (const [value, count] of counts) expect(decoded.getCountAtIndex(decoded.countsArrayIndex(value))).toBe(count);
    expect(decoded.totalCount).toBe(counts.reduce((n, [, c]) => n + c, 0));
  });

  it("the library's V2 decoder cannot read V1 logs (why the V1 decoder is ours)", () => {
    const file = hdrFiles(clientDirs("v1")[0]!)[0]!;
    const payload = parseHdrLogText(readFileSync(file, "utf8")).intervals[0]!.payload;
    expect(() => decodeFromCompressedBase64(payload)).toThrow(/only V2/);
    expect(decodeHistogram(payload).totalCount).toBeGreaterThan(0);
  });
});

describe("bad logs", () => {
  const good = readFileSync(hdrFiles(clientDirs("v2")[0]!).find((f) => f.endsWith("READ.hdr"))!, "utf8");
  const lines = good.split("\n");
  const firstData = lines.findIndex((l) => /^\d/.test(l));
  const withLine = (k: number, line: string) => lines.map((l, i) => (i === k ? line : l)).join("\n");
  const merge = (text: string) => mergeHdrLogs([{ client: "c0", operation: "READ", text, source: "c0/READ.hdr" }]);
  const errorOf = (text: string): HdrLogError => {
    try {
      merge(text);
    } catch (err) {
      if (err instanceof HdrLogError) return err;
      throw err;
    }
    throw new Error("no error");
  };

  it("names the file, the line and the problem", () => {
    const [start, length, max, payload] = lines[firstData]!.split(",") as [string, string, string, string];
    const truncated = errorOf(withLine(firstData, `${start},${length},${max},${payload.slice(0, 24)}`));
    expect(truncated.message).toBe(`c0/READ.hdr:${firstData + 1}: ${truncated.problem}`);
    expect(truncated.problem).toMatch(/truncated/);
    const cookie = errorOf(withLine(firstData, `${start},${length},${max},AAAA${payload.slice(4)}`));
    expect(cookie.line).toBe(firstData + 1);
    expect(cookie.problem).toMatch(/bad cookie 0x0000/);
    expect(errorOf(withLine(firstData, `${start},${length},${max}`)).problem).toMatch(/expected 4 fields/);
    expect(errorOf(withLine(firstData, `x${start},${length},${max},${payload}`)).problem).toMatch(/StartTimestamp/);
    expect(errorOf(withLine(firstData, `${start},${length},${max},${payload.slice(0, -4)}@@@@`)).problem).toMatch(
      /not base64/,
    );
  });

  it("rejects an empty log and a log cut in the middle of a line", () => {
    expect(errorOf(lines.slice(0, firstData).join("\n")).problem).toMatch(/empty log/);
    const cut = good.slice(0, good.indexOf(lines[firstData + 1]!) + 40);
    expect(errorOf(cut).line).toBe(firstData + 2);
  });

  it("rejects a bad window", () => {
    expect(() => mergeHdrLogs([], { fromSec: 5, toSec: 5 })).toThrow(/after window start/);
    expect(() => mergeHdrLogs([], { percentiles: [0] })).toThrow(/percentile 0/);
  });
});
