import { Type } from "@sinclair/typebox";

/** The shapes of model/capacity-search.ts as they cross processes: in a plan and in a result document. */
export const StepRoleSchema = Type.Union([Type.Literal("probe"), Type.Literal("ladder"), Type.Literal("bisect")]);

/** CapacitySearch; its ranges are checked by searchProblems where a plan is built. */
export const CapacitySearchSchema = Type.Object({
  slo: Type.Object({
    operations: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 64 }),
    percentile: Type.Number(),
    limitMs: Type.Number(),
    errorBudgetPct: Type.Number(),
  }),
  maximumOpsSec: Type.Optional(Type.Number()),
  fractions: Type.Optional(Type.Array(Type.Number(), { maxItems: 1000 })),
  resolutionOpsSec: Type.Optional(Type.Number()),
  achievedShare: Type.Optional(Type.Number()),
  maxSteps: Type.Integer({ minimum: 1, maximum: 1000 }),
});

/** A step of a search as a phase carries it. */
export const CapacityStepSchema = Type.Object({
  group: Type.String({ minLength: 1, maxLength: 200 }),
  step: Type.Integer({ minimum: 0, maximum: 1000 }),
  search: CapacitySearchSchema,
  role: Type.Optional(StepRoleSchema),
});
