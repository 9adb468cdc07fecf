/**
 * Throughput dips in a phase's status series: the one rule the runner's validity verdict and the dashboard's
 * time-series chart both apply, so a dip marked on the chart is the dip the verdict names.
 */

/** A dip: status-line throughput under this share of the phase mean ... */
export const DIP_RATIO = 0.5;
/** ... for at least this long (YCSB's default status interval is 10 s, `status.interval`: one full interval). */
export const DIP_MIN_SEC = 10;

export interface ThroughputDip {
  /** Elapsed seconds where the dip starts (the end of the last status line above the threshold) and ends. */
  fromSec: number;
  toSec: number;
  minOpsPerSec: number;
  /** The status lines inside the dip, by index in the series. */
  lines: number[];
}

/** What the rule says in words, for a chart's note or a verdict's message. */
export const DIP_RULE = `throughput under ${DIP_RATIO * 100} % of the phase mean for ${DIP_MIN_SEC} s or more`;

/**
 * Runs of consecutive status lines under DIP_RATIO of the mean rate, lasting DIP_MIN_SEC or more. Lines
 * without a rate (the first, "∞", or not printed) and at 0 s do not count, and the last line neither: it
 * covers a partial interval at the end of the run and says nothing about a dip.
 */
export function findThroughputDips(
  elapsedSec: readonly number[],
  opsPerSec: readonly (number | null)[],
): ThroughputDip[] {
  const body: number[] = [];
  for (let i = 0; i < elapsedSec.length; i++) {
    const rate = opsPerSec[i];
    if (rate != null && Number.isFinite(rate) && elapsedSec[i]! > 0) body.push(i);
  }
  body.pop();
  if (body.length < 2) return [];
  const mean = body.reduce((sum, i) => sum + opsPerSec[i]!, 0) / body.length;
  const dips: ThroughputDip[] = [];
  let current: ThroughputDip | undefined;
  let prevSec = 0;
  body.forEach((i, k) => {
    const rate = opsPerSec[i]!;
    const low = rate < DIP_RATIO * mean;
    if (low) {
      // A status line covers the interval since the previous one.
      current ??= { fromSec: k === 0 ? 0 : prevSec, toSec: 0, minOpsPerSec: Infinity, lines: [] };
      current.minOpsPerSec = Math.min(current.minOpsPerSec, rate);
      current.lines.push(i);
    }
    if ((!low || k === body.length - 1) && current) {
      current.toSec = low ? elapsedSec[i]! : prevSec;
      if (current.toSec - current.fromSec >= DIP_MIN_SEC) dips.push(current);
      current = undefined;
    }
    prevSec = elapsedSec[i]!;
  });
  return dips;
}
