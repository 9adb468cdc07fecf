/**
 * What a view opens on when the URL names nothing: a question it can answer (one study or the newest measured
 * scenario, one workload, a handful of series), the rest offered through its filters. Every series of every study in
 * one chart (about 60 in Scaling) answered none. Pure.
 */

/** Series a chart shows at most by default; past it, a view narrows its default filters. */
export const DEFAULT_MAX_SERIES = 8;

/** "all": a filter set to every value (the URL says so; a missing parameter means the view's default). */
export const ALL = "all";

/** The year a citation ends with ("…, 2015"), for the newest study. */
export function citationYear(citation: string | null | undefined): number | null {
  const m = /(\d{4})\D*$/.exec(citation ?? "");
  return m ? Number(m[1]) : null;
}

/**
 * The scenario to open on among those the view can draw: the newest measured one (scenarios in the order of their
 * newest measured run), else the newest study (by its citation's year), else the first by name.
 */
export function defaultScenario(
  drawable: readonly string[],
  newestMeasured: readonly string[],
  yearOf: (scenario: string) => number | null,
): string | undefined {
  const can = new Set(drawable);
  const measured = newestMeasured.find((s) => can.has(s));
  if (measured) return measured;
  return [...can].sort((a, b) => (yearOf(b) ?? 0) - (yearOf(a) ?? 0) || a.localeCompare(b))[0];
}

/** The workload to open on: A (the update-heavy 50/50 every study ran), else the first in order. */
export function defaultWorkload(workloads: readonly string[]): string | undefined {
  const sorted = [...new Set(workloads)].filter((w) => w !== "").sort();
  return sorted.includes("a") ? "a" : (sorted.find((w) => w !== "load") ?? sorted[0]);
}

/** A filter's value: what the URL says ("all" for every value), else the default. */
export function chosen(param: string | undefined, fallback: string | undefined): string | undefined {
  if (param === ALL) return undefined;
  return param ?? fallback;
}

/**
 * The run a history or repeat view opens on: the newest whose configuration (by `key`) recurs among the recent runs,
 * else the newest. A first benchmark's lone runs (one per preset) have no history or repeats to draw.
 */
export function newestRecurring<T>(recent: readonly T[], key: (run: T) => string): T | undefined {
  const count = new Map<string, number>();
  for (const r of recent) count.set(key(r), (count.get(key(r)) ?? 0) + 1);
  return recent.find((r) => (count.get(key(r)) ?? 0) > 1) ?? recent[0];
}
