/**
 * Whether an error means the database is unavailable (down, unreachable, restarting, overloaded) rather than that
 * the request was wrong: the API answers those with 503 and Retry-After, never 500. Errors arrive in several shapes:
 * Prisma's (P1001 can't reach, P1002 timed out, P1008 operation timed out, P1017 server closed the connection,
 * P2024 no pool connection in time), the driver adapter's error kinds, pg's own Error, and SQLSTATEs of class 08
 * (connection exception), 57P01-57P03 (shutdown, cannot connect now), 53300 (too many connections), 57014
 * (statement timeout) (PostgreSQL docs, Appendix A "PostgreSQL Error Codes").
 */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
const ADAPTER_KINDS = new Set([
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
  "TransactionAlreadyClosed",
]);
const NODE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH"]);
// "timeout exceeded when trying to connect": pg-pool's error when no connection is free within connectionTimeoutMillis
// (every one busy under load, or the server slow to accept), which the driver adapter passes on as a plain Error.
// "connection error and is not queryable": pg's error for a statement sent on a connection that has ended (the server
// terminated it mid-transaction: api/db/pg-direct.ts).
const MESSAGES =
  /Connection terminated|Connection refused|connection timeout|timeout exceeded when trying to connect|Can't reach database server|Timed out fetching a new connection|PGlite is closed|server closed the connection|connection error and is not queryable/i;

export function isDatabaseOutage(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== "object" || depth > 4) return false;
  const e = err as {
    code?: unknown;
    message?: unknown;
    meta?: { driverAdapterError?: { cause?: { kind?: unknown; originalCode?: unknown } } };
    cause?: unknown;
    name?: unknown;
  };
  const code = typeof e.code === "string" ? e.code : "";
  if (PRISMA_CODES.has(code) || NODE_CODES.has(code)) return true;
  if (/^08/.test(code) || ["57P01", "57P02", "57P03", "53300", "57014"].includes(code)) return true;
  const adapter = e.meta?.driverAdapterError?.cause;
  if (
    adapter &&
    (ADAPTER_KINDS.has(String(adapter.kind)) || /^08|^57P0|^53300|^57014/.test(String(adapter.originalCode ?? "")))
  )
    return true;
  if (e.name === "PrismaClientInitializationError") return true;
  if (typeof e.message === "string" && MESSAGES.test(e.message)) return true;
  return isDatabaseOutage(e.cause, depth + 1);
}
