import type { BilledVolume } from "../model/instance-billing.js";
import {
  EBS_GP3_USD_PER_GB_MONTH,
  HOURS_PER_MONTH,
  INSTANCE_TYPES,
  PRICE_SOURCE,
  PRICES_AS_OF,
  PUBLIC_IPV4_USD_PER_HOUR,
  S3_GET_USD_PER_1000,
  S3_PUT_LIST_USD_PER_1000,
} from "../model/instance-types.js";
import type { Plan } from "../model/plan.js";
import type { RunDuration } from "../model/plan-duration.js";
import { volumeUsdPerHour } from "../model/run-cost.js";
import {
  ALB_LCU_USD_PER_HOUR,
  ALB_USD_PER_HOUR,
  NAT_GATEWAY_USD_PER_GB,
  NAT_GATEWAY_USD_PER_HOUR,
  RDS_GP3_USD_PER_GB_MONTH,
  RDS_POSTGRES_USD_PER_HOUR,
  SECRET_USD_PER_MONTH,
  SERVICE_INSTANCE_USD_PER_HOUR,
} from "../model/service-prices.js";

export interface CostInput {
  dataNodes: number;
  dataInstanceType: string;
  clients: number;
  clientInstanceType: string;
  /** EBS per data node (data + log + root): type, GiB, and the IOPS and throughput provisioned. */
  dataNodeEbs: BilledVolume[];
  clientEbsGiB: number;
  /** How instances reach the internet (infra/network.ts). @default "public-ip" */
  egress?: Egress;
}

/** "public-ip": an address per instance; "nat": one NAT gateway (and its address), instances without any. */
export type Egress = "public-ip" | "nat";

/**
 * What instances download from the internet, assumed for the NAT gateway's per-GB price: OS packages, Node.js and the
 * AWS CLI (about 0.5 GB each) and the leader's engine download (about 1 GB); the kit and the mirrored engine come
 * from S3 over the gateway endpoint, which the NAT gateway never sees.
 */
export const INTERNET_GB_PER_INSTANCE = 0.5;
export const ENGINE_DOWNLOAD_GB = 1;

