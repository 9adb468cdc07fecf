/**
 * "Capacity and cost", shaped for drawing (pure: no DOM, no fetch): each configuration as a point of sustainable
 * throughput against its price per hour, the frontier of configurations no other beats on both, and a search's step
 * ladder as table rows.
 */
import type { CapacityLadderStep, CapacityResult } from "../../model/capacity-result.js";

export interface CapacityPoint {
  /** engine · preset · nodes × instance type (and the stand-in, the search and the SLO where they differ). */
  label: string;
  engine: string;
  standIn: string | null;
  /** Mean sustainable ops/s over the repeats counted, with its 95% CI and n. */
  sustainableOpsSec: number;
  ci: { low: number; high: number } | null;
  n: number;
  /** USD per hour of the configuration under test; null when it carries no price (a local run), `priceNote` says why. */
  usdPerHour: number | null;
  usdPerMillionOps: number | null;
  priceNote: string;
  verdict: string;
  reasons: string[];
}

/** The configuration's name as the view shows it: engine × preset × nodes × instance type. */
export function configurationLabel(c: {
  engine: string;
  preset: string;
  nodes: number;
  instanceTypes: { data: string };
  standIn: string | null;
}): string {
  return `${c.engine}${c.standIn ? " (stand-in)" : ""} · ${c.preset} · ${c.nodes} × ${c.instanceTypes.data}`;
}

/**
 * The priced points no other priced point beats on both: none costs as little or less and sustains as much or more
 * with one of the two strictly better. Ordered by price, so the frontier draws as a rising line.
 */
export function capacityFrontier<T extends Pick<CapacityPoint, "usdPerHour" | "sustainableOpsSec">>(
  points: readonly T[],
): T[] {
  const priced = points.filter((p): p is T & { usdPerHour: number } => p.usdPerHour !== null);
  const beats = (a: T & { usdPerHour: number }, b: T & { usdPerHour: number }) =>
    a.usdPerHour <= b.usdPerHour &&
    a.sustainableOpsSec >= b.sustainableOpsSec &&
    (a.usdPerHour < b.usdPerHour || a.sustainableOpsSec > b.sustainableOpsSec);
  return priced
    .filter((p) => !priced.some((q) => q !== p && beats(q, p)))
    .sort((a, b) => a.usdPerHour - b.usdPerHour || a.sustainableOpsSec - b.sustainableOpsSec);
}

export interface LadderRow {
  step: number;
  role: CapacityLadderStep["role"];
  /** Total target, ops/s; null for the unthrottled probe. */
  target: number | null;
  achievedOpsSec: number;
  /** The SLO's percentile of each judged operation: service time and intended latency, ms. */
  judged: { operation: string; opMs: number | null; intendedMs: number | null; overLimit: boolean }[];
  /** Failed operations, % of all the step's operations. */
  errorsPct: number;
  verdict: "probe" | "held" | "broke";
  breaches: string[];
}

/** A search's steps as the ladder table lists them, in step order, judged against the search's SLO. */
export function ladderRows(result: Pick<CapacityResult, "slo" | "steps">): LadderRow[] {
  return [...result.steps]
    .sort((a, b) => a.step - b.step)
    .map((s) => {
      const all = s.operations.reduce((a, o) => a + o.count, 0);
      const failed = s.operations.reduce((a, o) => a + o.failed, 0);
      const judged = result.slo.operations.flatMap((op) => {
        const o = s.operations.find((x) => x.operation === op);
        if (!o) return [];
        const value = o.intendedMs ?? o.opMs;
        return [
          {
            operation: op,
            opMs: o.opMs,
            intendedMs: o.intendedMs,
            overLimit: value !== null && value > result.slo.limitMs,
          },
        ];
      });
      return {
        step: s.step,
        role: s.role,
        target: s.target,
        achievedOpsSec: s.achievedOpsSec,
        judged,
        errorsPct: all > 0 ? (failed / all) * 100 : 0,
        verdict: s.role === "probe" ? "probe" : s.pass ? "held" : "broke",
        breaches: s.breaches,
      };
    });
}

/** The SLO in words: "p99 of READ, UPDATE ≤ 10 ms, errors ≤ 0.1 %". */
export function sloText(slo: CapacityResult["slo"]): string {
  return `p${slo.percentile} of ${slo.operations.join(", ")} ≤ ${slo.limitMs} ms, errors ≤ ${slo.errorBudgetPct} %`;
}
