/**
 * Statements on the Postgres pool directly, in Prisma's call forms: ingest's and the settler's transactions
 * (`writeTransaction`) and the views' raw reads (`sqlReader`).
 *
 * Why: Prisma's raw-query path serialises every statement's parameters to JSON and parses them back before the driver
 * sees them (a megabyte of rows per ingest statement) and converts every value of every result row in the API's
 * thread; profiled, that was 2.6 s of the API's 17.5 s over a 30,000-document ingest (docs/benchmarks.md). The same
 * text and values go to the same pool here, and rows come back as Prisma's `$queryRaw` gives them on Postgres, so the
 * callers read them alike on either path. PGlite keeps Prisma's path: its one connection is shared with every reader
 * through the adapter's fair queue (fair-queue.ts), and that connection, not the API's CPU, is its limit.
 */
import pg from "pg";
import { Prisma } from "../../prisma/generated/client.js";
import type { Db } from "./client.js";
import { resendWhileLost } from "./lost-connection.js";

/** What ingest, the settler and the aggregates send: Prisma's tagged template or a `Prisma.sql` fragment. */
export interface SqlWriter {
  $queryRaw<T = unknown>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<T>;
  $executeRaw(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<number>;
}

export interface TransactionLimits {
  /** How long to wait for a connection of the pool (Prisma's `maxWait`). */
  maxWait: number;
  /** How long the transaction may run before it is rolled back (Prisma's `timeout`). */
  timeout: number;
}

const pools = new WeakMap<Db, pg.Pool>();

/** Sends this client's transactions and page reads on `pool` (the pool its adapter was given: api/db/open.ts). */
export function writeThroughPool(db: Db, pool: pg.Pool): void {
  pools.set(db, pool);
}

/**
 * Whether this client's transactions run side by side (a pool of connections: Postgres), or one at a time on one
 * connection (PGlite), where a transaction holds back every other statement until it ends.
 */
export function runsSideBySide(db: Db): boolean {
  return pools.has(db);
}

/**
 * Runs `work` in one transaction: committed when it resolves, rolled back when it throws, and rolled back (the
 * connection closed, so the server aborts it) once it runs past `timeout`; a statement it sends after that throws and
 * writes nothing. Without a pool of its own (PGlite) it is Prisma's interactive transaction.
 */
export async function writeTransaction<T>(
  db: Db,
  work: (tx: SqlWriter) => Promise<T>,
  limits: TransactionLimits,
): Promise<T> {
  const pool = pools.get(db);
  if (!pool) return db.$transaction((tx) => work(tx), limits);
  const client = await begin(pool, limits.maxWait);
  const state = { closed: false };
  let broken = false;
  // A connection the server ends while it is out of the pool reports it here (the statement waiting fails too).
  const onError = () => {
    broken = true;
  };
  client.on("error", onError);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      state.closed = true;
      broken = true; // the connection is closed below: the server rolls the transaction back
      reject(
        Object.assign(
          new Error(
            `the transaction ran past its timeout of ${limits.timeout} ms and was rolled back (nothing stored)`,
          ),
          { code: "57014" }, // as a statement past statement_timeout: the store is overloaded (isDatabaseOutage: 503)
        ),
      );
    }, limits.timeout);
  });
  try {
    const done = work(new PgWriter(client, state));
    done.catch(() => {}); // past the timeout its rejection is the closed connection's, already answered by `expired`
    const result = await Promise.race([done, expired]);
    state.closed = true;
    await client.query("COMMIT");
    return result;
  } catch (e) {
    if (!state.closed || !broken) {
      state.closed = true;
      // A connection the server ended cannot roll back: it is dropped, and the server has aborted the transaction.
      await client.query("ROLLBACK").catch(() => {
        broken = true;
      });
    }
    throw e;
  } finally {
    clearTimeout(timer);
    client.off("error", onError);
    client.release(broken);
  }
}

/**
 * The pool's reads without Prisma's runtime: every view's raw reads and the response cache's version check. Through
 * Prisma's runtime, 16 viewers beside a writer kept the API's thread full (the team table's viewers at 10,000 runs:
 * `/runs` p95 266-311 ms; through the pool, 157-195 ms with more calls answered: docs/api.md, docs/benchmarks.md). Without a pool of its own
 * (PGlite), or given a transaction (Prisma's or `writeTransaction`'s), it is what it was given: a read inside a
 * transaction stays inside it.
 */
export function sqlReader(db: Db): SqlWriter;
export function sqlReader<T extends Pick<SqlWriter, "$queryRaw">>(db: T): T | SqlWriter;
export function sqlReader(db: Pick<SqlWriter, "$queryRaw">): Pick<SqlWriter, "$queryRaw"> {
  const pool = pools.get(db as Db);
  return pool ? new PgWriter(pool, { closed: false }) : db;
}

