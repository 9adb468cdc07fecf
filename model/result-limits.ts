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

/**
 * An ISO 8601 date-time as the contract takes it, as one regular expression (so the OpenAPI document states the rule
 * and a client can check it): a year from 1970 to 9999 as written, a day that exists on the calendar (February 29 in
 * leap years only: divisible by 4, not by 100 unless by 400), hours 00-23, minutes and seconds 00-59, optional
 * fraction, Z or an offset up to ±23:59. Date.parse alone accepts 2024-02-30 (rolled over to March 1).
 */
const YEAR = "(?:19[7-9][0-9]|[2-9][0-9]{3})";
const MONTH_DAY =
  "(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))";
const LEAP_YEAR =
  "(?:19(?:7[26]|8[048]|9[26])|[2-9][0-9](?:0[48]|[2468][048]|[13579][26])|(?:[2468][048]|[3579][26])00)";
const TIME = "T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])";
export const DATE_TIME_PATTERN = `^(?:${YEAR}-${MONTH_DAY}|${LEAP_YEAR}-02-29)${TIME}$`;
const DATE_TIME = new RegExp(DATE_TIME_PATTERN);

export function isDateTime(v: string): boolean {
  return DATE_TIME.test(v) && !Number.isNaN(Date.parse(v));
}
// TypeBox checks no string format unless one is registered: "date-time" is the contract's.
FormatRegistry.Set("date-time", isDateTime);

/** A date-time field of the contract: its rule as a pattern (stated in the OpenAPI document), described. */
export const dateTimeOptions = (description?: string) => ({
  pattern: DATE_TIME_PATTERN,
  description: `${description ? `${description}: ` : ""}ISO 8601 date-time, years 1970-9999`,
});
