import { type Static, Type } from "@sinclair/typebox";
import { schemaProblems } from "./plan-schema.js";

/**
 * A capacity step's decision (runner/capacity-decision.ts): client 0 writes it once the previous step's results are
 * in the store, every client reads it before starting the step, so the fleet runs each step at the same target.
 */
export const CapacityDecisionSchema = Type.Object({
  group: Type.String({ minLength: 1 }),
  step: Type.Integer({ minimum: 0 }),
  run: Type.Boolean(),
  role: Type.Optional(Type.Union([Type.Literal("probe"), Type.Literal("ladder"), Type.Literal("bisect")])),
  /** Total target over the clients, ops/s; absent for the unthrottled probe and for a step not run. */
  target: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
  /** Why the search stopped here. */
  reason: Type.Optional(Type.String()),
  decidedBy: Type.Integer({ minimum: 0 }),
  decidedAt: Type.String({ minLength: 1 }),
});

export type CapacityDecision = Static<typeof CapacityDecisionSchema>;

/** Parses and checks a decision; the error names the object (`where`) and the field. */
export function parseCapacityDecision(text: string, where: string): CapacityDecision {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`${where}: not JSON: ${(err as Error).message}`);
  }
  const problems = schemaProblems(CapacityDecisionSchema, value);
  if (problems.length) throw new Error(`${where}: not a capacity decision: ${problems.join("; ")}`);
  return value as CapacityDecision;
}
