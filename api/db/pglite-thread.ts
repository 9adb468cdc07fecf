import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/**
 * The embedded PGlite on a thread of its own. PGlite is Postgres compiled to WebAssembly: every statement runs on the
 * thread that called it, so on the API's thread a 700 ms aggregate held every request, `/health` included, for 700 ms
 * (issue 28: PGlite's `/health` p95 821 ms beside one writer and sixteen viewers). Here a worker thread owns the
 * database and the API's thread only sends statements and receives rows, so it serves hits, health checks and
 * uploads while a statement runs.
 *
 * `PGliteOnThread` answers what the Prisma adapter (pglite-prisma-adapter) and the migrations call on a PGlite:
 * `query`, `exec` and `transaction` with the same results and the same errors (PGlite's `DatabaseError`, which the
 * adapter maps to Prisma's error kinds by class, rebuilt here from its fields).
 */

/** A statement's result as PGlite returns it (`Results` in PGlite's interface). */
export interface QueryResult<Row = unknown> {
  rows: Row[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
  rowCount?: number;
  command?: string;
}

/** The options the callers pass: result rows as arrays, and parsers by type oid (the adapter's own). */
export interface QueryOptions {
  rowMode?: "array" | "object";
  parsers?: Record<number, (value: string, typeId: number) => unknown>;
}

export interface ThreadTransaction {
  query<Row = unknown>(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult<Row>>;
  exec(sql: string): Promise<QueryResult[]>;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

type Request =
  | { op: "query"; sql: string; params: unknown[]; rowMode: "array" | "object"; raw: number[]; tx?: number }
  | { op: "exec"; sql: string; tx?: number }
  | { op: "begin" }
  | { op: "rollback"; tx: number }
  | { op: "end"; tx: number; commit: boolean }
  | { op: "close" };

/** A thrown error's fields, as the worker sends them (a thrown object loses its class between threads). */
interface ErrorFields {
  message: string;
  name?: string;
  stack?: string;
  /** Whether it was PGlite's DatabaseError (an error Postgres reported), with its protocol fields. */
  database?: boolean;
  fields?: Record<string, unknown>;
}

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: ErrorFields };

/**
 * The worker's program, run as a script (`eval`): one file that needs no loader for TypeScript and no place in a bundle
 * (the server package bundles this module; PGlite, which it loads by path, stays a package beside it). Requests run in
 * the order they arrive; the API's thread already takes them in turn (fair-queue.ts), and PGlite queues the rest.
 * Values of the types the caller parses itself come back as PGlite's text (`raw`), the rest parsed as PGlite parses.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { PGlite, messages } = require(workerData.pglitePath);
const transactions = new Map();
let nextTx = 1;
const rawParsers = new Map();
const asText = (value) => value;
function parsersFor(raw) {
  const key = raw.join(",");
  let parsers = rawParsers.get(key);
  if (!parsers) {
    parsers = {};
    for (const oid of raw) parsers[oid] = asText;
    rawParsers.set(key, parsers);
  }
  return parsers;
}
function errorFields(e) {
  if (!(e instanceof Error)) return { message: String(e) };
  const out = { message: e.message, name: e.name, stack: e.stack };
  if (e instanceof messages.DatabaseError) {
    out.database = true;
    out.fields = {};
    for (const [k, v] of Object.entries(e)) {
      if (v === undefined || typeof v === "function") continue;
      try { structuredClone(v); out.fields[k] = v; } catch {}
    }
  }
  return out;
}
function target(req) {
  if (req.tx === undefined) return db;
  const t = transactions.get(req.tx);
  if (!t) throw new Error("transaction " + req.tx + " is not open");
  return t.tx;
}
async function handle(req) {
  switch (req.op) {
    case "query":
      return target(req).query(req.sql, req.params, { rowMode: req.rowMode, parsers: parsersFor(req.raw) });
    case "exec":
      return target(req).exec(req.sql);
    case "begin":
      return new Promise((entered, failed) => {
        const id = nextTx++;
        const done = db.transaction((tx) => new Promise((end, abandon) => {
          transactions.set(id, { tx, end, abandon, done });
          entered(id);
        }));
        done.catch(failed);
        transactions.set(-id, done);
      });
    case "rollback":
      return target(req).rollback();
    case "end": {
      const t = transactions.get(req.tx);
      if (!t) throw new Error("transaction " + req.tx + " is not open");
      const done = transactions.get(-req.tx);
      transactions.delete(req.tx);
      transactions.delete(-req.tx);
      const abandoned = new Error("abandoned");
      if (req.commit) t.end();
      else t.abandon(abandoned);
      try {
        await done;
      } catch (e) {
        if (e !== abandoned) throw e;
      }
      return null;
    }
    case "close":
      await db.close();
      return null;
  }
  throw new Error("unknown request " + req.op);
}
const db = new PGlite(workerData.dataDir);
db.waitReady.then(
  () => parentPort.postMessage({ id: 0, ok: true, value: null }),
  (e) => parentPort.postMessage({ id: 0, ok: false, error: errorFields(e) }),
);
parentPort.on("message", ({ id, req }) => {
  handle(req).then(
    (value) => parentPort.postMessage({ id, ok: true, value: value === undefined ? null : value }),
    (e) => parentPort.postMessage({ id, ok: false, error: errorFields(e) }),
  );
});
`;

/** PGlite's error class, as the adapter sees it (loaded with PGlite: the Postgres-only service kit carries none). */
type DatabaseErrorClass = new (message: string, length: number, name: "error") => Error;

export class PGliteOnThread {
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private stopped: Error | undefined;
  /** The parsers the callers pass are one object per caller: their oids listed once. */
  private readonly rawOids = new WeakMap<object, number[]>();

