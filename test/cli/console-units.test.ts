import { describe, expect, it } from "vitest";
import { benchmarkOutcome } from "../../cli/commands/start.js";
import { LiveLine } from "../../runner/live-line.js";
import { type ProgressState, renderProgress, updateProgress } from "../../runner/progress.js";

/** What `npm start` prints while a benchmark runs: the progress line, its ETA, and how the run ends. */
describe("the console of npm start", () => {
  const start: ProgressState = { client: 0, phase: "load" };

  it("shows no ETA before an operation has finished (YCSB divides by a zero rate then)", () => {
    // A status line as YCSB 0.17.0 prints it in the first second of a load on a cold Cassandra.
    const cold = updateProgress(
      start,
      "2026-11-23 20:41:07:123 1 sec: 0 operations; est completion in 106751991167300 days 15 hours [CLEANUP: Count=0]",
    );
    expect(cold.leftSec).toBeUndefined();
    expect(renderProgress(cold)).toBe("client 0 | load | - ops/s | p99 - | 1s elapsed, - left");
    const warm = updateProgress(
      cold,
      "2026-11-23 20:41:17:123 11 sec: 2500 operations; 250 current ops/sec; est completion in 29 seconds [INSERT: Count=2500, Max=9000, Min=300, Avg=900, 90=1200, 99=3100, 99.9=8000, 99.99=9000]",
    );
    expect(warm.leftSec).toBe(29);
    expect(renderProgress(warm)).toBe("client 0 | load | 250 ops/s | p99 3.1ms | 11s elapsed, 29s left");
  });

  it("a time cap still gives a time left before any operation finished", () => {
    const capped = updateProgress(
      start,
      "2026-11-23 20:41:07:123 10 sec: 0 operations; est completion in 106751991167300 days",
      60,
    );
    expect(capped.leftSec).toBe(50);
  });

  it("a message never lands on the progress line", () => {
    const live = new LiveLine();
    expect(live.message("phase 1 load: YCSB load")).toBe("phase 1 load: YCSB load\n");
    expect(live.progress("client 0 | load | 250 ops/s")).toBe("\r\x1b[2Kclient 0 | load | 250 ops/s");
    // Cleared first, then the message on its own line; the next status line draws the progress again.
    expect(live.message("phase 2 a: YCSB workload")).toBe("\r\x1b[2Kphase 2 a: YCSB workload\n");
    expect(live.message("done")).toBe("done\n");
    expect(live.end()).toBe("");
    live.progress("client 0 | a | 1.2k ops/s");
    expect(live.end()).toBe("\r\x1b[2K");
  });

  it("Ctrl-C is named as such, not as a failed run", () => {
    const o = { url: "http://127.0.0.1:8080", scenario: "usa-2015-durability" };
    expect(benchmarkOutcome({ ...o, interrupted: true, failed: 0 })).toMatch(/stopped by Ctrl-C/);
    // Done: where its runs are shown beside the paper's figures, the study's page.
    expect(benchmarkOutcome({ ...o, interrupted: false, failed: 0 })).toBe(
      "benchmark: done; its runs beside the study's published figures: http://127.0.0.1:8080/?view=study&seed=004",
    );
    expect(benchmarkOutcome({ ...o, interrupted: false, failed: 1 })).toMatch(/a run failed/);
  });
});
