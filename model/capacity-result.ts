import { type Static, Type } from "@sinclair/typebox";
import {
  type CapacitySearch,
  capacityOutcome,
  describeBreach,
  type JudgedStep,
  judged,
  type StepRole,
} from "./capacity-search.js";
import { type StepClient, stepMeasurement } from "./capacity-step.js";
import { INSTANCE_TYPES, PRICE_SOURCE, PRICES_AS_OF } from "./instance-types.js";
import { LOCAL_RUN_NO_PRICE, pricePerformance, spansCost, type TypedSpan } from "./run-cost.js";

/**
 * The answer of one capacity search (a run's capacity group): the sustainable throughput (the highest passing
 * step), the step that broke and why, every step's op and intended percentiles, and the price next to it. Built from
 * the steps' result documents (or the same facts as the store keeps them), so the runner and the API say the same.
 */
const Ms = Type.Union([Type.Number(), Type.Null()]);

export const CapacityLadderStepSchema = Type.Object({
  step: Type.Integer({ minimum: 0 }),
  role: Type.Union([Type.Literal("probe"), Type.Literal("ladder"), Type.Literal("bisect")]),
  /** Total target over the clients, ops/s; null for the unthrottled probe. */
  target: Type.Union([Type.Number(), Type.Null()]),
  achievedOpsSec: Type.Number(),
  pass: Type.Boolean(),
  /** Each breach in the domain's words (model/capacity-search.ts describeBreach); empty for a passing step. */
  breaches: Type.Array(Type.String()),
  operations: Type.Array(
    Type.Object({
      operation: Type.String(),
      count: Type.Number(),
      failed: Type.Number(),
      /** The SLO's percentile of service time and of intended latency, ms (null without a merged histogram). */
      opMs: Ms,
      intendedMs: Ms,
    }),
  ),
});
export type CapacityLadderStep = Static<typeof CapacityLadderStepSchema>;

export const CapacityPriceSchema = Type.Union([
  Type.Object({
    priced: Type.Literal(true),
    /** USD per hour of the data instances under test (model/instance-types.ts prices). */
    usdPerHour: Type.Number(),
    /** "realized": from the instances' boot status markers (model/run-cost.ts spansCost); "on-demand": nodes x price. */
    basis: Type.Union([Type.Literal("realized"), Type.Literal("on-demand")]),
    opsPerSecPerUsdHour: Type.Union([Type.Number(), Type.Null()]),
    usdPerMillionOps: Type.Union([Type.Number(), Type.Null()]),
    pricesAsOf: Type.String(),
    source: Type.String(),
  }),
  Type.Object({ priced: Type.Literal(false), statement: Type.String() }),
]);
export type CapacityPrice = Static<typeof CapacityPriceSchema>;

export const CapacitySloSchema = Type.Object({
  operations: Type.Array(Type.String()),
  percentile: Type.Number(),
  limitMs: Type.Number(),
  errorBudgetPct: Type.Number(),
});

export const CapacityResultSchema = Type.Object({
  group: Type.String(),
  slo: CapacitySloSchema,
  /** The highest passing step's achieved rate, ops/s; 0 when none passed. */
  sustainableOpsSec: Type.Number(),
  heldStep: Type.Union([Type.Integer(), Type.Null()]),
  /** The lowest breaking step above the held one, with why it broke; null when nothing above it broke. */
  broke: Type.Union([
    Type.Object({ step: Type.Integer(), target: Type.Number(), breaches: Type.Array(Type.String()) }),
    Type.Null(),
  ]),
  steps: Type.Array(CapacityLadderStepSchema),
  price: CapacityPriceSchema,
});
export type CapacityResult = Static<typeof CapacityResultSchema>;

/** One step as stored: its number, role and decided total target, and every client's result of it. */
export interface StoredStep {
  step: number;
  role: StepRole;
  target: number | null;
  clients: readonly StepClient[];
}

/** The steps judged in order, on the fleet's merged histograms. */
export function judgeSteps(search: CapacitySearch, steps: readonly StoredStep[]): JudgedStep[] {
  return [...steps]
    .sort((a, b) => a.step - b.step)
    .map((s) => judged(search, s.step, s.role, stepMeasurement(search, s.clients, s.target ?? undefined)));
}

export type ConfigurationPrice = { usdPerHour: number; basis: "realized" | "on-demand" } | { statement: string };

/**
 * USD per hour of the configuration under test: realized from its data instances' boot status markers when the run
 * has them (model/run-cost.ts spansCost), else its data nodes at the on-demand price of their type. A run on this
 * machine ("local") rented nothing; a type without a price (retired) cannot be priced: both say so.
 */
export function configurationPrice(
  dataInstanceType: string,
  nodes: number,
  spans: readonly TypedSpan[] = [],
): ConfigurationPrice {
  if (dataInstanceType === "local") return { statement: LOCAL_RUN_NO_PRICE };
  const data = spans.filter((s) => s.role === "data");
  const realized = data.length > 0 ? spansCost(data) : undefined;
  if (realized && "statement" in realized) return realized;
  if (realized?.configurationUsdPerHour) return { usdPerHour: realized.configurationUsdPerHour, basis: "realized" };
  const price = INSTANCE_TYPES[dataInstanceType]?.usdPerHour;
  if (price === undefined)
    return { statement: `no price for instance type "${dataInstanceType}" in model/instance-types.ts` };
  return { usdPerHour: nodes * price, basis: "on-demand" };
}

/** The price next to a sustainable throughput ($/hour, ops/s per dollar-hour, $ per million operations). */
export function capacityPrice(sustainableOpsSec: number, price: ConfigurationPrice): CapacityPrice {
  if ("statement" in price) return { priced: false, statement: price.statement };
  const pp = pricePerformance(sustainableOpsSec, price.usdPerHour);
  return {
    priced: true,
    usdPerHour: price.usdPerHour,
    basis: price.basis,
    opsPerSecPerUsdHour: pp?.opsPerSecPerUsdHour ?? null,
    usdPerMillionOps: pp?.usdPerMillionOps ?? null,
    pricesAsOf: PRICES_AS_OF,
    source: PRICE_SOURCE,
  };
}

/** A finished search's result from its judged steps. */
export function capacityResult(
  group: string,
  search: CapacitySearch,
  steps: readonly JudgedStep[],
  price: ConfigurationPrice,
): CapacityResult {
  const outcome = capacityOutcome(steps);
  const words = (st: JudgedStep) => st.breaches.map((b) => describeBreach(b, search.slo.percentile));
  return {
    group,
    slo: search.slo,
    sustainableOpsSec: outcome.sustainableOpsSec,
    heldStep: outcome.held?.step ?? null,
    broke: outcome.broke
      ? { step: outcome.broke.step, target: outcome.broke.target!, breaches: words(outcome.broke) }
      : null,
    steps: steps.map((st) => ({
      step: st.step,
      role: st.role,
      target: st.target ?? null,
      achievedOpsSec: st.achievedOpsSec,
      pass: st.pass,
      breaches: words(st),
      operations: Object.entries(st.operations)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([operation, o]) => ({ operation, ...o })),
    })),
    price: capacityPrice(outcome.sustainableOpsSec, price),
  };
}
