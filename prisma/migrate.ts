import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bindMigrationAwareSqlAdapterFactory, type SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";

/**
 * Applies the committed migrations (prisma/migrations) in-process with Prisma's own schema engine
 * (@prisma/schema-engine-wasm, the same engine behind `prisma migrate deploy`), through the driver adapter the
 * app uses: works for Postgres and for PGlite, in memory or on disk, with no native engine download.
 * Records every migration in `_prisma_migrations` exactly as the CLI does, so both can be mixed.
 *
 * What this leans on, and why it is safe: the engine package has no public API for this. We load its wasm-bindgen
 * glue (`schema_engine_bg.js`: `SchemaEngine.new`, `__wbg_set_wasm`, `__wbindgen_start`) and call
 * `applyMigrations` with the CLI's input shape, which are internals of the one build package.json pins exactly
 * (`@prisma/schema-engine-wasm` at the commit of the `prisma` version it sits beside; no range). Upgrading Prisma
 * means upgrading both together and running the API tests, which apply every migration to Postgres and PGlite; if
 * the glue's shape changed, loadSchemaEngine() stops with an error naming the package instead of failing later.
 */
export const MIGRATIONS_DIR = fileURLToPath(new URL("./migrations", import.meta.url));
const SCHEMA_FILE = fileURLToPath(new URL("./schema.prisma", import.meta.url));

interface WasmModule {
  SchemaEngine: {
    new: (options: { datamodels: [string, string][] | undefined }, log: (m: string) => void, adapter: object) => Promise<WasmEngine>;
  };
  __wbg_set_wasm: (exports: WebAssembly.Exports) => void;
}
interface WasmEngine {
  applyMigrations(input: unknown): Promise<{ appliedMigrationNames: string[] }>;
  free(): void;
}

let wasmPromise: Promise<WasmModule> | undefined;
function loadSchemaEngine(): Promise<WasmModule> {
  // The package entry imports its .wasm as an ES module (needs --experimental-wasm-modules): instantiate it here.
  return (wasmPromise ??= (async () => {
    const bgPath = createRequire(import.meta.url).resolve("@prisma/schema-engine-wasm/schema_engine_bg");
    const bg = (await import(pathToFileURL(bgPath).href)) as WasmModule;
    if (typeof bg.SchemaEngine?.new !== "function" || typeof bg.__wbg_set_wasm !== "function") {
      throw new Error(`@prisma/schema-engine-wasm (${bgPath}): not the build prisma/migrate.ts was written for (no SchemaEngine.new / __wbg_set_wasm); keep it pinned to the version beside prisma in package.json`);
    }
    const { instance } = await WebAssembly.instantiate(await readFile(bgPath.replace(/\.js$/, ".wasm")), { "./schema_engine_bg.js": bg as never });
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as (() => void) | undefined)?.();
    return bg;
  })());
}

/** The migrations folder in the shape the engine expects (as the CLI builds it). */
export async function listMigrations(dir = MIGRATIONS_DIR) {
  const entries = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const lockPath = `${dir}/migration_lock.toml`;
  return {
    baseDir: dir,
    lockfile: { path: "migration_lock.toml", content: await readFile(lockPath, "utf8").catch(() => null) },
    shadowDbInitScript: "",
    migrationDirectories: await Promise.all(
      entries.map(async (name) => ({
        path: name,
        migrationFile: {
          path: "migration.sql",
          content: await readFile(`${dir}/${name}/migration.sql`, "utf8").then(
            (value) => ({ tag: "ok" as const, value }),
            (e: Error) => ({ tag: "error" as const, value: e.message }),
          ),
        },
      })),
    ),
  };
}

/** Applies pending migrations; returns the names applied now. */
export async function applyMigrations(factory: SqlMigrationAwareDriverAdapterFactory): Promise<string[]> {
  const wasm = await loadSchemaEngine();
  const bound = bindMigrationAwareSqlAdapterFactory(factory);
  const engine = await wasm.SchemaEngine.new({ datamodels: [[SCHEMA_FILE, await readFile(SCHEMA_FILE, "utf8")]] }, () => {}, bound);
  try {
    const out = await engine.applyMigrations({ migrationsList: await listMigrations(), filters: { externalTables: [], externalEnums: [] } });
    return out.appliedMigrationNames;
  } catch (e) {
    // Adapter errors surface as "External error id#N": fetch the driver's own error from the registry.
    const id = /External error id#(\d+)/.exec(String((e as Error).message))?.[1];
    const external = id ? (bound.errorRegistry.consumeError(Number(id))?.error as { message?: string; originalMessage?: string } | undefined) : undefined;
    throw new Error(`applying migrations failed: ${external?.originalMessage ?? external?.message ?? (e as Error).message}`);
  } finally {
    engine.free();
  }
}
