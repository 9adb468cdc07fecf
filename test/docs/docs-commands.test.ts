import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { resultKey } from "../../model/results-layout.js";

/** Commands the documents show, against what the code writes where a test can say so without running them. */
const root = fileURLToPath(new URL("../..", import.meta.url));

/** A shell glob as a regular expression (`*` within one path segment). */
const globRegExp = (glob: string) =>
  new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")}$`);

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

describe("the documents' tables", () => {
  const docs = [
    "README.md",
    "DESIGN.md",
    ...readdirSync(join(root, "docs"))
      .filter((f) => f.endsWith(".md"))
      .map((f) => `docs/${f}`),
  ];
  it.each(docs)("%s: every table row belongs to a table (no row stranded after a paragraph)", (file) => {
    const lines = readFileSync(join(root, file), "utf8").split("\n");
    let fenced = false;
    const stranded: string[] = [];
    lines.forEach((line, i) => {
      if (line.startsWith("```")) fenced = !fenced;
      if (fenced || !line.startsWith("|")) return;
      const inTable = lines[i - 1]?.startsWith("|");
      const startsTable = /^\|[-:| ]+\|$/.test(lines[i + 1] ?? "");
      if (!inTable && !startsTable) stranded.push(`line ${i + 1}: ${line.slice(0, 60)}`);
    });
    expect(stranded).toEqual([]);
  });
});

describe("the documents' headings", () => {
  const docs = [
    "README.md",
    "DESIGN.md",
    ...readdirSync(join(root, "docs"))
      .filter((f) => f.endsWith(".md"))
      .map((f) => `docs/${f}`),
  ];
  it.each(docs)("%s: no heading twice, no section left empty", (file) => {
    const lines = readFileSync(join(root, file), "utf8").split("\n");
    let fenced = false;
    const headings: Array<{ level: number; text: string; line: number }> = [];
    lines.forEach((line, i) => {
      if (line.startsWith("```")) fenced = !fenced;
      const m = fenced ? null : /^(#{1,6}) (.+)$/.exec(line);
      if (m) headings.push({ level: m[1]!.length, text: m[2]!.trim(), line: i });
    });
    const texts = headings.map((h) => h.text);
    expect(texts.filter((t, i) => texts.indexOf(t) !== i)).toEqual([]);
    // A heading followed, with nothing between, by one of the same or a higher level heads nothing.
    const empty = headings.filter((h, i) => {
      const next = headings[i + 1];
      return next && next.level <= h.level && lines.slice(h.line + 1, next.line).every((l) => !l.trim());
    });
    expect(empty.map((h) => h.text)).toEqual([]);
  });
});
