import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { generatedUpToDate, generateInputsHash } from "../../scripts/prisma-cli.mjs";

/**
 * `npm run db:generate` (scripts/prisma-cli.mjs) skips `prisma generate` when the client in prisma/generated was
 * written from the same inputs: the schema, the config, the CLI's and the client runtime's versions, the arguments.
 * Any one of them changed, or the client gone, and it generates again.
 */
const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const ARGS = ["generate", "--config", "prisma/prisma.config.ts"];
let root: string;

function copy(path: string): void {
  mkdirSync(join(root, path, ".."), { recursive: true });
  cpSync(join(REPO_ROOT, path), join(root, path));
}
const stamp = () => writeFileSync(join(root, "prisma/generated/.inputs-sha256"), `${generateInputsHash(root, ARGS)}\n`);

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "db-generate-"));
  for (const f of [
    "prisma/schema.prisma",
    "prisma/prisma.config.ts",
    "node_modules/prisma/package.json",
    "node_modules/@prisma/client/package.json",
  ])
    copy(f);
  mkdirSync(join(root, "prisma/generated"));
  writeFileSync(join(root, "prisma/generated/client.ts"), "// generated\n");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("db:generate's stamp", () => {
  it("is up to date only once a generate from these inputs left its stamp", () => {
    expect(generatedUpToDate(root, ARGS)).toBe(false);
    stamp();
    expect(generatedUpToDate(root, ARGS)).toBe(true);
    expect(generatedUpToDate(root, [...ARGS, "--no-hints"])).toBe(false);
  });

  it("generates again after the schema or the config changed", () => {
    stamp();
    writeFileSync(join(root, "prisma/schema.prisma"), "// one more line\n", { flag: "a" });
    expect(generatedUpToDate(root, ARGS)).toBe(false);
    stamp();
    writeFileSync(join(root, "prisma/prisma.config.ts"), "// one more line\n", { flag: "a" });
    expect(generatedUpToDate(root, ARGS)).toBe(false);
  });

  it("generates again after Prisma's CLI or client was upgraded", () => {
    for (const pkg of ["prisma", "@prisma/client"]) {
      stamp();
      writeFileSync(join(root, "node_modules", pkg, "package.json"), JSON.stringify({ name: pkg, version: "99.0.0" }));
      expect(generatedUpToDate(root, ARGS), pkg).toBe(false);
    }
  });

  it("generates again when the client is gone though its stamp is there", () => {
    stamp();
    rmSync(join(root, "prisma/generated/client.ts"));
    expect(generatedUpToDate(root, ARGS)).toBe(false);
  });
});
