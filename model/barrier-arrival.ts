import { type Static, Type } from "@sinclair/typebox";
import { schemaProblems } from "./plan-schema.js";

/**
 * What a client writes at a barrier (runner/barrier.ts) and every other client reads from the results store: it
 * crosses processes and machines, so it is checked where it is read.
 */
export const ArrivalSchema = Type.Object({
  client: Type.Integer({ minimum: 0 }),
  arrivedAt: Type.String({ minLength: 1 }),
  /** "aborted": the client gave up; peers stop at once instead of waiting for the timeout. */
  status: Type.Union([Type.Literal("ready"), Type.Literal("aborted")]),
  reason: Type.Optional(Type.String()),
  /** Throughput this client reached per finished step-up phase (phase index -> ops/s), for run-time decisions. */
  stepOutcomes: Type.Record(Type.String(), Type.Number()),
});

export type Arrival = Static<typeof ArrivalSchema>;

/** Parses and checks an arrival; the error names the object (`where`) and the field. */
export function parseArrival(text: string, where: string): Arrival {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`${where}: not JSON: ${(err as Error).message}`);
  }
  const problems = schemaProblems(ArrivalSchema, value);
  if (problems.length) throw new Error(`${where}: not a barrier arrival: ${problems.join("; ")}`);
  return value as Arrival;
}
