import { capacityVariant, parseSloText, type VariantChoice } from "../../model/capacity-variant.js";
import {
  buildPlan,
  isEngine,
  isPreset,
  type Plan,
  type PlannableScenario,
  renderPlanTable,
  ScenarioError,
} from "../../model/index.js";
import { localCell } from "../../model/local-cell.js";
import { loadScenario } from "../../runner/scenario-source.js";
import { type Command, InputError, parseCommandArgs, UsageError } from "../command.js";

const usage = `Usage: ycsb-lab plan --scenario <name | file.yaml | file.json> [options]

Turns a scenario into the ordered phases every client runs in lock-step: prepare (client 0), load split
across clients, settle, warm-up, workloads, thread/target sweeps, step-ups (decided at run time), repeats.

Options:
  --scenario S    a built-in scenario (quickstart, datastax-2013, endpoint-2015, lineate-2014,
                  andor-parv-2019, usa-2015-durability) or a YAML/JSON scenario file
  --engine E      cassandra | mongodb | couchbase | hbase   (default: the scenario's)
  --nodes N       data nodes (default: the scenario's)
  --preset P      throughput | balanced | durable            (default: the scenario's)
  --clients N     client count (default: derived from the scenario)
  --scale F       multiply record and operation counts by F in (0, 1] for a cheap trial
  --capacity SLO  the scenario's capacity variant: instead of its sweeps, search the highest total rate that
                  holds the SLO ("READ,UPDATE p99 10ms": operations, percentile, limit), probing the maximum
                  unthrottled, then 50/75/90/105 % of it (each step open loop, judged on intended latency)
  --maximum OPS        with --capacity: the total rate the fractions apply to, ops/s, instead of the probe's
  --error-budget PCT   with --capacity: failed operations allowed, % (default 0.1)
  --fractions LIST     with --capacity: the fixed steps as fractions of the maximum (default 0.5,0.75,0.9,1.05)
  --resolution OPS     with --capacity: then bisect until passing and breaking targets are this close, ops/s
  --max-steps N        with --capacity: candidate steps in the plan (default: the probe unless --maximum, the
                       fixed steps, 4 halvings with --resolution)
  --format F      table | json (default: json for -o FILE.json, else table)
  -o, --out FILE  write the plan there instead of stdout; FILE.json is the JSON \`ycsb-lab run --plan\` reads
  --cost          print what the deployment costs on AWS before anything exists, above the phases: per hour (instances, EBS,
                  egress), for the whole run (estimated hours, S3 requests) and per day left running (with a JSON
                  plan file, on stdout: the file holds the plan alone)
  --deployer-policy
                  print the least-privilege IAM policy (JSON) of whoever runs pulumi up / destroy of the
                  scenario's stack, instead of the plan (--region, --account and --stack scope it), the
                  preview's lookups included (zone offerings and Spot placement scores, the vCPU quota)
  --region R      with --deployer-policy: the stack's region (default us-east-1)
  --account A     with --deployer-policy: the AWS account id (default *: any)
  --stack S       with --deployer-policy: the Pulumi stack's name (default: the scenario's)
`;

/** Options shared by `plan` and `local run`: which cell of which scenario. */
export const PLAN_OPTIONS = {
  scenario: { type: "string" },
  engine: { type: "string" },
  nodes: { type: "string" },
  preset: { type: "string" },
  clients: { type: "string" },
  scale: { type: "string" },
} as const;

function num(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new UsageError(`--${name}: not a number: "${value}"`);
  return n;
}

/** A scenario on one machine (model/local-cell.ts): fixed threads per client and a total target, ops/s. */
export interface LocalCellChoice {
  threadsPerClient?: number;
  targetOpsSec?: number;
}

/**
 * Build the plan the options describe; a bad scenario file is an InputError, a bad cell a UsageError. With `local`
 * threads, the scenario runs as a local cell of itself (its name kept: its runs belong to its study).
 */
export async function planFromOptions(
  values: Partial<Record<keyof typeof PLAN_OPTIONS, string>>,
  local: LocalCellChoice = {},
  capacity?: VariantChoice,
): Promise<Plan> {
  if (!values.scenario) throw new UsageError("--scenario is required");
  if (values.engine !== undefined && !isEngine(values.engine))
    throw new UsageError(`--engine: unknown engine "${values.engine}"`);
  if (values.preset !== undefined && !isPreset(values.preset))
    throw new UsageError(`--preset: unknown preset "${values.preset}"`);
  let spec: PlannableScenario;
  try {
    spec = await loadScenario(values.scenario);
  } catch (err) {
    throw new InputError((err as Error).message);
  }
  if (local.threadsPerClient !== undefined) {
    const scale = num("scale", values.scale) ?? 1;
    try {
      spec = localCell(spec, { scale, threadsPerClient: local.threadsPerClient, targetOpsSec: local.targetOpsSec });
    } catch (err) {
      throw new UsageError(`--threads/--target: ${(err as Error).message}`);
    }
  }
  if (capacity) spec = capacityVariant(spec, capacity);
  try {
    return buildPlan(spec, {
      engine: values.engine as never,
      preset: values.preset as never,
      nodes: num("nodes", values.nodes),
      clients: num("clients", values.clients),
      scale: num("scale", values.scale),
    });
  } catch (err) {
    if (err instanceof ScenarioError) throw new UsageError(`--${err.field.split(".")[0]}: ${err.message}`);
    throw err;
  }
}