export interface CostEstimate {
  usdPerHour: number;
  breakdown: { dataNodes: number; clients: number; ebs: number; publicIpv4: number; natGateway: number };
  egress: Egress;
  pricesAsOf: string;
  source: string;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/**
 * On-demand estimate from the price table in model/instance-types.ts (us-east-1, Linux; transfer not counted), EBS
 * priced as the realized cost prices it (model/run-cost.ts volumeUsdPerHour: IOPS and throughput beyond the included).
 */
export function estimateCost(c: CostInput): CostEstimate {
  const price = (name: string) => {
    const p = INSTANCE_TYPES[name]?.usdPerHour;
    if (p === undefined) throw new Error(`instanceType: no price for "${name}" in model/instance-types.ts`);
    return p;
  };
  const dataNodes = c.dataNodes * price(c.dataInstanceType);
  const clients = c.clients * price(c.clientInstanceType);
  const ebs =
    c.dataNodes * c.dataNodeEbs.reduce((sum, v) => sum + volumeUsdPerHour(v), 0) +
    c.clients * volumeUsdPerHour({ type: "gp3", sizeGiB: c.clientEbsGiB });
  // An address per instance for its downloads, or one NAT gateway with one address for all (infra/network.ts).
  const egress = c.egress ?? "public-ip";
  const publicIpv4 = (egress === "nat" ? 1 : c.dataNodes + c.clients) * PUBLIC_IPV4_USD_PER_HOUR;
  const natGateway = egress === "nat" ? NAT_GATEWAY_USD_PER_HOUR : 0;
  return {
    usdPerHour: round(dataNodes + clients + ebs + publicIpv4 + natGateway),
    breakdown: {
      dataNodes: round(dataNodes),
      clients: round(clients),
      ebs: round(ebs),
      publicIpv4: round(publicIpv4),
      natGateway: round(natGateway),
    },
    egress,
    pricesAsOf: PRICES_AS_OF,
    source: PRICE_SOURCE,
  };
}

/** The whole run's cost: the fleet for the plan's estimated hours plus the run's S3 requests. */
export interface RunCostEstimate {
  hours: number;
  usd: number;
  /** What the fleet costs for every day it is left running (the reason for the lifetime brake). */
  usdPerDayIfLeftRunning: number;
  requests: { put: number; get: number; usd: number };
  /** GB through the NAT gateway and what they cost (0 with public addresses). */
  natProcessing: { gb: number; usd: number };
  assumptions: string[];
}

/**
 * S3 requests of a run, estimated: per client and YCSB phase, its uploads (result, outputs, HDR logs, barrier,
 * status) and barrier polling (every 0.5 s, about 10 s of waiting assumed); every data node polls its command object
 * every 3 s, and while none is there each poll is a GET answered 403 and a LIST under the key (a role without an
 * unconditional s3:ListBucket: runner/results-store-s3.ts), the LIST priced like a PUT.
 */
export function estimateRunCost(hourly: CostEstimate, duration: RunDuration, plan: Plan): RunCostEstimate {
  const clients = plan.deployment.clients;
  const nodes = plan.deployment.nodes;
  const clientPhases =
    clients * plan.phases.filter((p) => p.kind === "load" || p.kind === "warmup" || p.kind === "workload").length;
  const nodePolls = Math.round(nodes * duration.hours * 1200);
  const put = clientPhases * 10 + nodes * 10 + clientPhases * 20 + nodePolls;
  const get = clientPhases * (clients + 4) + nodePolls;
  const requestsUsd = (put / 1000) * S3_PUT_LIST_USD_PER_1000 + (get / 1000) * S3_GET_USD_PER_1000;
  const natGb = hourly.egress === "nat" ? (nodes + clients) * INTERNET_GB_PER_INSTANCE + ENGINE_DOWNLOAD_GB : 0;
  const natUsd = natGb * NAT_GATEWAY_USD_PER_GB;
  return {
    hours: duration.hours,
    usd: round(hourly.usdPerHour * duration.hours + requestsUsd + natUsd),
    usdPerDayIfLeftRunning: round(hourly.usdPerHour * 24),
    requests: { put, get, usd: round(requestsUsd) },
    natProcessing: { gb: natGb, usd: round(natUsd) },
    assumptions: [
      ...duration.assumptions,
      "on-demand prices (Spot is cheaper, not estimated); data transfer inside the region not counted",
    ],
  };
}

export interface DashboardCostInput {
  instanceType: string;
  rootVolumeGiB: number;
  dbInstanceClass: string;
  dbStorageGiB: number;
  multiAz: boolean;
  /** "nat": a NAT gateway (and its public IPv4) gives the private instance its egress; "public-ip": the instance's own address. */
  egress: "nat" | "public-ip";
  loadBalancer: boolean;
  secrets: number;
}

export interface DashboardCostEstimate {
  usdPerMonth: number;
  breakdown: {
    instance: number;
    ebs: number;
    database: number;
    databaseStorage: number;
    egress: number;
    loadBalancer: number;
    secrets: number;
  };
  pricesAsOf: string;
  assumptions: string[];
}

/** What the dashboard service costs per month while it runs (model/service-prices.ts; us-east-1, on-demand). */
export function estimateDashboardCost(c: DashboardCostInput): DashboardCostEstimate {
  const hourly = (table: Record<string, number>, name: string, field: string) => {
    const p = table[name];
    if (p === undefined)
      throw new Error(
        `${field}: no price for "${name}" in model/service-prices.ts (known: ${Object.keys(table).join(", ")})`,
      );
    return p;
  };
  const m = (usdPerHour: number) => usdPerHour * HOURS_PER_MONTH;
  const breakdown = {
    instance: round(m(hourly(SERVICE_INSTANCE_USD_PER_HOUR, c.instanceType, "instanceType"))),
    ebs: round(c.rootVolumeGiB * EBS_GP3_USD_PER_GB_MONTH),
    database: round(
      m(hourly(RDS_POSTGRES_USD_PER_HOUR, c.dbInstanceClass, "database.instanceClass")) * (c.multiAz ? 2 : 1),
    ),
    databaseStorage: round(c.dbStorageGiB * RDS_GP3_USD_PER_GB_MONTH * (c.multiAz ? 2 : 1)),
    egress: round(
      c.egress === "nat" ? m(NAT_GATEWAY_USD_PER_HOUR + PUBLIC_IPV4_USD_PER_HOUR) : m(PUBLIC_IPV4_USD_PER_HOUR),
    ),
    // An ALB in two zones holds a public IPv4 address in each.
    loadBalancer: round(c.loadBalancer ? m(ALB_USD_PER_HOUR + ALB_LCU_USD_PER_HOUR + 2 * PUBLIC_IPV4_USD_PER_HOUR) : 0),
    secrets: round(c.secrets * SECRET_USD_PER_MONTH),
  };
  return {
    usdPerMonth: round(Object.values(breakdown).reduce((a, b) => a + b, 0)),
    breakdown,
    pricesAsOf: PRICES_AS_OF,
    assumptions: [
      "on-demand prices, us-east-1, 730 hours a month",
      "data processed by the NAT gateway ($0.045/GB) and the load balancer beyond one LCU not counted; S3 reads of the poll through the gateway endpoint are requests only",
      "automated backups up to the database's size are free; snapshots beyond it are not counted",
    ],
  };
}
