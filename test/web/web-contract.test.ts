import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import * as schemas from "../../model/api-schemas.js";

/**
 * One contract between the API and the dashboard: the API's routes are typed through Fastify's TypeBox type
 * provider (a handler returning another shape than its response schema fails tsc), and every answer the dashboard
 * reads is typed as Static<typeof Schema> of those very schemas, never a hand-written copy.
 */
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const files = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );

describe("one contract between API and dashboard", () => {
  it("every route plugin is typed through the TypeBox type provider", () => {
    const routes = files("api/routes");
    expect(routes.length).toBeGreaterThan(5);
    for (const f of routes) {
      const text = readFileSync(join(ROOT, f), "utf8");
      expect(text, f).toMatch(/: FastifyPluginAsyncTypebox\b/);
      expect(text, f).not.toMatch(/: FastifyPluginAsync\b/);
      // Typed requests need no casts: a cast would hide a schema change.
      expect(text, f).not.toMatch(/req\.(query|params) as /);
    }
  });

  it("every API answer the dashboard reads is typed from the API's schemas, none by hand", () => {
    const web = files("web/src");
    const casts: string[] = [];
    for (const f of web) {
      const text = readFileSync(join(ROOT, f), "utf8");
      // Each getJson(...) is followed by its cast: `as Static<typeof X>` or `as Promise<Static<typeof X>>`.
      for (const m of text.matchAll(/getJson\([^;]*?\)\)?\s+as\s+(Promise<)?([^;,]+?)>?[;,\n]/g))
        casts.push(`${f}: ${m[2]!.trim()}`);
      expect(text, f).not.toMatch(/interface Raw\w+/);
    }
    expect(casts.length).toBeGreaterThan(5);
    for (const c of casts) {
      const name = /: Static<typeof (\w+)/.exec(c)?.[1];
      expect(name, c).toBeDefined();
      expect(Object.keys(schemas), c).toContain(name);
    }
  });
});
