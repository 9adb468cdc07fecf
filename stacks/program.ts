import { BenchmarkScenario } from "../infra/benchmark-scenario.js";
import { DashboardService } from "../infra/dashboard-service.js";
import { type ConfigSource, dashboardArgs, type StackKit, stackArgs } from "./settings.js";

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
    egress: run.cost.egress,
    costPricesAsOf: run.cost.pricesAsOf,
    costSource: run.cost.source,
    kitSha256: kit.sha256,
    resultsKeptOnDestroy: run.resultsKeptOnDestroy,
    estimatedRunHours: run.runCost.hours,
    estimatedRunUsd: run.runCost.usd,
    usdPerDayIfLeftRunning: run.runCost.usdPerDayIfLeftRunning,
  };
}

/** The dashboard stack's program (`ycsb-lab:kind: dashboard`): config -> DashboardService -> outputs. */
export function dashboardProgram(get: ConfigSource, stackName: string, kit: StackKit) {
  const args = dashboardArgs(get, stackName, kit);
  const service = new DashboardService(args.serviceId, args);
  return {
    serviceId: service.serviceId,
    dashboardUrl: service.url,
    portForwardCommand: service.portForwardCommand,
    instanceId: service.instanceId,
    writeTokenSecretArn: service.writeTokenSecretArn,
    ...(service.readTokenSecretArn ? { readTokenSecretArn: service.readTokenSecretArn } : {}),
    databaseEndpoint: service.databaseEndpoint,
    serviceBucket: service.bucketName,
    importBuckets: (args.importBuckets ?? []).map((b) => (typeof b === "string" ? b : `${b.bucket}/${b.prefix ?? ""}`)),
    estimatedUsdPerMonth: service.cost.usdPerMonth,
    costBreakdownUsdPerMonth: service.cost.breakdown,
    costPricesAsOf: service.cost.pricesAsOf,
    kitSha256: kit.sha256,
  };
}
