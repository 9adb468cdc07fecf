import { FormatRegistry } from "@sinclair/typebox";

/**
 * The ranges of the contract: every number and string a document may carry is bounded, so whatever passes is
 * storable (Postgres int4, bigint, timestamp) and no view's arithmetic can overflow. One source of truth: the API's
 * query filters and the database columns are sized from these.
 */
export const LIMITS = {
  /** Counts are exact in JSON and JavaScript only below 2^53 (and then fit Postgres bigint). */
  count: Number.MAX_SAFE_INTEGER,
  /** One operation's latency: a week in microseconds; no single YCSB operation is a measurement beyond that. */
  latencyUs: 7 * 24 * 3600 * 1e6,
  /** One client's throughput: 1e9 ops/s, two orders above any client YCSB has reported (seed 000's clients did ~1e5). */
  throughputOpsSec: 1e9,
  /** A phase's runtime or elapsed time: one year. */
  runtimeMs: 365 * 24 * 3600 * 1000,
  elapsedSec: 365 * 24 * 3600,
  nodes: 10_000,
  clients: 10_000,
  threadsPerClient: 100_000,
  phaseIndex: 100_000,
  repeat: 10_000,
  replication: 100,
  /** Map keys (operation groups, percentiles, properties, return codes): names, not payloads. */
  keyLength: 200,
  /** Free text (unknown lines, warnings, reasons, citations, properties' values). */
  textLength: 10_000,
  /** Entries of one map (operation groups, properties, histograms of a client...). */
  mapEntries: 1_000,
  /** Dates: 1970-01-01 to 9999-12-31 (Postgres timestamp takes no year 0; results predate neither bound). */
  firstYear: 1970,
  lastYear: 9999,
} as const;

// TypeBox checks no string format unless one is registered. Date.parse accepts 2024-02-30 (rolled over to March 1):
// the calendar fields must read back unchanged.
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
export function isDateTime(v: string): boolean {
  const m = ISO_DATE_TIME.exec(v);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (calendar.getUTCFullYear() !== year || calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) return false;
  if (hour > 23 || minute > 59 || second > 59) return false;
  const t = Date.parse(v);
  if (Number.isNaN(t)) return false;
  const utcYear = new Date(t).getUTCFullYear();
  return utcYear >= LIMITS.firstYear && utcYear <= LIMITS.lastYear;
}
FormatRegistry.Set("date-time", isDateTime);

