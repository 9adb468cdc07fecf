import type pg from "pg";

/**
 * A read sent on a connection the server had already ended is asked again on another connection.
 *
 * Why: the pool keeps idle connections, and the server ends them without being asked: an administrator's
 * pg_terminate_backend, a restart, an RDS failover or maintenance (PostgreSQL manual, "Server Signaling Functions";
 * RDS user guide, "Failing over a Multi-AZ DB instance"). pg-pool drops an idle connection once its socket reports the
 * end, but a request arriving before that report takes it, and its statement fails with 57P01 ("terminating connection
 * due to administrator command") or "Connection terminated unexpectedly": a 503 for a database that is up. A read
 * changes nothing, so sending it again is safe; a write is not sent again (whether the first reached the server is not
 * known), and its request answers 503 as before.
 */

// SQLSTATEs of a connection the server ended (PostgreSQL manual, Appendix A "PostgreSQL Error Codes"): 57P01
// admin_shutdown, 57P02 crash_shutdown, 08000 connection_exception, 08003 connection_does_not_exist, 08006
// connection_failure; and the socket's own errors.
const LOST_CODES = new Set(["57P01", "57P02", "08000", "08003", "08006", "ECONNRESET", "EPIPE"]);
// pg's messages for a socket that ended under a statement, or a statement sent on a connection that had ended.
const LOST_MESSAGES = /Connection terminated|connection error and is not queryable|server closed the connection/i;

/** Whether `err` says the connection the statement was sent on had been ended (not that the database is down). */
export function isLostConnection(err: unknown): boolean {
  if (!err || typeof err !== "object") return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === "string" && LOST_CODES.has(code)) return true;
  return typeof message === "string" && LOST_MESSAGES.test(message);
}

// A statement that writes nothing: SELECT, SHOW, VALUES or TABLE, or a WITH, whose text names no data-modifying
// command (a WITH may hold INSERT, UPDATE, DELETE or MERGE: PostgreSQL manual, "Data-Modifying Statements in WITH"),
// no sequence advance and no row lock (SELECT ... FOR UPDATE names UPDATE already).
const READ_START = /^\s*(?:\/\*[\s\S]*?\*\/\s*|--[^\n]*\n\s*)*(SELECT|WITH|SHOW|VALUES|TABLE)\b/i;
// Conservative: a read whose text merely mentions one of these words is not sent again, which is only slower.
const MODIFIES = /\b(INSERT|UPDATE|DELETE|MERGE|NEXTVAL|SETVAL)\b|\bFOR\s+(SHARE|NO\s+KEY|KEY)\b/i;

/** Whether the statement `text` only reads (so it may be sent twice). */
export function isReadOnlyStatement(text: string): boolean {
  const start = READ_START.exec(text);
  if (!start) return false;
  return !MODIFIES.test(text);
}

/** How many times a statement is sent at most: each idle connection the server ended can fail one attempt. */
const ATTEMPTS = 3;

/**
 * `send` again while it fails on a connection the server had ended and `resendable` says that failure's statement may
 * be sent twice (ATTEMPTS times in all); any other failure, or the last, is thrown. `send` takes a connection of its
 * own each time: the pool discards one whose statement failed this way.
 */
export async function resendWhileLost<T>(send: () => Promise<T>, resendable: () => boolean = () => true): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (e) {
      if (attempt >= ATTEMPTS || !isLostConnection(e) || !resendable()) throw e;
    }
  }
}

type QueryArgs = [unknown, ...unknown[]];

/**
 * Makes `pool.query` send a read again, on another connection, when the one it took had been ended (resendWhileLost).
 * Callback forms of `query` are passed through unchanged.
 */
export function retryReadsOnLostConnection<P extends pg.Pool>(pool: P): P {
  const query = pool.query.bind(pool) as (...args: QueryArgs) => unknown;
  (pool as { query: unknown }).query = (...args: QueryArgs) =>
    typeof args[args.length - 1] === "function"
      ? query(...args)
      : resendWhileLost(
          () => query(...args) as Promise<unknown>,
          () => isReadOnlyStatement(statementText(args[0])),
        );
  return pool;
}

function statementText(config: unknown): string {
  if (typeof config === "string") return config;
  const text = (config as { text?: unknown } | undefined)?.text;
  return typeof text === "string" ? text : "";
}
