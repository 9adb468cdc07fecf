// Parser throughput against the cost of merely splitting the same bytes into lines (DESIGN.md target: >= 1/3).
// Input: a >= 50 MB status-heavy YCSB output built from a real fixture run (its status lines replayed with
// advancing timestamps and counters, then its real summary). Run: npx tsx bench/parse.ts [MB]
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { StatusPoint } from "../model/result-document.js";
import { parseYcsbOutput } from "../runner/ycsb-output/index.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const FIXTURES = fileURLToPath(new URL("../test/fixtures/ycsb/", import.meta.url));
const targetMb = Number(process.argv[2] ?? 50);
const TARGET_RATIO = 1 / 3;
const ROUNDS = 5;

/** Replays the fixture's status lines until the output holds `mb` megabytes. */
function buildOutput(dir: string, mb: number): { stdout: string; stderr: string; statusLines: number } {
  const stdout = readFileSync(`${FIXTURES}${dir}/stdout.txt`, "utf8");
  const lines = readFileSync(`${FIXTURES}${dir}/stderr.txt`, "utf8").split("\n");
  const status = lines.filter((l) => / sec: \d+ operations; [\d.]+ current ops\/sec; est completion/.test(l));
  const header = lines.filter((l) => !l.includes(" sec: ") && l.length > 0);
  // "<date> <sec> sec: <ops> operations; <rest>": keep <rest> (rate, estimate, per-operation blocks) as printed.
  const rests = status.map((l) => l.slice(l.indexOf(" operations; ") + 13));
  const start = Date.UTC(2026, 0, 1, 0, 0, 0);
  const parts: string[] = [header.join("\n") + "\n"];
  let bytes = parts[0]!.length;
  let ops = 0;
  let n = 0;
  const pad = (v: number, w = 2) => String(v).padStart(w, "0");
  while (bytes < mb * 1e6) {
    n++;
    ops += 3000;
    const d = new Date(start + n * 1000 + (n % 7));
    const at = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}:${pad(d.getUTCMilliseconds(), 3)}`;
    const line = `${at} ${n} sec: ${ops} operations; ${rests[n % rests.length]}\n`;
    parts.push(line);
    bytes += line.length;
  }
  return { stdout, stderr: parts.join(""), statusLines: n };
}

function best(fn: () => number): { seconds: number; check: number } {
  let seconds = Infinity;
  let check = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = process.hrtime.bigint();
    check = fn();
    seconds = Math.min(seconds, Number(process.hrtime.bigint() - t0) / 1e9);
  }
  return { seconds, check };
}

function splitString(text: string): number {
  let lines = 0;
  let chars = 0;
  for (let pos = 0; pos < text.length; ) {
    let nl = text.indexOf("\n", pos);
    if (nl < 0) nl = text.length;
    chars += text.slice(pos, nl).length;
    lines++;
    pos = nl + 1;
  }
  return lines + (chars & 1);
}

/** What any parser must at least do: look at every character of every line once. */
function touchEveryChar(text: string): number {
  let sum = 0;
  for (let pos = 0; pos < text.length; ) {
    let nl = text.indexOf("\n", pos);
    if (nl < 0) nl = text.length;
    const line = text.slice(pos, nl);
    for (let i = 0; i < line.length; i++) sum += line.charCodeAt(i);
    pos = nl + 1;
  }
  return sum;
}

function splitBuffer(buf: Buffer): number {
  let lines = 0;
  for (let pos = 0; pos < buf.length; ) {
    let nl = buf.indexOf(10, pos);
    if (nl < 0) nl = buf.length;
    lines++;
    pos = nl + 1;
  }
  return lines;
}

/**
 * The floor any parser returning these objects sits on: building the same statusSeries objects from values
 * already parsed (object literals, the cheapest form V8 has; the fixtures' percentile keys are 90/99/99.9/99.99).
 */
function buildSameObjects(series: StatusPoint[]): number {
  const out: StatusPoint[] = new Array(series.length);
  for (let i = 0; i < series.length; i++) {
    const p = series[i]!;
    const per: StatusPoint["perOperation"] = {};
    for (const name in p.perOperation) {
      const o = p.perOperation[name]!;
      const r = o.percentilesUs;
      per[name] = { count: o.count, avgUs: o.avgUs, minUs: o.minUs, maxUs: o.maxUs, percentilesUs: r && { "90": r["90"]!, "99": r["99"]!, "99.9": r["99.9"]!, "99.99": r["99.99"]! } };
    }
    out[i] = { at: p.at, elapsedSec: p.elapsedSec, operations: p.operations, opsPerSec: p.opsPerSec, estCompletionSec: p.estCompletionSec, perOperation: per };
  }
  return out.length;
}

function bench(dir: string): boolean {
  const { stdout, stderr, statusLines } = buildOutput(dir, targetMb);
  const all = stdout + stderr;
  const buf = Buffer.from(all, "utf8");
  const mb = buf.length / 1e6;

  const str = best(() => splitString(all));
  const bytes = best(() => splitBuffer(buf));
  const arr = best(() => all.split("\n").length);
  const decoded = best(() => splitString(buf.toString("utf8")));
  const touch = best(() => touchEveryChar(all));
  const parse = best(() => parseYcsbOutput(stdout, stderr).statusSeries.length);
  if (parse.check !== statusLines) throw new Error(`parser found ${parse.check} status lines, the input has ${statusLines}`);
  const parsedSeries = parseYcsbOutput(stdout, stderr).statusSeries;
  const floor = best(() => buildSameObjects(parsedSeries));

  gc();
  const before = process.memoryUsage().heapUsed;
  const result = parseYcsbOutput(stdout, stderr);
  const afterNoGc = process.memoryUsage().heapUsed;
  gc();
  const retained = process.memoryUsage().heapUsed;
  void result.statusSeries.length;

  const rate = (s: number) => mb / s;
  const ratio = rate(parse.seconds) / rate(str.seconds);
  const ok = ratio >= TARGET_RATIO;
  console.log(`\n${dir}: ${mb.toFixed(1)} MB, ${statusLines} status lines (${Object.keys(result.statusSeries[0]!.perOperation).length} groups each), best of ${ROUNDS}`);
  console.log(`  split into lines, string indexOf loop : ${rate(str.seconds).toFixed(0).padStart(6)} MB/s`);
  console.log(`  split into lines, Buffer indexOf loop : ${rate(bytes.seconds).toFixed(0).padStart(6)} MB/s`);
  console.log(`  split into lines, String.split("\\n")   : ${rate(arr.seconds).toFixed(0).padStart(6)} MB/s`);
  console.log(`  decode UTF-8 bytes + string indexOf    : ${rate(decoded.seconds).toFixed(0).padStart(6)} MB/s`);
  console.log(`  split + charCodeAt of every character  : ${rate(touch.seconds).toFixed(0).padStart(6)} MB/s (what reading every digit costs)`);
  console.log(`  only building the result's objects    : ${rate(floor.seconds).toFixed(0).padStart(6)} MB/s (no parsing: the floor for any parser)`);
  console.log(`  parseYcsbOutput                       : ${rate(parse.seconds).toFixed(0).padStart(6)} MB/s`);
  console.log(`  ratio parse / string indexOf split    : ${ratio.toFixed(3)} (target >= ${TARGET_RATIO.toFixed(2)}: ${ok ? "met" : "NOT MET"})`);
  console.log(`  ratio parse / String.split            : ${(rate(parse.seconds) / rate(arr.seconds)).toFixed(3)}`);
  console.log(`  ratio parse / decode + split          : ${(rate(parse.seconds) / rate(decoded.seconds)).toFixed(3)}`);
  console.log(`  ratio parse / building the objects    : ${(rate(parse.seconds) / rate(floor.seconds)).toFixed(2)}`);
  console.log(`  ratio parse / charCodeAt every char   : ${(rate(parse.seconds) / rate(touch.seconds)).toFixed(2)}`);
  console.log(`  vs DESIGN.md's absolute figure        : ${rate(parse.seconds).toFixed(0)} MB/s against 1/3 of 550 = ${(550 / 3).toFixed(0)} MB/s`);
  console.log(`  heap: +${((afterNoGc - before) / 1e6).toFixed(0)} MB right after parse (no GC in between), +${((retained - before) / 1e6).toFixed(0)} MB retained (the result)`);
  return ok;
}

const results = ["hdr-v1/client-0", "intended"].map(bench);
console.log(results.every(Boolean) ? "\ntarget met" : "\ntarget NOT met");
