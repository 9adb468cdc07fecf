import { type Command, parseCommandArgs, UsageError } from "../command.js";

const usage = `Usage: ycsb-lab serve [--host HOST] [--port PORT] [--load-reference]

Serve the results API (OpenAPI at /docs, everything under /api/v1) on 127.0.0.1:8080 by default.
Without DATABASE_URL the data lives in an embedded PGlite database in .local/pglite (no server needed), owned by
this process alone (a second serve or start on it is refused; \`ycsb-lab ingest\` writes through this API); the
committed migrations are applied at start. The write token is YCSB_LAB_TOKEN, else the one kept in
YCSB_LAB_TOKEN_FILE (.local/write-token, created on first start): printed at start, the same after a restart.

  --host HOST          listen address (default HOST or 127.0.0.1)
  --port PORT          listen port (default PORT or 8080)
  --load-reference     load the seeds' published tables (prisma/reference) before serving

Environment: DATABASE_URL, PGLITE_DIR, YCSB_LAB_TOKEN, YCSB_LAB_TOKEN_FILE, YCSB_LAB_PROTECT_READS=1, YCSB_LAB_READ_TOKEN,
BODY_LIMIT_BYTES, REQUEST_TIMEOUT_SECONDS, RATE_LIMIT_MAX, RATE_LIMIT_WINDOW, TRUST_PROXY, S3_ENDPOINT, S3_REGION,
S3_POLL_BUCKET, S3_POLL_PREFIX, S3_POLL_BUCKETS, S3_POLL_SECONDS, LOG_LEVEL (see docs/api.md, "Configuration").`;

/** Where the write token comes from, and the token itself unless the operator set it (then they know it). */
export function writeTokenLine(token: string, from: "YCSB_LAB_TOKEN" | "file" | "new file", file: string): string {
  if (from === "YCSB_LAB_TOKEN") return "write token: YCSB_LAB_TOKEN";
  return `write token (${from === "new file" ? "generated into" : "kept in"} ${file}, the same after a restart): ${token}`;
}

export const command: Command = {
  name: "serve",
  summary: "Serve the results API and dashboard data (Postgres or embedded PGlite)",
  usage,
  async run(args) {
    const { values } = parseCommandArgs({
      args,
      options: {
        host: { type: "string" },
        port: { type: "string" },
        "load-reference": { type: "boolean" },
        help: { type: "boolean" },
      },
    });
    if (values.help) {
      console.log(usage);
      return 0;
    }
    if (values.port !== undefined && !/^\d+$/.test(values.port))
      throw new UsageError(`--port must be a number, got "${values.port}"`);
    const { refreshDashboardBundle } = await import("../dashboard-bundle.js");
    await refreshDashboardBundle((line) => console.error(line));
    const { startServer } = await import("../../api/server.js");
    const { ConfigError } = await import("../../api/config.js");
    try {
      // The seeds' tables are stored before the port opens: no view answers without them meanwhile.
      const beforeListen = values["load-reference"]
        ? async (app: {
            db: Parameters<typeof import("../../api/store/reference-data.js").loadReferenceData>[0];
            log: { info: (o: object, m: string) => void };
          }) => {
            const { loadReferenceData } = await import("../../api/store/reference-data.js");
            app.log.info(await loadReferenceData(app.db), "reference data loaded");
          }
        : undefined;
      const { app, url, token, tokenFrom, tokenFile, warnings } = await startServer(
        { ...(values.host ? { HOST: values.host } : {}), ...(values.port ? { PORT: values.port } : {}) },
        { beforeListen },
      );
      console.error(`ycsb-lab API on ${url} (docs: /docs, database: ${app.database.kind})`);
      console.error(writeTokenLine(token, tokenFrom, tokenFile));
      for (const w of warnings) console.error(`warning: ${w}`);
      await new Promise<void>((resolve) => {
        const stop = () => void app.close().then(() => resolve());
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
      });
      return 0;
    } catch (e) {
      if (e instanceof ConfigError) {
        console.error(`ycsb-lab serve: environment: ${e.message}`);
        return 1;
      }
      throw e;
    }
  },
};
