#!/usr/bin/env node
// Offline Prisma schema engine: speaks the native engine's stdio JSON-RPC (one JSON object per line) on top of
// @prisma/schema-engine-wasm and a driver adapter, so `prisma migrate deploy|diff|status` run without a download.
// Used through PRISMA_SCHEMA_ENGINE_BINARY=scripts/prisma-schema-engine (see docs/api.md). Online users need none of it.
// The one place that loads the engine's wasm-bindgen glue (a private shape of the build package.json pins exactly):
// the server applies migrations with plain SQL (prisma/migrate.ts) and needs no engine at all.
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);

function parseArgs(argv) {
  const out = { datamodels: [], datasource: undefined, version: false, cli: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--datamodels" || a === "-d") out.datamodels.push(argv[++i]);
    else if (a === "--datasource") out.datasource = JSON.parse(argv[++i]);
    else if (a === "--version" || a === "-V") out.version = true;
    else if (a === "--enabled-preview-features" || a === "--extension-types") i++;
    else if (a === "cli") out.cli = argv.slice(i + 1);
  }
  return out;
}

async function loadWasm() {
  // The package's entry imports the .wasm as an ES module (needs --experimental-wasm-modules): instantiate it here.
  const bgPath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const bg = await import(pathToFileURL(bgPath).href);
  const bytes = readFileSync(bgPath.replace(/\.js$/, ".wasm"));
  const { instance } = await WebAssembly.instantiate(bytes, { "./schema_engine_bg.js": bg });
  bg.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start?.();
  return bg;
}

/** Picks the driver adapter for the datasource URL: pglite:<dir> (or file:) for PGlite, else Postgres. */
async function adapterFactory(url) {
  if (!url) throw new Error("prisma-schema-engine: no datasource url (set DATABASE_URL or pass --datasource)");
  if (url.startsWith("pglite:")) {
    const { PGlite } = await import("@electric-sql/pglite");
    const { PrismaPGlite } = await import("pglite-prisma-adapter");
    const dir = url.slice("pglite:".length);
    // A fresh checkout has no .local/ yet: PGlite creates only the last folder of the path.
    if (dir !== "memory") mkdirSync(dir, { recursive: true });
    return new PrismaPGlite(new PGlite(dir === "memory" ? undefined : dir));
  }
  const { PrismaPg } = await import("@prisma/adapter-pg");
  const shadow = process.env.SHADOW_DATABASE_URL;
  return new PrismaPg({ connectionString: url }, shadow ? { shadowDatabaseUrl: shadow } : undefined);
}

function logLine(level, message) {
  process.stderr.write(
    JSON.stringify({ timestamp: new Date().toISOString(), level, fields: { message }, target: "schema_engine_shim" }) +
      "\n",
  );
}

function rpcError(id, e, registry) {
  // Driver adapter errors reach us as "External error id#N": look the real one up.
  const externalId = /External error id#(\d+)/.exec(String(e?.message))?.[1];
  const external = externalId ? registry?.consumeError?.(Number(externalId))?.error : undefined;
  if (external)
    e = Object.assign(new Error(external.originalMessage ?? external.message ?? JSON.stringify(external)), {
      code: external.originalCode ?? external.kind,
    });
  // The CLI prints error.data.message (and error_code) as the user-facing error.
  const code = e && typeof e === "object" && "code" in e ? e.code : undefined;
  return {
    jsonrpc: "2.0",
    id,
    error: {
      code: 4466,
      message: "An error happened. Check the data field for details.",
      data: { is_panic: false, message: String(e?.message ?? e), error_code: code, meta: e?.meta },
    },
  };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const bg = await loadWasm();
  if (args.version) {
    process.stdout.write(`schema-engine-cli ${bg.version()}\n`);
    return;
  }
  const url = args.datasource?.url ?? process.env.DATABASE_URL;
  let enginePromise;
  let registry;
  const engine = () =>
    (enginePromise ??= (async () => {
      const datamodels = args.datamodels.length ? args.datamodels.map((p) => [p, readFileSync(p, "utf8")]) : undefined;
      const { bindMigrationAwareSqlAdapterFactory } = await import("@prisma/driver-adapter-utils");
      const factory = bindMigrationAwareSqlAdapterFactory(await adapterFactory(url));
      registry = factory.errorRegistry;
      return bg.SchemaEngine.new({ datamodels }, (msg) => logLine("INFO", String(msg)), factory);
    })());

  if (args.cli) {
    // `schema-engine cli can-connect-to-database|create-database`: connect through the adapter and run one query
    // (PGlite creates its store on open; a Postgres database must exist). stdout stays empty as the CLI expects.
    const factory = await adapterFactory(url);
    const adapter = await factory.connect();
    await adapter.executeRaw({ sql: "SELECT 1", args: [], argTypes: [] });
    await adapter.dispose();
    return;
  }

  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  const pending = [];
  for await (const line of rl) {
    if (!line.trim()) continue;
    let req;
    try {
      req = JSON.parse(line);
    } catch {
      continue;
    }
    // Lines without a method are the CLI's answers to our "print" requests.
    if (req.id === undefined || typeof req.method !== "string") continue;
    pending.push(
      (async () => {
        try {
          const e = await engine();
          const method = req.method === "getDatabaseVersion" ? "version" : req.method;
          if (typeof e[method] !== "function")
            throw Object.assign(new Error(`Method not supported by the wasm shim: ${req.method}`), { code: "SHIM" });
          const result = await e[method](req.params ?? (method === "version" ? null : {}));
          // The native engine sends diff scripts to the CLI as a "print" request rather than in the result.
          if (result && typeof result === "object" && typeof result.stdout === "string") {
            const { stdout, ...rest } = result;
            if (stdout)
              process.stdout.write(
                JSON.stringify({
                  jsonrpc: "2.0",
                  id: `print-${req.id}`,
                  method: "print",
                  params: { content: stdout.replace(/\n$/, "") },
                }) + "\n",
              );
            process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: req.id, result: rest }) + "\n");
            return;
          }
          process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: req.id, result: result ?? null }) + "\n");
        } catch (err) {
          logLine("ERROR", String(err?.message ?? err));
          process.stdout.write(JSON.stringify(rpcError(req.id, err, registry)) + "\n");
        }
      })(),
    );
  }
  await Promise.all(pending);
  process.exit(0);
}

// An open PGlite keeps the event loop alive: exit explicitly once the CLI closed stdin.
// Pipes are asynchronous: flush stdout before exiting or the last responses are lost.
const flushed = () => new Promise((resolve) => process.stdout.write("", resolve));
main().then(
  () => flushed().then(() => process.exit(0)),
  (e) => {
    logLine("ERROR", String(e?.stack ?? e));
    process.exit(1);
  },
);