/** The capacity variant's options, shared by `plan`, `local run` and `start`. */
export const CAPACITY_OPTIONS = {
  capacity: { type: "string" },
  maximum: { type: "string" },
  "error-budget": { type: "string" },
  fractions: { type: "string" },
  resolution: { type: "string" },
  "max-steps": { type: "string" },
} as const;

/** The capacity options as parsed (CAPACITY_OPTIONS). */
export interface CapacityFlags {
  capacity?: string;
  maximum?: string;
  "error-budget"?: string;
  fractions?: string;
  resolution?: string;
  "max-steps"?: string;
}

/** The capacity variant the options ask for; the search's own checks (model/capacity-search.ts) run in buildPlan. */
export function capacityChoice(flags: CapacityFlags): VariantChoice | undefined {
  const o = flags;
  if (o.capacity === undefined) {
    const stray = Object.keys(CAPACITY_OPTIONS).find((k) => flags[k as keyof CapacityFlags] !== undefined);
    if (stray) throw new UsageError(`--${stray}: only with --capacity`);
    return undefined;
  }
  let slo: ReturnType<typeof parseSloText>;
  try {
    slo = parseSloText(o.capacity, num("error-budget", o["error-budget"]));
  } catch (err) {
    throw new UsageError(`--capacity: ${(err as Error).message}`);
  }
  const fractions = o.fractions?.split(",").map((f) => num("fractions", f.trim())!);
  return {
    slo,
    ...(o.maximum !== undefined ? { maximumOpsSec: num("maximum", o.maximum)! } : {}),
    ...(fractions ? { fractions } : {}),
    ...(o.resolution !== undefined ? { resolutionOpsSec: num("resolution", o.resolution)! } : {}),
    ...(o["max-steps"] !== undefined ? { maxSteps: num("max-steps", o["max-steps"])! } : {}),
  };
}

export const command: Command = {
  name: "plan",
  summary: "Turn a scenario into the ordered, lock-step plan of YCSB phases",
  usage,
  async run(args) {
    const parsed = parseCommandArgs({
      args,
      options: {
        ...PLAN_OPTIONS,
        format: { type: "string" },
        out: { type: "string", short: "o" },
        cost: { type: "boolean" },
        ...CAPACITY_OPTIONS,
        "deployer-policy": { type: "boolean" },
        region: { type: "string" },
        account: { type: "string" },
        stack: { type: "string" },
      },
      strict: true,
    });
    const { out, cost, "deployer-policy": deployer, region, account, stack, ...withCapacity } = parsed.values;
    const {
      capacity,
      maximum,
      "error-budget": budget,
      fractions,
      resolution,
      "max-steps": maxSteps,
      ...rest
    } = withCapacity;
    const flags: CapacityFlags = {
      capacity,
      maximum,
      "error-budget": budget,
      fractions,
      resolution,
      "max-steps": maxSteps,
    };
    // A FILE.json is for `ycsb-lab run --plan`: JSON unless a table is asked for; any other file a table.
    const { format = out?.endsWith(".json") ? "json" : "table", ...cell } = rest;
    if (format !== "table" && format !== "json") throw new UsageError(`--format: "table" or "json", got "${format}"`);
    const plan = await planFromOptions(cell, {}, capacityChoice(flags));
    if (deployer) {
      if (region !== undefined && !/^[a-z]{2}(-[a-z]+)+-\d$/.test(region))
        throw new UsageError(`--region: an AWS region like "us-east-1", got "${region}"`);
      if (account !== undefined && !/^\d{12}$/.test(account))
        throw new UsageError(`--account: a 12-digit AWS account id, got "${account}"`);
      const { deployerPolicy } = await import("../../infra/deployer-policy.js");
      const policy = deployerPolicy({
        account: account ?? "*",
        region: region ?? "us-east-1",
        name: plan.scenario,
        stack: stack ?? plan.scenario,
      });
      process.stdout.write(`${JSON.stringify(policy, null, 2)}\n`);
      return 0;
    }
    const planText = format === "json" ? `${JSON.stringify(plan, null, 2)}\n` : renderPlanTable(plan);
    let costLines: string | undefined;
    let costJson: string | undefined;
    if (cost) {
      const spec = await loadScenario(cell.scenario!);
      const { deploymentCost, renderCost } = await import("../../infra/deployment-cost.js");
      const c = deploymentCost(plan.deployment, spec.dataNode.storage, plan);
      costLines = `${renderCost(c, plan.deployment).join("\n")}\n`;
      costJson = `${JSON.stringify({ plan, cost: c }, null, 2)}\n`;
    }
    // The cost above a table (a long plan does not push it off the screen); a JSON plan file holds the plan alone.
    const text =
      format === "table" && costLines
        ? `${costLines}\n${planText}`
        : format === "json" && costJson && !out
          ? costJson
          : planText;
    if (out) {
      const { writeFile } = await import("node:fs/promises");
      await writeFile(out, text);
      if (format === "json" && costLines) process.stdout.write(costLines);
    } else process.stdout.write(text);
    return 0;
  },
};
