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
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const SCRIPTS = dirname(fileURLToPath(import.meta.url));

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

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  let engine;
  try {
    engine = schemaEngineFor(args[0], process.env);
  } catch (e) {
    console.error(`db: ${e.message}`);
    process.exit(2);
  }
  const env = { ...process.env };
  if (engine) env.PRISMA_SCHEMA_ENGINE_BINARY = engine;
  const prisma = join(SCRIPTS, "..", "node_modules", ".bin", "prisma");
  const r = spawnSync(prisma, args, { stdio: "inherit", env });
  if (r.status !== 0 && !engine && args[0] !== "generate") {
    console.error("db: Prisma needs its schema engine for this command; offline, YCSB_LAB_SCHEMA_ENGINE=stand-in runs scripts/prisma-schema-engine (WebAssembly) instead (docs/api.md).");
  }
  process.exit(r.status ?? 1);
}
