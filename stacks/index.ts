import * as pulumi from "@pulumi/pulumi";
import { serviceKit, stackKit } from "./kit.js";
import { dashboardProgram, stackProgram } from "./program.js";
import { stackEngine, stackKind } from "./settings.js";

// The only place that reads pulumi.Config: full keys like "ycsb-lab:nodes" or "aws:region".
const read = (key: string): string | undefined => {
  const [namespace, name] = key.split(":") as [string, string];
  return new pulumi.Config(namespace).get(name);
};

// A stack is a benchmark scenario or the team's dashboard service (ycsb-lab:kind); outputs of the other kind stay unset.
const dashboard = stackKind(read) === "dashboard";
const scenarioOut = dashboard
  ? undefined
  : stackProgram(read, pulumi.getStack(), await stackKit(read, stackEngine(read)));
const serviceOut = dashboard ? dashboardProgram(read, pulumi.getStack(), await serviceKit(read)) : undefined;

export const runId = scenarioOut?.runId;
export const scenario = scenarioOut?.scenario;
export const engine = scenarioOut?.engine;
export const nodes = scenarioOut?.nodes;
export const clients = scenarioOut?.clients;
export const preset = scenarioOut?.preset;
export const dataInstanceType = scenarioOut?.dataInstanceType;
export const clientInstanceType = scenarioOut?.clientInstanceType;
export const endpoints = scenarioOut?.endpoints;
export const resultsPrefix = scenarioOut?.resultsPrefix;
export const planUrl = scenarioOut?.planUrl;
export const readyMarkerUrl = scenarioOut?.readyMarkerUrl;
export const estimatedCostPerHour = scenarioOut?.estimatedCostPerHour;
export const egress = scenarioOut?.egress;
export const costPricesAsOf = scenarioOut?.costPricesAsOf ?? serviceOut?.costPricesAsOf;
export const costSource = scenarioOut?.costSource;
export const kitSha256 = scenarioOut?.kitSha256 ?? serviceOut?.kitSha256;
export const resultsKeptOnDestroy = scenarioOut?.resultsKeptOnDestroy;
export const estimatedRunHours = scenarioOut?.estimatedRunHours;
export const estimatedRunUsd = scenarioOut?.estimatedRunUsd;
export const usdPerDayIfLeftRunning = scenarioOut?.usdPerDayIfLeftRunning;
export const serviceId = serviceOut?.serviceId;
export const dashboardUrl = serviceOut?.dashboardUrl;
export const portForwardCommand = serviceOut?.portForwardCommand;
export const instanceId = serviceOut?.instanceId;
export const writeTokenSecretArn = serviceOut?.writeTokenSecretArn;
export const readTokenSecretArn = serviceOut?.readTokenSecretArn;
export const databaseEndpoint = serviceOut?.databaseEndpoint;
export const serviceBucket = serviceOut?.serviceBucket;
export const importBuckets = serviceOut?.importBuckets;
export const estimatedUsdPerMonth = serviceOut?.estimatedUsdPerMonth;
export const costBreakdownUsdPerMonth = serviceOut?.costBreakdownUsdPerMonth;
