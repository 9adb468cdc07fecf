import {
  EBS_GP3_USD_PER_GB_MONTH,
  EBS_IO2_USD_PER_GB_MONTH,
  HOURS_PER_MONTH,
  INSTANCE_TYPES,
  PRICE_SOURCE,
  PRICES_AS_OF,
} from "../model/instance-types.js";

export interface CostInput {
  dataNodes: number;
  dataInstanceType: string;
  clients: number;
  clientInstanceType: string;
  /** GiB of EBS per data node by type (data + log + root). */
  dataNodeEbs: Array<{ type: "gp3" | "io2"; sizeGiB: number }>;
  clientEbsGiB: number;
}

export interface CostEstimate {
  usdPerHour: number;
  breakdown: { dataNodes: number; clients: number; ebs: number };
  pricesAsOf: string;
  source: string;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** On-demand estimate from the price table in model/instance-types.ts (us-east-1, Linux; transfer and IOPS not counted). */
export function estimateCost(c: CostInput): CostEstimate {
  const price = (name: string) => {
    const p = INSTANCE_TYPES[name]?.usdPerHour;
    if (p === undefined) throw new Error(`instanceType: no price for "${name}" in model/instance-types.ts`);
    return p;
  };
  const ebsPerGbHour = (t: "gp3" | "io2") => (t === "io2" ? EBS_IO2_USD_PER_GB_MONTH : EBS_GP3_USD_PER_GB_MONTH) / HOURS_PER_MONTH;
  const dataNodes = c.dataNodes * price(c.dataInstanceType);
  const clients = c.clients * price(c.clientInstanceType);
  const ebs =
    c.dataNodes * c.dataNodeEbs.reduce((sum, v) => sum + v.sizeGiB * ebsPerGbHour(v.type), 0) + c.clients * c.clientEbsGiB * ebsPerGbHour("gp3");
  return {
    usdPerHour: round(dataNodes + clients + ebs),
    breakdown: { dataNodes: round(dataNodes), clients: round(clients), ebs: round(ebs) },
    pricesAsOf: PRICES_AS_OF,
    source: PRICE_SOURCE,
  };
}
