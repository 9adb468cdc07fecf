/**
 * The seeds' published latency tables as series: a table whose `derive` is a mean latency by cluster size
 * (prisma/reference/<seed>.json, seeds 000, 001 and 002) gives one series per engine column, values in
 * microseconds whatever unit the study printed (seed 002: ms). Pure: the API serves them beside each table.
 */
export interface MeanLatencyDeriveShape {
  metric: "mean-latency";
  keyColumn: "nodes" | "shards";
  workload: string | null;
  operation: string | null;
  unit: "us" | "ms";
  engines: Record<string, string>;
}

export interface ReferenceSeries {
  engine: string;
  metric: "mean-latency";
  /** The workload the table is of, or null for "across all workloads" (seed 001). */
  workload: string | null;
  /** The YCSB operation group, or null where the study averaged over operations (seeds 000, 002). */
  operation: string | null;
  /** Data nodes (seed 001's "shards" are its data nodes). */
  points: { nodes: number; valueUs: number }[];
}

const UNIT_US = { us: 1, ms: 1000 } as const;

export function referenceSeries(table: { columns: unknown; rows: unknown; derive: unknown }): ReferenceSeries[] {
  const d = table.derive as Partial<MeanLatencyDeriveShape> | null;
  if (!d || d.metric !== "mean-latency" || !d.engines || !(d.unit === "us" || d.unit === "ms")) return [];
  const columns = Array.isArray(table.columns) ? (table.columns as unknown[]).map(String) : [];
  const rows = Array.isArray(table.rows)
    ? (table.rows as unknown[]).filter((r): r is unknown[] => Array.isArray(r))
    : [];
  const unit = UNIT_US[d.unit];
  // jsonb keeps no key order: series in engine order.
  return Object.entries(d.engines)
    .sort(([, a], [, b]) => a.localeCompare(b))
    .map(([column, engine]) => {
      const at = columns.indexOf(column);
      const points = rows.flatMap((r) => {
        const nodes = r[0];
        const value = r[at];
        return typeof nodes === "number" && typeof value === "number" && Number.isFinite(value)
          ? [{ nodes, valueUs: value * unit }]
          : [];
      });
      return {
        engine,
        metric: "mean-latency" as const,
        workload: d.workload ?? null,
        operation: d.operation ?? null,
        points,
      };
    });
}
