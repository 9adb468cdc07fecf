/**
 * What YCSB 0.17.0 still counts in 32-bit ints once every phase runs the project's LongKeyWorkload (runner/bindings
 * common; it takes record counts, insert ranges and key numbers as longs): site.ycsb.Client parses a run's
 * `operationcount`, and a load's `insertcount` (its operation count), with Integer.parseInt, and its client threads
 * count operations in ints. One client's count past 2^31 - 1 stops the phase at once with NumberFormatException
 * (measured: test/runner/ycsb-limits.test.ts runs the real jar on both sides of it). A record count past it runs: seed
 * 000 loaded 500 million records per node at every size (16 billion at 32 nodes).
 */
export const YCSB_MAX_COUNT = 2 ** 31 - 1;

/** Why one client's YCSB count (`property` of a phase) cannot run under YCSB 0.17.0, or undefined when it can. */
export function clientCountProblem(
  property: "operationcount" | "insertcount",
  count: number,
  remedy: string,
): string | undefined {
  if (count <= YCSB_MAX_COUNT) return undefined;
  const n = (x: number) => x.toLocaleString("en-US");
  const limit = `past the ${n(YCSB_MAX_COUNT)} YCSB 0.17.0's Client reads it as (an int)`;
  return `one client's ${property} would be ${n(count)}, ${limit}: ${remedy}`;
}
