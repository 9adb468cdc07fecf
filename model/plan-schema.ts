import { type Static, type TLiteral, type TSchema, type TUnion, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { CapacityStepSchema } from "./capacity-schema.js";
import { ENGINES } from "./engine.js";
import { PLAN_VERSION, type Plan, type PlanPhase } from "./plan.js";
import { PRESETS } from "./presets.js";
import { type Deployment, RESET_POINTS } from "./scenario.js";

/**
 * The schema of a plan file (`ycsb-lab plan` writes it; `ycsb-lab run --plan` and the boot command read it from a
 * file or the run's S3 prefix): a plan crosses a process, so it is checked where it is read, never cast. The type
 * checks below keep it and the Plan interface (model/plan.ts) the same shape.
 */
const oneOf = <T extends readonly string[]>(values: T) =>
  Type.Union(values.map((v) => Type.Literal(v))) as unknown as TUnion<TLiteral<T[number]>[]>;
const Count = Type.Integer({ minimum: 0 });
const Positive = Type.Integer({ minimum: 1 });
const Properties = Type.Record(Type.String(), Type.String());
const PresetSchema = oneOf(PRESETS);

const StudySchema = Type.Object({
  cassandra: Type.Optional(
    Type.Partial(
      Type.Object({
        durableWrites: Type.Boolean(),
        commitlogSync: oneOf(["periodic", "batch", "group"] as const),
        commitlogSyncPeriodMs: Type.Number(),
        commitlogSyncGroupWindowMs: Type.Number(),
        commitlogOwnVolume: Type.Boolean(),
        tableCompaction: oneOf([
          "LeveledCompactionStrategy",
          "SizeTieredCompactionStrategy",
          "UnifiedCompactionStrategy",
        ] as const),
      }),
    ),
  ),
  hbaseSplit: Type.Optional(
    Type.Object({ algorithm: oneOf(["HexStringSplit", "ycsb-keys"] as const), regionsPerNode: Positive }),
  ),
});

export const DeploymentSchema = Type.Object({
  scenario: Type.String({ minLength: 1 }),
  engine: oneOf(ENGINES),
  nodes: Positive,
  preset: PresetSchema,
  loadPreset: PresetSchema,
  clients: Positive,
  replication: Positive,
  recordCount: Positive,
  recordBytes: Positive,
  fieldCount: Positive,
  fieldLengthBytes: Positive,
  threadsPerClient: Positive,
  loadThreadsPerClient: Positive,
  scale: Type.Number({ exclusiveMinimum: 0 }),
  dataInstanceType: Type.String(),
  clientInstanceType: Type.String(),
  study: StudySchema,
  ownLogDevice: Type.Boolean(),
  presetNote: Type.Optional(Type.String()),
});

export const PlanPhaseSchema = Type.Object({
  index: Count,
  name: Type.String({ minLength: 1 }),
  kind: oneOf(["prepare", "load", "settle", "reset", "warmup", "workload"] as const),
  clientsActive: Type.Union([Type.Literal("all"), Type.Array(Count)]),
  workload: Type.Optional(Type.String()),
  preset: Type.Optional(PresetSchema),
  properties: Properties,
  perClient: Type.Array(Properties),
  threadsPerClient: Positive,
  targetPerClient: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
  target: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
  operationCount: Type.Optional(Count),
  operationCountPer: Type.Optional(oneOf(["client", "total"] as const)),
  maxExecutionTimeSec: Type.Optional(Positive),
  warmupSec: Type.Optional(Positive),
  repeat: Count,
  settle: Type.Optional(
    Type.Object({
      waitForCompactions: Type.Boolean(),
      waitForRebalance: Type.Optional(Type.Boolean()),
      minSec: Type.Number({ minimum: 0 }),
    }),
  ),
  serverPreset: Type.Optional(PresetSchema),
  reset: Type.Optional(
    Type.Object({
      wipeData: Type.Boolean(),
      restartServer: Type.Boolean(),
      dropCaches: Type.Boolean(),
      source: Type.String(),
      point: oneOf(RESET_POINTS),
    }),
  ),
  stepUp: Type.Optional(Type.Object({ group: Type.String(), step: Count, minGainPct: Type.Number() })),
  capacity: Type.Optional(CapacityStepSchema),
  discard: Type.Optional(Type.Boolean()),
});

export const PlanSchema = Type.Object({
  planVersion: Type.Literal(PLAN_VERSION),
  scenario: Type.String({ minLength: 1 }),
  deployment: DeploymentSchema,
  phases: Type.Array(PlanPhaseSchema, { minItems: 1 }),
});

// The schema and the interface say the same: either changing alone fails the type check.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const planShapesAgree: Same<Static<typeof PlanSchema>, Plan> = true;
// Optional fields too: a field added to the interface alone would otherwise pass unchecked.
const phaseFieldsAgree: Same<keyof Static<typeof PlanPhaseSchema>, keyof PlanPhase> = true;
const deploymentFieldsAgree: Same<keyof Static<typeof DeploymentSchema>, keyof Deployment> = true;
void [planShapesAgree, phaseFieldsAgree, deploymentFieldsAgree];

/** A plan file that is not a plan: every problem names its field, as `/phases/3/threadsPerClient: Expected integer`. */
export class PlanError extends Error {}

/** The problems of a value against a schema, each naming its field (at most `max`). */
export function schemaProblems(schema: TSchema, value: unknown, max = 5): string[] {
  return [...Value.Errors(schema, value)].slice(0, max).map((e) => `${e.path || "/"}: ${e.message}`);
}

/** Parses and checks a plan's JSON text; `where` names the file or S3 key in the error. */
export function parsePlan(text: string, where: string): Plan {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new PlanError(`${where}: not JSON: ${(err as Error).message}`);
  }
  const version = (value as { planVersion?: unknown } | null)?.planVersion;
  if (version !== PLAN_VERSION) {
    throw new PlanError(`${where}: not a ycsb-lab plan (planVersion ${PLAN_VERSION}, got ${JSON.stringify(version)})`);
  }
  const problems = schemaProblems(PlanSchema, value);
  if (problems.length) throw new PlanError(`${where}: not a valid plan: ${problems.join("; ")}`);
  const plan = value as Plan;
  const misplaced = plan.phases.findIndex((p, i) => p.index !== i);
  if (misplaced >= 0)
    throw new PlanError(
      `${where}: /phases/${misplaced}/index: is ${plan.phases[misplaced]!.index}, its position is ${misplaced}`,
    );
  return plan;
}
