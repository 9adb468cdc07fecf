/**
 * The kept summaries as the views read them: a stored summary of another shape (a hand edit, a bug) reads as a group
 * with nothing counted, never as a failed view (DESIGN.md: a stored value can never make a view fail).
 */
import { type TSchema, Type } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { LeftOutSchema, OverRepeatsSchema } from "../../../model/api-schemas.js";
import type { ConfigurationSummary, PeakSummary } from "./summaries.js";

const Num = Type.Number();
const NumOrNull = Type.Union([Num, Type.Null()]);
const Latency = Type.Record(
  Type.String(),
  Type.Object({
    count: Num,
    avgUs: NumOrNull,
    p99Us: NumOrNull,
    p99Method: Type.Union([Type.Literal("merged-hdr"), Type.Literal("single-client"), Type.Literal("max-of-clients")]),
  }),
);
const Statistics = Type.Object({
  n: Type.Integer(),
  mean: NumOrNull,
  stdDev: NumOrNull,
  ci95: Type.Union([Type.Object({ low: Num, high: Num, halfWidth: Num }), Type.Null()]),
  coefficientOfVariation: NumOrNull,
  maxDifference: NumOrNull,
  min: NumOrNull,
  max: NumOrNull,
});
const Repeat = Type.Object({
  runId: Type.String(),
  phase: Type.String(),
  runRepeat: Type.Integer(),
  repeat: Type.Integer(),
  throughputOpsSec: Num,
  verdict: Type.String(),
});

const check = <T extends TSchema>(schema: T) => TypeCompiler.Compile(schema);
const configuration = check(
  Type.Object({
    leftOut: LeftOutSchema,
    phases: Type.Array(Type.String()),
    throughput: OverRepeatsSchema,
    runtime: OverRepeatsSchema,
    latency: Latency,
    repeats: Type.Array(Repeat),
    statistics: Statistics,
    verdict: Type.String(),
    suspect: Type.Array(Type.Integer()),
  }),
);
/** The part of a configuration's summary /repeatability reads. */
const repeatsPart = check(Type.Object({ leftOut: LeftOutSchema, repeats: Type.Array(Repeat), statistics: Statistics }));
const peak = check(
  Type.Object({
    leftOut: LeftOutSchema,
    counted: Type.Integer(),
    throughput: OverRepeatsSchema,
    runs: Type.Integer(),
    peakThreads: Type.Array(Type.Integer()),
    latency: Latency,
    verdict: Type.String(),
    suspect: Type.Array(Type.Integer()),
  }),
);

const NOTHING = { n: 0, mean: null, stdDev: null, ci95: null };
const NO_STATISTICS = { ...NOTHING, coefficientOfVariation: null, maxDifference: null, min: null, max: null };
const NO_LEFT_OUT = { invalid: 0, incomplete: 0 };

export function storedConfigurationSummary(v: unknown): ConfigurationSummary {
  return configuration.Check(v)
    ? v
    : {
        leftOut: NO_LEFT_OUT,
        phases: [],
        throughput: NOTHING,
        runtime: NOTHING,
        latency: {},
        repeats: [],
        statistics: NO_STATISTICS,
        verdict: "valid",
        suspect: [],
      };
}

export function storedRepeatsSummary(v: unknown): Pick<ConfigurationSummary, "repeats" | "statistics" | "leftOut"> {
  return repeatsPart.Check(v) ? v : { leftOut: NO_LEFT_OUT, repeats: [], statistics: NO_STATISTICS };
}

export function storedPeakSummary(v: unknown): PeakSummary {
  return peak.Check(v)
    ? v
    : {
        leftOut: NO_LEFT_OUT,
        counted: 0,
        throughput: NOTHING,
        runs: 0,
        peakThreads: [],
        latency: {},
        verdict: "valid",
        suspect: [],
      };
}
