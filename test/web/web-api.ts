/** The real API (api/build.ts) on 127.0.0.1 with a PGlite database in a temp dir, for the dashboard's browser tests and bench. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../api/build.js";
import type { AppConfig } from "../../api/config.js";
import { type Database, openDatabase } from "../../api/db/open.js";
import { ingestDocuments } from "../../api/store/ingest.js";
import type { ResultDocument } from "../../model/result-document.js";
import { buildDashboard, buildDashboardIfStale } from "../../web/build.js";

export const TOKEN = "web-test-token-0123456789";

export interface RunningApi {
  app: FastifyInstance;
  database: Database;
  base: string;
  ingest(documents: readonly ResultDocument[]): Promise<void>;
  /** Published figures, stored as the reference loader stores them (POST /results takes measured results only). */
  ingestPublished(documents: readonly ResultDocument[]): Promise<void>;
  close(): Promise<void>;
}

/** `before`: run on the opened store before the service starts (bench/web stores its bulk runs there, no round beside it). */
export async function startApi(options: { before?: (database: Database) => Promise<void> } = {}): Promise<RunningApi> {
  // The bundle under test, built from the current source (serve.ts only builds when web/dist is missing).
  await buildDashboard({ minify: false });
  const dir = mkdtempSync(join(tmpdir(), "ycsb-lab-web-"));
  const database = await openDatabase({ pgliteDir: join(dir, "pglite") });
  await options.before?.(database);
  const config: AppConfig = {
    pgliteDir: join(dir, "pglite"),
    token: TOKEN,
    protectReads: false,
    bodyLimit: 16 * 1024 * 1024,
    // The tests and bench load thousands of documents from one address.
    rateLimit: { max: 1_000_000, timeWindow: "1 minute" },
    s3: { region: "us-east-1" },
  };
  // The API serves web/dist as built: the browser tests build it first when a source changed.
  await buildDashboardIfStale();
  const app = await buildApp(config, { database, logLevel: "warn" });
  const base = await app.listen({ host: "127.0.0.1", port: 0 });
  return {
    app,
    database,
    base,
    async ingest(documents) {
      for (const d of documents) {
        const r = await app.inject({
          method: "POST",
          url: "/api/v1/results",
          headers: { authorization: `Bearer ${TOKEN}` },
          payload: d,
        });
        if (r.statusCode >= 300)
          throw new Error(
            `ingest of ${d.run.id}/${d.phase.name}/${d.client.index} failed: ${r.statusCode} ${r.body.slice(0, 400)}`,
          );
      }
    },
    async ingestPublished(documents) {
      await ingestDocuments(database.prisma, documents, [], { allowPublished: true });
    },
    async close() {
      await app.close();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
