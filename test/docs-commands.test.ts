import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { resultKey } from "../model/results-layout.js";

/** Commands the documents show, against what the code writes where a test can say so without running them. */
const root = fileURLToPath(new URL("..", import.meta.url));

/** A shell glob as a regular expression (`*` within one path segment). */
const globRegExp = (glob: string) => new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")}$`);

describe("docs/api.md", () => {
  it("its `ingest` example matches the result files a local run writes (results/ + model/results-layout.ts)", () => {
    const text = readFileSync(join(root, "docs", "api.md"), "utf8");
    const globs = [...text.matchAll(/ycsb-lab ingest ((?:results|\S*\*)\S*)/g)].map((m) => m[1]!);
    expect(globs.length).toBeGreaterThan(0);
    // `ycsb-lab local run` and `npm start` store into file://results (cli/commands/local-run.ts).
    const written = `results/${resultKey("quickstart-cassandra-20261123T213448", 2, "a", 0)}`;
    for (const glob of globs) expect(written, glob).toMatch(globRegExp(glob));
  });
});
