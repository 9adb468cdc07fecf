/**
 * Scaling of throughput with cluster size, as seed 002 (Lineate 2014) scores it: for each larger cluster, the
 * throughput gain over the smallest cluster divided by the linear gain; the score is the mean of those ratios.
 * Seed 002, Cassandra read-heavy: 4->6 +21.07% (linear +50%), 4->8 +64.38% (linear +100%)
 * -> (21.07/50 + 64.38/100) / 2 = 53.26%.
 */
export interface ScalingPoint {
  nodes: number;
  throughputOpsSec: number;
}

export interface ScalingStep {
  fromNodes: number;
  toNodes: number;
  /** Throughput gain over the base cluster: T(to)/T(from) - 1. */
  gain: number;
  /** What perfectly linear scaling would give: to/from - 1. */
  linearGain: number;
  /** gain / linearGain (1 = linear). */
  efficiency: number;
}

export interface ScalingAnalysis {
  baseNodes: number | null;
  steps: ScalingStep[];
  /** Mean efficiency over the steps (seed 002's "average efficiency"); null with fewer than two cluster sizes. */
  score: number | null;
  /** The ideal-linear line through the base point, one value per measured cluster size. */
  idealLinear: ScalingPoint[];
}

export function analyseScaling(points: readonly ScalingPoint[]): ScalingAnalysis {
  const sorted = [...points].sort((a, b) => a.nodes - b.nodes);
  const base = sorted[0];
  if (!base || !(base.throughputOpsSec > 0)) return { baseNodes: base?.nodes ?? null, steps: [], score: null, idealLinear: [] };
  const idealLinear = sorted.map((p) => ({ nodes: p.nodes, throughputOpsSec: (base.throughputOpsSec * p.nodes) / base.nodes }));
  const steps = sorted
    .filter((p) => p.nodes > base.nodes)
    .map((p) => {
      const gain = p.throughputOpsSec / base.throughputOpsSec - 1;
      const linearGain = p.nodes / base.nodes - 1;
      return { fromNodes: base.nodes, toNodes: p.nodes, gain, linearGain, efficiency: gain / linearGain };
    });
  const score = steps.length ? steps.reduce((a, s) => a + s.efficiency, 0) / steps.length : null;
  return { baseNodes: base.nodes, steps, score, idealLinear };
}
