import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../runner/runner-helpers.js";

/**
 * "Peak phase per repeat", "worst verdict", "complete phase", "slowest client's runtime" and "summed throughput" are
 * stated once, in model/aggregate/rules.ts. The API's SQL and TypeScript and the dashboard may use what they produce,
 * never restate them: a second copy is how they came to disagree.
 */
function sources(dir: string): string[] {
  return readdirSync(join(REPO_ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(REPO_ROOT, path)).isDirectory()) return sources(path);
    return /\.ts$/.test(name) ? [path] : [];
  });
}

const RESTATEMENTS: [string, RegExp][] = [
  ["summed throughput in SQL", /SUM\s*\(\s*(c\.)?throughput_ops_sec/i],
  ["slowest client's runtime in SQL", /MAX\s*\(\s*(c\.)?runtime_ms/i],
  ["peak phase in SQL", /MAX\s*\(\s*p\.throughput_sum/i],
  ["complete phase in SQL", /clients_reported\s*>=\s*p\.clients/],
  ["worst verdict by hand", /verdicts?\.includes\(\s*"invalid"\s*\)|bool_or\s*\(\s*v\.verdict/],
  [
    "summed throughput by hand",
    /\.reduce\(\s*\(\s*\w+\s*,\s*\w+\s*\)\s*=>\s*\w+\s*\+\s*\w+\.throughputOpsSec\s*,\s*0\s*\)/,
  ],
];

describe("each aggregation rule lives once (model/aggregate/rules.ts)", () => {
  const files = [...sources("api"), ...sources("web/src")];
  it.each(RESTATEMENTS)("no %s in api/ or web/", (_name, pattern) => {
    const found = files.filter((f) => pattern.test(readFileSync(join(REPO_ROOT, f), "utf8")));
    expect(found).toEqual([]);
  });
  it("ingest keeps each phase's totals with the model's rules", () => {
    // ingestDocuments calls keepTotals (api/store/phase-totals.ts) for every phase a batch adds clients to.
    expect(readFileSync(join(REPO_ROOT, "api/store/ingest.ts"), "utf8")).toContain("await keepTotals(");
    const totals = readFileSync(join(REPO_ROOT, "api/store/phase-totals.ts"), "utf8");
    for (const rule of ["phaseThroughput(", "phaseRuntimeMs(", "worstVerdict(", "clientsReported("])
      expect(totals).toContain(rule);
  });
});
