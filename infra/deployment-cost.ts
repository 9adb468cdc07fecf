import type { Plan } from "../model/plan.js";
import { estimateRunDuration } from "../model/plan-duration.js";
import type { Deployment, StorageSpec } from "../model/scenario.js";
import { type CostEstimate, type Egress, estimateCost, estimateRunCost, type RunCostEstimate } from "./cost.js";
import { type LogVolumeSpec, ROOT_VOLUME_GIB } from "./volumes.js";

/** Root volume every instance gets (infra/volumes.ts). */
export const ROOT_GIB = ROOT_VOLUME_GIB;

/**
 * What a deployment costs, before anything exists: per hour (instances, EBS, egress) and for the whole run (the
 * plan's estimated hours, its S3 requests, the NAT gateway's GB). Pure: `ycsb-lab plan --cost` prints it, the stack
 * outputs it. Without an `egress`, the cheaper of the two for this run: public IPv4 costs per instance and hour, a
 * NAT gateway per hour and GB, so a large fleet egresses through NAT at no extra cost.
 */
export function deploymentCost(
  d: Deployment,
  storage: StorageSpec,
  plan: Plan,
  log: LogVolumeSpec = {},
  egress?: Egress,
): DeploymentCost {
  const priced = (e: Egress) => {
    const hourly = estimateCost({
      dataNodes: d.nodes,
      dataInstanceType: d.dataInstanceType,
      clients: d.clients,
      clientInstanceType: d.clientInstanceType,
      dataNodeEbs: [
        { type: "gp3", sizeGiB: ROOT_GIB },
        ...(storage.kind === "ebs"
          ? [
              {
                type: storage.ebsType ?? "gp3",
                sizeGiB: storage.sizeGiB ?? 0,
                ...(storage.iops ? { iops: storage.iops } : {}),
                ...(storage.throughputMiBs ? { throughputMiBs: storage.throughputMiBs } : {}),
              },
            ]
          : []),
        ...(d.ownLogDevice
          ? [
              {
                type: "gp3" as const,
                sizeGiB: log.sizeGiB ?? 100,
                ...(log.iops ? { iops: log.iops } : {}),
                ...(log.throughputMiBs ? { throughputMiBs: log.throughputMiBs } : {}),
              },
            ]
          : []),
      ],
      clientEbsGiB: ROOT_GIB,
      egress: e,
    });
    return { hourly, run: estimateRunCost(hourly, estimateRunDuration(plan), plan) };
  };
  const nat = priced("nat");
  const publicIp = priced("public-ip");
  const chosen = egress ?? (nat.run.usd <= publicIp.run.usd ? "nat" : "public-ip");
  const [mine, other] = chosen === "nat" ? [nat, publicIp] : [publicIp, nat];
  return { ...mine, otherEgress: { egress: other.hourly.egress, runUsd: other.run.usd } };
}

export interface DeploymentCost {
  hourly: CostEstimate;
  run: RunCostEstimate;
  /** The egress not chosen and what the run would cost with it (the price of the switch). */
  otherEgress: { egress: Egress; runUsd: number };
}

/** The estimate as lines for a terminal. */
export function renderCost(c: DeploymentCost, d: Deployment): string[] {
  const usd = (n: number) => `$${n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  const b = c.hourly.breakdown;
  const egress =
    c.hourly.egress === "nat"
      ? `NAT gateway ${usd(b.natGateway)} and its public IPv4 ${usd(b.publicIpv4)}`
      : `public IPv4 ${usd(b.publicIpv4)}`;
  return [
    `cost estimate: ${d.nodes} x ${d.dataInstanceType} + ${d.clients} x ${d.clientInstanceType}, on-demand ${c.hourly.source}, prices of ${c.hourly.pricesAsOf}`,
    `  per hour        ${usd(c.hourly.usdPerHour)}  (data nodes ${usd(b.dataNodes)}, clients ${usd(b.clients)}, EBS ${usd(b.ebs)}, ${egress})`,
    `  the run         ${usd(c.run.usd)}  for about ${c.run.hours} h, S3 requests ${usd(c.run.requests.usd)} (${c.run.requests.put.toLocaleString("en-US")} PUT/LIST, ${c.run.requests.get.toLocaleString("en-US")} GET)${c.run.natProcessing.gb ? `, NAT ${c.run.natProcessing.gb} GB ${usd(c.run.natProcessing.usd)}` : ""}`,
    `  egress          ${c.hourly.egress} (with ${c.otherEgress.egress} the run would cost ${usd(c.otherEgress.runUsd)}; ycsb-lab:egress chooses)`,
    `  left running    ${usd(c.run.usdPerDayIfLeftRunning)} a day (every instance terminates itself at the stack's expiry or maxHours)`,
    ...c.run.assumptions.map((a) => `  assumed: ${a}`),
  ];
}
