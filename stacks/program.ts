import { BenchmarkScenario } from "../infra/benchmark-scenario.js";
import { stackArgs, type ConfigSource, type StackKit } from "./settings.js";

/** The stack's program: config -> BenchmarkScenario -> outputs. index.ts runs it with pulumi.Config; tests with a stack file. */
export function stackProgram(get: ConfigSource, stackName: string, kit: StackKit, now: Date = new Date()) {
  const args = stackArgs(get, stackName, kit, now);
  const run = new BenchmarkScenario(args.spec.name, args);
  return {
    runId: run.runId,
    scenario: args.spec.name,
    engine: run.deployment.engine,
    nodes: run.deployment.nodes,
    clients: run.deployment.clients,
    preset: run.deployment.preset,
    dataInstanceType: run.deployment.dataInstanceType,
    clientInstanceType: run.deployment.clientInstanceType,
    endpoints: run.endpoints,
    resultsPrefix: run.resultsPrefix,
    planUrl: run.planUrl,
    readyMarkerUrl: run.readyMarkerUrl,
    estimatedCostPerHour: run.estimatedCostPerHour,
    costPricesAsOf: run.cost.pricesAsOf,
    costSource: run.cost.source,
    kitSha256: kit.sha256,
    resultsKeptOnDestroy: run.resultsKeptOnDestroy,
    estimatedRunHours: run.runCost.hours,
    estimatedRunUsd: run.runCost.usd,
    usdPerDayIfLeftRunning: run.runCost.usdPerDayIfLeftRunning,
  };
}