/**
 * A pool connection with a transaction begun on it. A BEGIN that fails because the server had ended the connection
 * while it was idle in the pool (a failover, a restart, a rotation's pg_terminate_backend) is sent again on another
 * (lost-connection.ts resendWhileLost): nothing of the transaction was sent yet, so nothing can be stored twice.
 */
function begin(pool: pg.Pool, maxWait: number): Promise<pg.PoolClient> {
  return resendWhileLost(async () => {
    const client = await connectWithin(pool, maxWait);
    // Until the caller listens: a connection that ends under BEGIN reports it here as well as to BEGIN.
    const guard = () => {};
    client.on("error", guard);
    try {
      await client.query("BEGIN");
      return client;
    } catch (e) {
      client.release(true);
      throw e;
    } finally {
      client.off("error", guard);
    }
  });
}

/**
 * A pool connection within `maxWait`: pg-pool gives up after its own connectionTimeoutMillis (5 s) when every
 * connection is busy, so that wait is repeated until `maxWait` has passed. Any other failure (the server refusing
 * connections) is thrown at once.
 */
async function connectWithin(pool: pg.Pool, maxWait: number): Promise<pg.PoolClient> {
  const deadline = Date.now() + maxWait;
  for (;;) {
    try {
      return await pool.connect();
    } catch (e) {
      const busy = e instanceof Error && /timeout exceeded when trying to connect/i.test(e.message);
      if (!busy || Date.now() >= deadline) throw e;
    }
  }
}

type Queryable = Pick<pg.Pool, "query"> | Pick<pg.PoolClient, "query">;

class PgWriter implements SqlWriter {
  constructor(
    private readonly target: Queryable,
    private readonly state: { closed: boolean },
  ) {}

  async $queryRaw<T = unknown>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<T> {
    return (await this.send(query, values)).rows as T;
  }

  async $executeRaw(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<number> {
    return (await this.send(query, values)).rowCount ?? 0;
  }

  private send(query: TemplateStringsArray | Prisma.Sql, values: unknown[]): Promise<pg.QueryResult> {
    if (this.state.closed)
      return Promise.reject(new Error("Transaction already closed: a statement was sent after it ended (not run)"));
    const statement = query instanceof Prisma.Sql ? query : Prisma.sql(query, ...(values as Prisma.Sql[]));
    return (this.target as pg.Pool).query({
      text: statement.text,
      values: statement.values.map(asPrismaSends),
      types: PRISMA_TYPES,
    });
  }
}

/**
 * A parameter as Prisma's adapter sends it: a Date as its UTC time without a zone ("2026-11-29 01:02:03.456", whatever
 * the process's time zone: pg's own would send the local time with its offset), a bigint or a Decimal as its digits.
 */
function asPrismaSends(v: unknown): unknown {
  if (v instanceof Date) return v.toISOString().replace("T", " ").replace("Z", "");
  if (typeof v === "bigint") return v.toString();
  if (v instanceof Prisma.Decimal) return v.toString();
  if (Array.isArray(v)) return v.map(asPrismaSends);
  return v;
}

// Type OIDs (PostgreSQL's pg_type catalog): int8, numeric, date, timestamp without time zone, and their arrays.
const OID = { int8: 20, numeric: 1700, date: 1082, timestamp: 1114, int8s: 1016, numerics: 1231, timestamps: 1115 };

/** A timestamp without time zone is UTC to Prisma (pg's own parser reads it in the process's time zone). */
const utcTimestamp = (s: string) => new Date(`${s.replace(" ", "T")}Z`);
const utcDate = (s: string) => new Date(`${s}T00:00:00Z`);
const parserOf = pg.types.getTypeParser as (oid: number) => (s: string) => unknown;
/** An array's elements as text (pg's text[] parser, oid 1009), each parsed as its element type. */
const arrayOf =
  <T>(parse: (s: string) => T) =>
  (s: string) =>
    (parserOf(1009)(s) as (string | null)[]).map((x) => (x === null ? null : parse(x)));

/** Result values as Prisma's `$queryRaw` gives them on Postgres: int8 a bigint, numeric a Decimal, json parsed (pg's default). */
const PRISMA_TYPES = {
  getTypeParser(oid: number, format?: string) {
    switch (oid) {
      case OID.int8:
        return (s: string) => BigInt(s);
      case OID.numeric:
        return (s: string) => new Prisma.Decimal(s);
      case OID.date:
        return utcDate;
      case OID.timestamp:
        return utcTimestamp;
      case OID.int8s:
        return arrayOf((s) => BigInt(s));
      case OID.numerics:
        return arrayOf((s) => new Prisma.Decimal(s));
      case OID.timestamps:
        return arrayOf(utcTimestamp);
      default:
        return (pg.types.getTypeParser as (oid: number, format?: string) => unknown)(oid, format);
    }
  },
} as pg.CustomTypesConfig;
