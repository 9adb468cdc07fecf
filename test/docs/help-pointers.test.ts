import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../cli/commands/index.js";

/**
 * A `--help` text that sends the reader to a document names the file and the section: both must exist, or the
 * reader lands nowhere (two pointed to README sections that were never written).
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
const POINTER = /see (?:the )?(README(?:\.md)?|DESIGN\.md|docs\/[a-z-]+\.md), "([^"]+)"/g;

function headings(file: string): string[] {
  return readFileSync(join(root, file), "utf8")
    .split("\n")
    .filter((l) => /^#{1,6} /.test(l))
    .map((l) => l.replace(/^#+ /, ""));
}

describe("every --help pointer to a document", () => {
  it("names a file and a section that exist", async () => {
    const pointers: string[] = [];
    const broken: string[] = [];
    for (const [name, entry] of Object.entries(COMMANDS)) {
      const { usage } = await entry.load();
      // Every mention of a document is a pointer of the checked form.
      const mentions = usage.match(/README|DESIGN\.md|docs\/[a-z-]+\.md/g) ?? [];
      const found = [...usage.matchAll(POINTER)];
      if (found.length !== mentions.length)
        broken.push(`${name}: a document named without its section, as (see docs/x.md, "Section")`);
      for (const [, doc, section] of found) {
        const file = doc === "README" ? "README.md" : doc!;
        pointers.push(`${name} -> ${file}`);
        if (!headings(file).some((h) => h.startsWith(section!)))
          broken.push(`${name}: ${file} has no section "${section}"`);
      }
    }
    expect(broken).toEqual([]);
    expect(pointers.length).toBeGreaterThanOrEqual(2);
  });
});
