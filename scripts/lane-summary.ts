/**
 * The one closing summary of test runs made side by side (scripts/test-lanes.ts): each run's reporter
 * (test/support/summary-reporter.ts) leaves its counts and file times as JSON; this sums the counts and ranks the files
 * of every run together, so the log ends as a single `vitest run` would end it.
 */
export interface RunSummary {
  passed: number;
  failed: number;
  skipped: number;
  files: { file: string; ms: number }[];
}

export interface LaneResult {
  lane: string;
  /** The run's JSON summary, or undefined when the run ended before its reporter wrote one (a crash, a signal). */
  summary: RunSummary | undefined;
  exitCode: number | null;
  wallMs: number;
}

/** Throws naming the field when `text` is not a summary the reporter writes. */
export function parseRunSummary(text: string, source: string): RunSummary {
  const v = JSON.parse(text) as Partial<RunSummary>;
  for (const k of ["passed", "failed", "skipped"] as const) {
    if (!Number.isInteger(v[k]) || (v[k] as number) < 0) throw new Error(`${source}: ${k} is not a count`);
  }
  if (!Array.isArray(v.files)) throw new Error(`${source}: files is not a list`);
  return v as RunSummary;
}

/** The closing lines: the slowest files of all lanes, each lane's wall time, and the summed counts. */
export function renderLaneSummary(results: LaneResult[], slowest = 12): string {
  const files = results
    .flatMap((r) => (r.summary?.files ?? []).map((f) => ({ ...f, lane: r.lane })))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, slowest);
  const lines: string[] = [];
  if (files.length) {
    lines.push("slowest files:");
    for (const f of files) lines.push(`  ${(f.ms / 1000).toFixed(1).padStart(6)} s  ${f.file}  (${f.lane})`);
    lines.push("");
  }
  for (const r of results) {
    const end = r.summary ? `exit ${r.exitCode}` : `ended without a summary (exit ${r.exitCode ?? "by signal"})`;
    lines.push(`lane ${r.lane}: ${(r.wallMs / 1000).toFixed(0)} s wall, ${end}`);
  }
  // A lane with no summary failed in a way no test recorded: count it as one failure so the total says so.
  const sum = (k: "passed" | "failed" | "skipped") => results.reduce((n, r) => n + (r.summary?.[k] ?? 0), 0);
  const failed = sum("failed") + results.filter((r) => !r.summary).length;
  lines.push("", `tests: ${sum("passed")} passed, ${failed} failed, ${sum("skipped")} skipped`);
  return `${lines.join("\n")}\n`;
}

/** Whether the whole run passed: every lane exited 0 with a summary of no failure. */
export function lanesPassed(results: LaneResult[]): boolean {
  return results.every((r) => r.exitCode === 0 && r.summary !== undefined && r.summary.failed === 0);
}
