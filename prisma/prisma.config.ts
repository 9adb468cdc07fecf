// Prisma CLI config (Prisma 7 reads the datasource URL from here, not from schema.prisma).
// Without DATABASE_URL the CLI works on the embedded PGlite store (`pglite:<dir>`, understood by the offline
// schema engine scripts/prisma-schema-engine; see docs/api.md, "Database and Prisma offline"). Online users with a Postgres need none of it.
import { fileURLToPath } from "node:url";
import { defineConfig } from "prisma/config";

const pgliteDir = fileURLToPath(new URL("../.local/pglite", import.meta.url));

export default defineConfig({
  schema: "schema.prisma",
  migrations: { path: "migrations" },
  datasource: { url: process.env.DATABASE_URL ?? `pglite:${pgliteDir}` },
});
