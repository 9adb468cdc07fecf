/**
 * YCSB 0.17.0 reads record and operation counts as 32-bit ints: CoreWorkload.init parses insertcount (by default
 * recordcount - insertstart) with Integer.parseInt, Client parses operationcount the same way, and
 * CoreWorkload.nextKeynum narrows every chosen key number with intValue(). A run phase over 2^31 records or more
 * therefore stops at once with NumberFormatException (measured: recordcount=2147483648 fails, 2147483647 runs;
 * test/ycsb-limits.test.ts runs both against the real jar), after a load that may have taken hours.
 */
export const YCSB_MAX_COUNT = 2 ** 31 - 1;

/**
 * The largest scale (two decimals, rounded down) at which `baseRecords` stays within YCSB's count; 1 when the
 * whole data set fits.
 */
export function largestFittingScale(baseRecords: number): number {
  if (baseRecords <= YCSB_MAX_COUNT) return 1;
  return Math.floor((YCSB_MAX_COUNT / baseRecords) * 100) / 100;
}

/** Why a data set of `records` cannot run under YCSB 0.17.0, or undefined when it can. */
export function recordCountProblem(records: number, baseRecords: number): string | undefined {
  if (records <= YCSB_MAX_COUNT) return undefined;
  return (
    `${records.toLocaleString("en-US")} records exceed YCSB 0.17.0's ${YCSB_MAX_COUNT.toLocaleString("en-US")} ` +
    `(it reads counts and key numbers as 32-bit ints, so every run phase would fail after the load): ` +
    `use scale ${largestFittingScale(baseRecords)} or less, or fewer nodes`
  );
}
