import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { buildApp } from "../../api/build.js";
import type { AppConfig } from "../../api/config.js";
import { type Database, openDatabase } from "../../api/db/open.js";
import { PGliteOnThread } from "../../api/db/pglite-thread.js";
import { settleAggregates } from "../../api/store/aggregates/settle.js";
import { ingestDocuments } from "../../api/store/ingest.js";
import { type ResultDocument, SCHEMA_VERSION } from "../../model/result-document.js";
import { parseYcsbOutput } from "../../runner/ycsb-output/index.js";
import { testDatabasePrefix } from "../support/integration-teardown.js";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const TOKEN = "test-token-0123456789abcdef";

/** Real YCSB output (test/fixtures/ycsb, made by scripts/make-ycsb-fixtures.sh): two clients of one workload A run. */
export function fixtureOutput(variant: "hdr-v1" | "hdr-v2", client: 0 | 1) {
  const dir = `${ROOT}test/fixtures/ycsb/${variant}/client-${client}`;
  return parseYcsbOutput(readFileSync(`${dir}/stdout.txt`, "utf8"), readFileSync(`${dir}/stderr.txt`, "utf8"));
}
export function fixtureHdr(variant: "hdr-v1" | "hdr-v2", client: 0 | 1, operation: string): string {
  return readFileSync(`${ROOT}test/fixtures/ycsb/${variant}/client-${client}/${operation}.hdr`, "utf8");
}

export interface DocOptions {
  runId: string;
  client?: 0 | 1;
  clients?: number;
  phaseName?: string;
  phaseIndex?: number;
  engine?: "cassandra" | "mongodb" | "couchbase" | "hbase";
  nodes?: number;
  preset?: "throughput" | "balanced" | "durable";
  repeat?: number;
  threads?: number;
  scenario?: string;
  variant?: "hdr-v1" | "hdr-v2";
}

/** A result document around a real client's parsed output, as the runner writes it. */
export function fixtureDocument(o: DocOptions): ResultDocument {
  const client = o.client ?? 0;
  const phaseName = o.phaseName ?? "a-t4";
  const phaseIndex = o.phaseIndex ?? 2;
  return {
    schemaVersion: SCHEMA_VERSION,
    run: {
      id: o.runId,
      scenario: o.scenario ?? "api-test",
      engine: o.engine ?? "cassandra",
      engineVersion: "5.0.4",
      preset: o.preset ?? "balanced",
      nodes: o.nodes ?? 3,
      instanceTypes: { data: "i4i.xlarge", client: "c7i.xlarge" },
      replication: 3,
      ycsbVersion: "0.17.0",
      ycsbLabVersion: "0.1.0",
      repeat: o.repeat ?? 0,
      startedAt: "2026-11-22T04:32:40.000Z",
      source: { kind: "measured" },
      standIn: "site.ycsb.BasicDB",
    },
    phase: {
      name: phaseName,
      index: phaseIndex,
      kind: "workload",
      workload: "a",
      properties: { readproportion: "0.5", updateproportion: "0.5", requestdistribution: "zipfian" },
      threadsPerClient: o.threads ?? 4,
      target: 3000,
      clients: o.clients ?? 2,
    },
    client: { index: client, count: o.clients ?? 2 },
    startedAt: "2026-11-22T04:32:44.000Z",
    finishedAt: "2026-11-22T04:32:57.000Z",
    result: fixtureOutput(o.variant ?? "hdr-v2", client),
    hdrLogs: ["READ", "UPDATE", "CLEANUP"].map((op) => ({
      operation: op,
      uri: `runs/${o.runId}/phases/${phaseIndex}-${phaseName}/client-${client}/hdr/${op}.hdr`,
    })),
    resources: [{ tSec: 1, cpuPct: 12.5, stealPct: 0 }],
    validity: { verdict: "valid", reasons: [] },
  };
}

export function testConfig(over: Partial<AppConfig> = {}): AppConfig {
  return {
    token: TOKEN,
    protectReads: false,
    bodyLimit: 2 * 1024 * 1024,
    rateLimit: { max: 100_000, timeWindow: "1 minute" },
    s3: { region: "us-east-1" },
    ...over,
  };
}

/**
 * scripts/setup-postgres.sh (or TEST_DATABASE_URL), then a fresh database for one test file. Its name starts with
 * ycsb_test_: the integration project's teardown (test/support/integration-teardown.ts) drops them all and stops the server.
 */
export async function freshPostgresDatabase(name: string): Promise<string> {
  const base =
    process.env.TEST_DATABASE_URL ??
    execFileSync("bash", [`${ROOT}scripts/setup-postgres.sh`], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }).trim();
  const db = `${testDatabasePrefix()}${name}_${process.pid}_${Date.now()}`.toLowerCase().replace(/[^a-z0-9_]/g, "_");
  // PostgreSQL cuts names at 63 bytes without a word: the URL below would name a database that does not exist.
  if (db.length > 63)
    throw new Error(`test database name ${db} is longer than PostgreSQL's 63 bytes: shorten "${name}"`);
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${db}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${db}`;
  return url.toString();
}

export const auth = { authorization: `Bearer ${TOKEN}` };

/**
 * The batches stored (each as one POST would), every kept aggregate settled, and the API served over the store without
 * its response cache, so each request computes its answer from what is kept.
 */
export async function storedAndServed(db: Database, batches: readonly ResultDocument[][]): Promise<FastifyInstance> {
  for (const batch of batches) await ingestDocuments(db.prisma, batch);
  await settleAggregates(db.prisma);
  const app = await buildApp(testConfig({ responseCache: false }), { database: db, logLevel: "silent" });
  await app.ready();
  return app;
}

/** A store whose statements are recorded while `recording` is on: each SQL text as the database received it. */
export interface RecordedStore {
  db: Database;
  /** The statements sent while recording. */
  sent: string[];
  /** Records the statements `body` sends (from a clean list). */
  record<T>(body: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * A store of either kind whose statements can be recorded: Postgres through a pool whose connections log what they
 * send (Prisma's adapter and the pool's own statements alike), PGlite at its thread's query.
 */
export async function recordedStore(kind: "pglite" | "postgres", name: string): Promise<RecordedStore> {
  const sent: string[] = [];
  let recording = false;
  let restore = () => {};
  let db: Database;
  if (kind === "postgres") {
    const pool = new pg.Pool({ connectionString: await freshPostgresDatabase(name), max: 5 });
    pool.on("connect", (client) => {
      const query = client.query.bind(client) as (...a: unknown[]) => unknown;
      (client as unknown as { query: (...a: unknown[]) => unknown }).query = (...args: unknown[]) => {
        const q = args[0] as string | { text: string };
        if (recording) sent.push(typeof q === "string" ? q : q.text);
        return query(...args);
      };
    });
    db = await openDatabase({ pool });
  } else {
    const original = PGliteOnThread.prototype.query;
    PGliteOnThread.prototype.query = function (this: PGliteOnThread, sql: string, ...rest: unknown[]) {
      if (recording) sent.push(sql);
      return original.call(this, sql, ...(rest as []));
    } as typeof original;
    restore = () => {
      PGliteOnThread.prototype.query = original;
    };
    db = await openDatabase({});
  }
  return {
    db,
    sent,
    async record(body) {
      sent.length = 0;
      recording = true;
      try {
        return await body();
      } finally {
        recording = false;
      }
    },
    async close() {
      await db.close();
      restore();
    },
  };
}