  private constructor(
    private readonly worker: Worker,
    private readonly DatabaseError: DatabaseErrorClass,
  ) {}

  /** Starts the thread and its PGlite on `dataDir` (in memory when undefined); resolves once PGlite is ready. */
  static async open(dataDir: string | undefined): Promise<PGliteOnThread> {
    const require = createRequire(import.meta.url);
    const pglitePath = require.resolve("@electric-sql/pglite");
    const { messages } = (await import("@electric-sql/pglite")) as unknown as {
      messages: { DatabaseError: DatabaseErrorClass };
    };
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { pglitePath, dataDir } });
    const thread = new PGliteOnThread(worker, messages.DatabaseError);
    const ready = new Promise<unknown>((resolve, reject) => thread.pending.set(0, { resolve, reject }));
    worker.on("message", (reply: Reply) => thread.settle(reply));
    worker.on("error", (e) => thread.stop(e));
    worker.on("exit", (code) => thread.stop(new Error(`the embedded database's thread stopped (exit code ${code})`)));
    try {
      await ready;
    } catch (e) {
      await worker.terminate();
      throw e;
    }
    // Idle, the thread does not keep the process alive (as PGlite on the main thread did not); busy, it does.
    worker.unref();
    return thread;
  }

  query<Row = unknown>(sql: string, params: unknown[] = [], options: QueryOptions = {}): Promise<QueryResult<Row>> {
    return this.queryIn(undefined, sql, params, options);
  }

  async exec(sql: string): Promise<QueryResult[]> {
    return (await this.call({ op: "exec", sql })) as QueryResult[];
  }

  /**
   * `fn` inside BEGIN … COMMIT on the thread's one connection; ROLLBACK when it throws (and the error rethrown), as
   * PGlite's own `transaction`.
   */
  async transaction<T>(fn: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const id = (await this.call({ op: "begin" })) as number;
    let closed = false;
    const open = () => {
      if (closed) throw new Error("Transaction is closed");
    };
    const tx: ThreadTransaction = {
      query: async (sql, params = [], options = {}) => {
        open();
        return this.queryIn(id, sql, params, options);
      },
      exec: async (sql) => {
        open();
        return (await this.call({ op: "exec", sql, tx: id })) as QueryResult[];
      },
      rollback: async () => {
        open();
        await this.call({ op: "rollback", tx: id });
        closed = true;
      },
      get closed() {
        return closed;
      },
    };
    let value: T;
    try {
      value = await fn(tx);
    } catch (e) {
      closed = true;
      await this.call({ op: "end", tx: id, commit: false }).catch(() => {});
      throw e;
    }
    closed = true;
    await this.call({ op: "end", tx: id, commit: true });
    return value;
  }

  async close(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.call({ op: "close" });
    } finally {
      this.stopped = new Error("the embedded database is closed");
      await this.worker.terminate();
    }
  }

  private async queryIn<Row>(
    tx: number | undefined,
    sql: string,
    params: unknown[],
    options: QueryOptions,
  ): Promise<QueryResult<Row>> {
    const parsers = options.parsers;
    const raw = parsers ? this.oidsOf(parsers) : [];
    const rowMode = options.rowMode ?? "object";
    const result = (await this.call({
      op: "query",
      sql,
      params,
      rowMode,
      raw,
      ...(tx === undefined ? {} : { tx }),
    })) as QueryResult<Row>;
    if (parsers && raw.length > 0) parseRows(result, parsers, rowMode);
    return result;
  }

  private oidsOf(parsers: object): number[] {
    let oids = this.rawOids.get(parsers);
    if (!oids) {
      oids = Object.keys(parsers).map(Number);
      this.rawOids.set(parsers, oids);
    }
    return oids;
  }

  private call(req: Request): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, req });
    });
  }

  private settle(reply: Reply): void {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if (reply.ok) waiting.resolve(reply.value);
    else waiting.reject(this.rebuild(reply.error));
  }

  /** The error as the caller would have caught it from PGlite itself: a DatabaseError with its fields, else an Error. */
  private rebuild(fields: ErrorFields): Error {
    const e = fields.database ? new this.DatabaseError(fields.message, 0, "error") : new Error(fields.message);
    if (fields.fields) Object.assign(e, fields.fields);
    if (fields.name && !fields.database) e.name = fields.name;
    if (fields.stack) e.stack = fields.stack;
    return e;
  }

  /** Every request still waiting fails with the thread's end; every later one too. */
  private stop(cause: Error): void {
    if (!this.stopped) this.stopped = cause;
    for (const { reject } of this.pending.values()) reject(cause);
    this.pending.clear();
  }
}

/** The caller's parsers applied to the values the thread left as text (null stays null), in place. */
function parseRows(result: QueryResult, parsers: NonNullable<QueryOptions["parsers"]>, rowMode: "array" | "object") {
  const columns = result.fields
    .map((f, i) => ({ i, name: f.name, type: f.dataTypeID, parse: parsers[f.dataTypeID] }))
    .filter((c) => c.parse !== undefined);
  if (columns.length === 0) return;
  for (const row of result.rows as Record<string | number, unknown>[]) {
    for (const c of columns) {
      const key = rowMode === "array" ? c.i : c.name;
      const value = row[key];
      if (value !== null && value !== undefined) row[key] = c.parse!(value as string, c.type);
    }
  }
}
