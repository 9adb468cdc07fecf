import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "./runner-helpers.js";

/**
 * `npm run db:generate` / `db:migrate` (scripts/prisma-cli.mjs): Prisma's own schema engine unless the WebAssembly
 * stand-in is asked for (YCSB_LAB_SCHEMA_ENGINE=stand-in); generate needs none. Prisma's engine download is pointed
 * at a closed loopback port (PRISMA_ENGINES_MIRROR), so "not the stand-in" shows as a failed download here whether
 * or not the machine is online.
 */
const work = mkdtempSync(join(tmpdir(), "ycsb-lab-db-scripts-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function db(script: "db:generate" | "db:migrate", env: Record<string, string>) {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== "PRISMA_SCHEMA_ENGINE_BINARY" && k !== "YCSB_LAB_SCHEMA_ENGINE")) as Record<string, string>;
  const r = spawnSync("npm", ["run", "--silent", script], { cwd: REPO_ROOT, encoding: "utf8", env: { ...base, PRISMA_ENGINES_MIRROR: "http://127.0.0.1:9", npm_config_update_notifier: "false", ...env }, timeout: 240_000 });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe("Prisma's schema engine: the stand-in only when asked for", () => {
  it("db:generate needs no schema engine at all: it succeeds with Prisma's download unreachable", () => {
    const r = db("db:generate", {});
    expect(r.status, r.output).toBe(0);
    expect(r.output).toContain("Generated Prisma Client");
  }, 240_000);

  it("db:migrate without the variable uses Prisma's own engine (here unreachable) and says how to ask for the stand-in", () => {
    const r = db("db:migrate", { DATABASE_URL: `pglite:${join(work, "not-asked")}` });
    expect(r.status).not.toBe(0);
    expect(r.output).toContain("YCSB_LAB_SCHEMA_ENGINE=stand-in");
  }, 240_000);

  it("db:migrate with YCSB_LAB_SCHEMA_ENGINE=stand-in applies the committed migrations offline", () => {
    const r = db("db:migrate", { DATABASE_URL: `pglite:${join(work, "asked")}`, YCSB_LAB_SCHEMA_ENGINE: "stand-in" });
    expect(r.status, r.output).toBe(0);
    expect(r.output).toMatch(/successfully applied/);
  }, 240_000);

  it("a value that is not an engine is refused, naming the variable", () => {
    const r = db("db:generate", { YCSB_LAB_SCHEMA_ENGINE: "wasm" });
    expect(r.status).toBe(2);
    expect(r.output).toContain('YCSB_LAB_SCHEMA_ENGINE must be "stand-in" or "prisma", got "wasm"');
  }, 60_000);
});
