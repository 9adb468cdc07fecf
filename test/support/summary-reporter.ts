import { writeFileSync } from "node:fs";
import type { Reporter, TestModule } from "vitest/node";

/**
 * One plain closing line after vitest's own summary, "tests: N passed, N failed, N skipped", that log readers
 * which do not know vitest's format (CI systems grepping for a pass/fail count) can read; before it, the slowest
 * files with their times, so a CI log says where the suite's minutes went (docs/benchmarks.md keeps the list).
 * With YCSB_LAB_SUMMARY_FILE set (scripts/test-lanes.ts), the same counts and every file's time also go to that
 * file as JSON, for the one summary of lanes run side by side.
 */
/** How many of the slowest files the summary names. */
const SLOWEST = 12;

export default class SummaryLineReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const m of testModules) {
      // A file that failed to load has no test cases: count it as one failure.
      if (m.state() === "failed" && [...m.children.allTests()].length === 0) failed++;
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else skipped++;
      }
    }
    const files = testModules
      .map((m) => ({ file: m.moduleId.replace(`${process.cwd()}/`, ""), ms: m.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms);
    const summaryFile = process.env.YCSB_LAB_SUMMARY_FILE;
    // The lane runner prints one summary of every lane at its end: each lane leaves its figures to it.
    if (summaryFile) {
      writeFileSync(summaryFile, JSON.stringify({ passed, failed, skipped, files }));
      return;
    }
    const slowest = files.slice(0, SLOWEST);
    if (slowest.length)
      process.stdout.write(
        `\nslowest files:\n${slowest.map((f) => `  ${(f.ms / 1000).toFixed(1).padStart(6)} s  ${f.file}`).join("\n")}\n`,
      );
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
