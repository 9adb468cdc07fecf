import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * `npm test` lints with Biome (an error fails the run), and a rule switched off in biome.json says why in README's
 * lint paragraph: a rule turned off without a reason would silently widen what the lint lets through.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
const read = (file: string) => readFileSync(join(root, file), "utf8");

type RuleSetting = string | { level?: string };
type Biome = { linter?: { enabled?: boolean; rules?: Record<string, Record<string, RuleSetting> | string | boolean> } };

/** The rules biome.json turns off, as "group/rule". */
function rulesOff(biome: Biome): string[] {
  const off: string[] = [];
  for (const [group, rules] of Object.entries(biome.linter?.rules ?? {})) {
    if (typeof rules !== "object") continue;
    for (const [rule, setting] of Object.entries(rules)) {
      const level = typeof setting === "string" ? setting : setting.level;
      if (level === "off") off.push(`${group}/${rule}`);
    }
  }
  return off;
}

/** README's paragraph (blank-line separated) that names `npm run lint:errors`. */
function lintParagraph(readme: string): string {
  const paragraph = readme.split(/\n\s*\n/).find((p) => p.includes("`npm run lint:errors`"));
  if (!paragraph) throw new Error("README.md has no paragraph about `npm run lint:errors`");
  return paragraph.replace(/\s+/g, " ");
}

describe("the lint in npm test", () => {
  const { scripts } = JSON.parse(read("package.json")) as { scripts: Record<string, string> };

  it("runs Biome's check (lint, formatter, sorted imports) over the whole tree at error level, after the layering check and before the tests", () => {
    expect(scripts["lint:errors"]).toBe("biome check . --diagnostic-level=error");
    const steps = scripts.test!.split("&&").map((s) => s.trim());
    const lint = steps.indexOf("npm run lint:errors");
    expect(lint).toBeGreaterThan(steps.indexOf("npm run lint:layers"));
    expect(steps.indexOf("npm run lint:layers")).toBeGreaterThanOrEqual(0);
    expect(lint).toBe(steps.length - 2);
  });

  it("lints with the recommended rules, the linter and the formatter on", () => {
    const biome = JSON.parse(read("biome.json")) as Biome & {
      linter: { rules: { preset?: string } };
      formatter: { enabled: boolean; lineWidth: number };
    };
    expect(biome.linter.enabled).toBe(true);
    expect(biome.formatter).toMatchObject({ enabled: true, lineWidth: 120 });
    expect(biome.linter.rules.preset).toBe("recommended");
  });

  it("gives README's reason for every rule biome.json turns off", () => {
    const off = rulesOff(JSON.parse(read("biome.json")) as Biome);
    expect(off.length).toBeGreaterThan(0);
    const paragraph = lintParagraph(read("README.md"));
    const unexplained = off.filter((r) => !paragraph.includes(`\`${r.split("/")[1]}\`, because`));
    expect(unexplained).toEqual([]);
  });
});
