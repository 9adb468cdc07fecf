import type { CapacitySearch, CapacitySlo } from "./capacity-search.js";
import type { PlannableScenario } from "./plan.js";

/**
 * A scenario's capacity variant (`ycsb-lab plan --capacity`): the same deployment, records and workloads, searched
 * for the highest rate that holds an SLO instead of swept. Fixed steps as scylla-cluster-tests runs them (50, 75, 90
 * and 105 % of the measured maximum), then a bisection when a resolution is given.
 */
export const DEFAULT_FRACTIONS = [0.5, 0.75, 0.9, 1.05];
export const DEFAULT_ERROR_BUDGET_PCT = 0.1;

const SLO_TEXT =
  /^\s*([A-Za-z][\w-]*(?:\s*,\s*[A-Za-z][\w-]*)*)\s+p(\d+(?:\.\d+)?)\s*(?:<=?|\s)\s*(\d+(?:\.\d+)?)\s*ms\s*$/;

/** "READ,UPDATE p99 10ms" (or "READ p99.9 < 5 ms") as an SLO; the error says what is expected. */
export function parseSloText(text: string, errorBudgetPct = DEFAULT_ERROR_BUDGET_PCT): CapacitySlo {
  const m = SLO_TEXT.exec(text);
  if (!m)
    throw new Error(
      `"${text}" is not an SLO: write the operations, a percentile and a limit, e.g. "READ,UPDATE p99 10ms"`,
    );
  return {
    operations: m[1]!.split(",").map((op) => op.trim().toUpperCase()),
    percentile: Number(m[2]),
    limitMs: Number(m[3]),
    errorBudgetPct,
  };
}

export interface VariantChoice {
  slo: CapacitySlo;
  /** The total rate the fractions apply to, ops/s; absent: an unthrottled probe measures it first. */
  maximumOpsSec?: number;
  fractions?: number[];
  resolutionOpsSec?: number;
  maxSteps?: number;
}

/** The search a choice states: the fixed steps, the probe before them, and room for the bisection after. */
export function variantSearch(c: VariantChoice): CapacitySearch {
  const fractions = c.fractions ?? DEFAULT_FRACTIONS;
  // The probe (unless the maximum is stated), each fixed step, and (with a resolution) up to four halvings.
  const probe = c.maximumOpsSec === undefined ? 1 : 0;
  const maxSteps = c.maxSteps ?? probe + fractions.length + (c.resolutionOpsSec === undefined ? 0 : 4);
  return {
    slo: c.slo,
    ...(c.maximumOpsSec === undefined ? {} : { maximumOpsSec: c.maximumOpsSec }),
    fractions,
    ...(c.resolutionOpsSec === undefined ? {} : { resolutionOpsSec: c.resolutionOpsSec }),
    maxSteps,
  };
}

/**
 * The scenario searched instead of swept: its thread sweep or step-up becomes its largest thread count (the
 * unthrottled probe measures the maximum with every thread), its fixed targets go (the search sets them).
 */
export function capacityVariant(spec: PlannableScenario, c: VariantChoice): PlannableScenario {
  const { sweep, stepUp, ...threads } = spec.threads;
  const largest = sweep?.length ? Math.max(...sweep) : stepUp?.max;
  const fixed = threads.perClient !== undefined || threads.perDataNode !== undefined;
  return {
    ...spec,
    threads: fixed || largest === undefined ? threads : { ...threads, perClient: largest },
    targets: undefined,
    capacity: variantSearch(c),
  };
}
