import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 300_000,
    // Integration suites start real servers; keep them from fighting over 2 cores.
    fileParallelism: false,
    // vitest's own report, then one plain "tests: N passed, N failed" line (test/summary-reporter.ts).
    reporters: ["default", "./test/summary-reporter.ts"],
  },
});
