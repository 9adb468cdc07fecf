import { estimateRunDuration } from "../model/plan-duration.js";
import type { Plan } from "../model/plan.js";
import type { Deployment, StorageSpec } from "../model/scenario.js";
import { estimateCost, estimateRunCost, type CostEstimate, type RunCostEstimate } from "./cost.js";
import type { LogVolumeSpec } from "./volumes.js";

/** Root volume every instance gets (infra/instance-role.ts SAFE_INSTANCE_DEFAULTS). */
export const ROOT_GIB = 30;

/**
 * What a deployment costs, before anything exists: per hour (instances, EBS, public IPv4) and for the whole run
 * (the plan's estimated hours and its S3 requests). Pure: `ycsb-lab plan --cost` prints it, the stack outputs it.
 */
export function deploymentCost(d: Deployment, storage: StorageSpec, plan: Plan, log: LogVolumeSpec = {}): { hourly: CostEstimate; run: RunCostEstimate } {
  const hourly = estimateCost({
    dataNodes: d.nodes,
    dataInstanceType: d.dataInstanceType,
    clients: d.clients,
    clientInstanceType: d.clientInstanceType,
    dataNodeEbs: [
      { type: "gp3", sizeGiB: ROOT_GIB },
      ...(storage.kind === "ebs" ? [{ type: storage.ebsType ?? "gp3", sizeGiB: storage.sizeGiB ?? 0 }] : []),
      ...(d.ownLogDevice ? [{ type: "gp3" as const, sizeGiB: log.sizeGiB ?? 100 }] : []),
    ],
    clientEbsGiB: ROOT_GIB,
  });
  return { hourly, run: estimateRunCost(hourly, estimateRunDuration(plan), plan) };
}

/** The estimate as lines for a terminal. */
export function renderCost(c: { hourly: CostEstimate; run: RunCostEstimate }, d: Deployment): string[] {
  const usd = (n: number) => `$${n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  const b = c.hourly.breakdown;
  return [
    `cost estimate: ${d.nodes} x ${d.dataInstanceType} + ${d.clients} x ${d.clientInstanceType}, on-demand ${c.hourly.source}, prices of ${c.hourly.pricesAsOf}`,
    `  per hour        ${usd(c.hourly.usdPerHour)}  (data nodes ${usd(b.dataNodes)}, clients ${usd(b.clients)}, EBS ${usd(b.ebs)}, public IPv4 ${usd(b.publicIpv4)})`,
    `  the run         ${usd(c.run.usd)}  for about ${c.run.hours} h, S3 requests ${usd(c.run.requests.usd)} (${c.run.requests.put.toLocaleString("en-US")} PUT/LIST, ${c.run.requests.get.toLocaleString("en-US")} GET)`,
    `  left running    ${usd(c.run.usdPerDayIfLeftRunning)} a day (every instance terminates itself at the stack's expiry or maxHours)`,
    ...c.run.assumptions.map((a) => `  assumed: ${a}`),
  ];
}
