/**
 * Scaling of throughput with cluster size: for each larger cluster, the throughput gain over the smallest cluster
 * divided by the linear gain (the efficiency of that step), and, for a series at 4, 6 and 8 nodes, seed 002's
 * (Lineate 2014) scalability score: the mean of the 4->6 and 4->8 efficiencies.
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

/** Seed 002 scored 4 -> 6 and 4 -> 8 nodes: its score exists only for a series measured at those three sizes. */
export const SEED_002_NODES = [4, 6, 8] as const;

export interface ScalingAnalysis {
  baseNodes: number | null;
  /** From the smallest cluster to each larger one: a named "1 -> k efficiency", whatever the sizes. */
  steps: ScalingStep[];
  /**
   * Seed 002's scalability score: the mean efficiency of 4 -> 6 and 4 -> 8 nodes, and only where the series has 4, 6
   * and 8 nodes (a "score" of 1 -> 2 -> 4 steps would be another measure under seed 002's name); else null.
   */
  score: number | null;
  /** The ideal-linear line through the base point, one value per measured cluster size. */
  idealLinear: ScalingPoint[];
}

export function analyseScaling(points: readonly ScalingPoint[]): ScalingAnalysis {
  const sorted = [...points].sort((a, b) => a.nodes - b.nodes);
  const base = sorted[0];
  if (!base || !(base.throughputOpsSec > 0))
    return { baseNodes: base?.nodes ?? null, steps: [], score: null, idealLinear: [] };
  const idealLinear = sorted.map((p) => ({
    nodes: p.nodes,
    throughputOpsSec: (base.throughputOpsSec * p.nodes) / base.nodes,
  }));
  const steps = sorted
    .filter((p) => p.nodes > base.nodes)
    .map((p) => {
      const gain = p.throughputOpsSec / base.throughputOpsSec - 1;
      const linearGain = p.nodes / base.nodes - 1;
      return { fromNodes: base.nodes, toNodes: p.nodes, gain, linearGain, efficiency: gain / linearGain };
    });
  return { baseNodes: base.nodes, steps, score: seed002Score(sorted), idealLinear };
}

function seed002Score(points: readonly ScalingPoint[]): number | null {
  const [four, six, eight] = SEED_002_NODES.map((n) => points.find((p) => p.nodes === n));
  if (!four || !six || !eight || !(four.throughputOpsSec > 0)) return null;
  const efficiency = (p: ScalingPoint) => (p.throughputOpsSec / four.throughputOpsSec - 1) / (p.nodes / four.nodes - 1);
  return (efficiency(six) + efficiency(eight)) / 2;
}
