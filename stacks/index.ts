import * as pulumi from "@pulumi/pulumi";
import { stackKit } from "./kit.js";
import { stackProgram } from "./program.js";
import { stackEngine } from "./settings.js";

// The only place that reads pulumi.Config: full keys like "ycsb-lab:nodes" or "aws:region".
const read = (key: string): string | undefined => {
  const [namespace, name] = key.split(":") as [string, string];
  return new pulumi.Config(namespace).get(name);
};

const kit = await stackKit(read, stackEngine(read));
const out = stackProgram(read, pulumi.getStack(), kit);

export const runId = out.runId;
export const scenario = out.scenario;
export const engine = out.engine;
export const nodes = out.nodes;
export const clients = out.clients;
export const preset = out.preset;
export const dataInstanceType = out.dataInstanceType;
export const clientInstanceType = out.clientInstanceType;
export const endpoints = out.endpoints;
export const resultsPrefix = out.resultsPrefix;
export const planUrl = out.planUrl;
export const readyMarkerUrl = out.readyMarkerUrl;
export const estimatedCostPerHour = out.estimatedCostPerHour;
export const costPricesAsOf = out.costPricesAsOf;
export const costSource = out.costSource;
export const kitSha256 = out.kitSha256;
export const resultsKeptOnDestroy = out.resultsKeptOnDestroy;
export const estimatedRunHours = out.estimatedRunHours;
export const estimatedRunUsd = out.estimatedRunUsd;
export const usdPerDayIfLeftRunning = out.usdPerDayIfLeftRunning;
