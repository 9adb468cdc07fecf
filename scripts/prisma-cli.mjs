#!/usr/bin/env node
// The Prisma CLI as `npm run db:generate` and `npm run db:migrate` run it, with Prisma's schema engine chosen here.
// Prisma's CLI downloads its native schema engine before any command, though `prisma generate` never runs it
// (checked: with PRISMA_SCHEMA_ENGINE_BINARY naming a script that logs each call, generate made none). So:
// - `generate` gets scripts/prisma-no-schema-engine, which fails loudly if Prisma ever did call it: nothing to download,
//   offline or not;
// - other commands (migrate deploy|status|diff) use Prisma's own engine, downloaded as usual, unless asked for the
//   WebAssembly stand-in scripts/prisma-schema-engine with YCSB_LAB_SCHEMA_ENGINE=stand-in (offline machines; CI);
// - PRISMA_SCHEMA_ENGINE_BINARY set by the user always wins.
// The server itself never needs any of this: it applies the committed migrations with prisma/migrate.ts.
// `generate` is skipped when what it reads is unchanged since the last one (generatedUpToDate): `npm run test:unit`
// and `npm test` run it first, and it takes 3-5 s of a 2-core machine to write the same files again.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const SCRIPTS = dirname(fileURLToPath(import.meta.url));
/** Where `generate` writes (prisma/schema.prisma's generator output) and the hash of the inputs it wrote from. */
const GENERATED = "prisma/generated";
const STAMP = `${GENERATED}/.inputs-sha256`;

/** The PRISMA_SCHEMA_ENGINE_BINARY for a Prisma command, or undefined to let Prisma fetch its own. */
export function schemaEngineFor(command, env) {
  if (env.PRISMA_SCHEMA_ENGINE_BINARY) return env.PRISMA_SCHEMA_ENGINE_BINARY;
  const asked = env.YCSB_LAB_SCHEMA_ENGINE;
  if (asked !== undefined && asked !== "" && asked !== "stand-in" && asked !== "prisma") {
    throw new Error(`YCSB_LAB_SCHEMA_ENGINE must be "stand-in" or "prisma", got "${asked}"`);
  }
  if (asked === "stand-in") return join(SCRIPTS, "prisma-schema-engine");
  if (command === "generate") return join(SCRIPTS, "prisma-no-schema-engine");
  return undefined;
}

/**
 * SHA-256 of everything `prisma generate` reads under `root`: its arguments, the schema, the config, and the
 * versions of the CLI and the client runtime the generated code is written for.
 */
export function generateInputsHash(root, args) {
  const hash = createHash("sha256").update(JSON.stringify(args));
  for (const file of ["prisma/schema.prisma", "prisma/prisma.config.ts"])
    hash.update(`\0${file}\0`).update(readFileSync(join(root, file)));
  for (const pkg of ["prisma", "@prisma/client"]) {
    const { version } = JSON.parse(readFileSync(join(root, "node_modules", pkg, "package.json"), "utf8"));
    hash.update(`\0${pkg}@${version}`);
  }
  return hash.digest("hex");
}

/** True when the client under `root` was generated from exactly these inputs (its stamp matches, its entry exists). */
export function generatedUpToDate(root, args) {
  const stamp = join(root, STAMP);
  if (!existsSync(stamp) || !existsSync(join(root, GENERATED, "client.ts"))) return false;
  return readFileSync(stamp, "utf8").trim() === generateInputsHash(root, args);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const root = join(SCRIPTS, "..");
  // The environment is checked first: a wrong value is refused whether or not there is anything to generate.
  let engine;
  try {
    engine = schemaEngineFor(args[0], process.env);
  } catch (e) {
    console.error(`db: ${e.message}`);
    process.exit(2);
  }
  if (args[0] === "generate" && generatedUpToDate(root, args)) {
    console.log(`db: ${GENERATED} is up to date (schema, config and Prisma version unchanged since it was generated)`);
    process.exit(0);
  }
  // A generate that fails leaves no stamp behind, so the next run generates again.
  if (args[0] === "generate") rmSync(join(root, STAMP), { force: true });
  const env = { ...process.env };
  if (engine) env.PRISMA_SCHEMA_ENGINE_BINARY = engine;
  const prisma = join(SCRIPTS, "..", "node_modules", ".bin", "prisma");
  const r = spawnSync(prisma, args, { stdio: "inherit", env });
  if (r.status === 0 && args[0] === "generate") writeFileSync(join(root, STAMP), `${generateInputsHash(root, args)}\n`);
  if (r.status !== 0 && !engine && args[0] !== "generate") {
    console.error(
      "db: Prisma needs its schema engine for this command; offline, YCSB_LAB_SCHEMA_ENGINE=stand-in runs scripts/prisma-schema-engine (WebAssembly) instead (docs/api.md).",
    );
  }
  process.exit(r.status ?? 1);
}
