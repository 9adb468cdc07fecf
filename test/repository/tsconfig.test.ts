import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * `npm test` type-checks with tsconfig.json: a folder of TypeScript its `include` leaves out is checked only as far
 * as something included imports it, so a script nothing imports (a kit builder, a tool) could stop compiling unseen.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
// examples/ imports the packed packages, not this checkout: its own install type-checks it
// (test/kit/consumer-example.test.ts).
const SKIP = new Set(["node_modules", "dist", ".cache", ".git", ".local", "coverage", "bindings", "examples"]);

function typeScriptFolders(dir: string, top: string | undefined, out: Set<string>): Set<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(e.name)) continue;
    if (e.isDirectory()) typeScriptFolders(join(dir, e.name), top ?? e.name, out);
    else if (/\.[cm]?ts$/.test(e.name)) out.add(top ?? "*.ts");
  }
  return out;
}

describe("tsconfig.json", () => {
  it("includes every folder that holds TypeScript", () => {
    const { include } = JSON.parse(readFileSync(join(root, "tsconfig.json"), "utf8")) as { include: string[] };
    const folders = [...typeScriptFolders(root, undefined, new Set())].sort();
    expect(folders).toEqual(expect.arrayContaining(["kit", "prisma", "rehearse", "tools"]));
    expect(folders.filter((f) => !include.includes(f))).toEqual([]);
  });
});
