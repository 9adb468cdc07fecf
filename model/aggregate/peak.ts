/**
 * A preset's (or a cluster size's) result when runs hold several load levels: each run is taken at its peak, the
 * phase of highest throughput over its thread and target steps, and the runs (repeats) are averaged. Seed 004
 * (United Software Associates 2015) ran "increasing the number of threads until the maximum throughput was
 * reached" and reports that point; averaging a whole thread sweep instead would mix 1-thread and 512-thread
 * phases into a number no configuration ever gave. /scaling takes each run's best phase the same way.
 */
export interface LoadLevelPhase {
  runId: string;
  throughputOpsSec: number;
}

export interface PeakResult<T extends LoadLevelPhase> {
  /** Mean over runs of each run's peak throughput; null without phases. */
  throughputOpsSec: number | null;
  /** One phase per run: its peak (the first of equals, in the order given). */
  peaks: T[];
}

export function peakPerRun<T extends LoadLevelPhase>(phases: readonly T[]): PeakResult<T> {
  const best = new Map<string, T>();
  for (const p of phases) {
    const current = best.get(p.runId);
    if (current === undefined || p.throughputOpsSec > current.throughputOpsSec) best.set(p.runId, p);
  }
  const peaks = [...best.values()];
  const throughputOpsSec = peaks.length === 0 ? null : peaks.reduce((a, p) => a + p.throughputOpsSec, 0) / peaks.length;
  return { throughputOpsSec, peaks };
}
