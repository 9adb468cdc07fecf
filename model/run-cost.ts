import type { BilledVolume, InstanceBilling } from "./instance-billing.js";
import type { InstanceStatus } from "./instance-status.js";
import {
  EBS_GP3_INCLUDED,
  EBS_GP3_USD_PER_GB_MONTH,
  EBS_GP3_USD_PER_IOPS_MONTH,
  EBS_GP3_USD_PER_MIBS_MONTH,
  EBS_IO2_IOPS_TIERS,
  EBS_IO2_USD_PER_GB_MONTH,
  HOURS_PER_MONTH,
  INSTANCE_TYPES,
  PRICE_SOURCE,
  PRICES_AS_OF,
  PUBLIC_IPV4_USD_PER_HOUR,
  S3_GET_USD_PER_1000,
  S3_PUT_LIST_USD_PER_1000,
} from "./instance-types.js";

/**
 * What a run cost, from the instances' own start and end (their boot status markers, model/instance-status.ts), at
 * the on-demand prices of model/instance-types.ts (one table, its date and source). EC2 Linux and EBS bill per second
 * with a 60 s minimum per instance (https://aws.amazon.com/ec2/pricing/on-demand/, "Per Second Billing").
 */
export const MINIMUM_BILLED_SECONDS = 60;

/** A run on this machine rents nothing: its figures carry no price, and say so. */
export const LOCAL_RUN_NO_PRICE = "local run: no instance was rented, so no price (prices apply to runs on AWS)";

export type Volume = BilledVolume;

/** What one instance of a role is: its type, its volumes, whether it holds a public IPv4 address. */
export interface RoleShape extends InstanceBilling {
  instanceType: string;
}

export interface InstanceSpan {
  instance: string;
  role: "data" | "client";
  startedAt: string;
  endedAt: string;
}

export interface RealizedCost {
  usd: number;
  /** The configuration under test (data nodes, their volumes and addresses), USD per hour. */
  configurationUsdPerHour: number;
  /** The whole fleet (clients too), USD per hour. */
  fleetUsdPerHour: number;
  instances: { instance: string; role: "data" | "client"; billedHours: number; usdPerHour: number; usd: number }[];
  requests: { put: number; get: number; usd: number };
  pricesAsOf: string;
  source: string;
}

/**
 * Each instance's span from its markers: from its boot (`bootedAt`, the first stage) to its last word (the later of
 * its last stage and its heartbeat). Instances that never wrote a marker cannot be priced: the error names them.
 */
export function instanceSpans(statuses: readonly InstanceStatus[]): InstanceSpan[] {
  return statuses
    .filter((s) => s.role === "data" || s.role === "client")
    .map((s) => {
      if (!s.bootedAt)
        throw new Error(`status of ${s.instance}: no bootedAt, so its start is unknown and it cannot be priced`);
      const last = [s.at, s.heartbeatAt]
        .filter((t): t is string => !!t)
        .sort()
        .at(-1)!;
      return { instance: s.instance, role: s.role as "data" | "client", startedAt: s.bootedAt, endedAt: last };
    });
}

/**
 * USD per hour of one EBS volume: its GB-month, and what it provisions beyond the included (gp3 IOPS over 3,000 and
 * throughput over 125 MiB/s; io2 every IOPS, by tier), over the 730 hours of AWS's month
 * (https://aws.amazon.com/ebs/pricing/).
 */
export function volumeUsdPerHour(v: Volume): number {
  if (v.type === "gp3") {
    const iops = Math.max((v.iops ?? 0) - EBS_GP3_INCLUDED.iops, 0);
    const throughput = Math.max((v.throughputMiBs ?? 0) - EBS_GP3_INCLUDED.throughputMiBs, 0);
    const month =
      v.sizeGiB * EBS_GP3_USD_PER_GB_MONTH +
      iops * EBS_GP3_USD_PER_IOPS_MONTH +
      throughput * EBS_GP3_USD_PER_MIBS_MONTH;
    return month / HOURS_PER_MONTH;
  }
  let iopsMonth = 0;
  let below = 0;
  for (const tier of EBS_IO2_IOPS_TIERS) {
    iopsMonth += Math.max(Math.min(v.iops ?? 0, tier.upTo) - below, 0) * tier.usdPerIopsMonth;
    below = tier.upTo;
  }
  return (v.sizeGiB * EBS_IO2_USD_PER_GB_MONTH + iopsMonth) / HOURS_PER_MONTH;
}

/** USD per hour of one instance of a shape: the instance, its volumes, its address. */
export function shapeUsdPerHour(shape: RoleShape): number {
  const price = INSTANCE_TYPES[shape.instanceType]?.usdPerHour;
  if (price === undefined)
    throw new Error(`instanceType: no price for "${shape.instanceType}" in model/instance-types.ts`);
  const extra = billingUsdPerHour(shape);
  return price + extra.volumes + extra.publicIpv4;
}

/** What an instance's volumes and address cost per hour (public IPv4: https://aws.amazon.com/vpc/pricing/). */
export function billingUsdPerHour(b: InstanceBilling): { volumes: number; publicIpv4: number } {
  return {
    volumes: b.volumes.reduce((a, v) => a + volumeUsdPerHour(v), 0),
    publicIpv4: b.publicIpv4 ? PUBLIC_IPV4_USD_PER_HOUR : 0,
  };
}

/** Seconds billed for a span: per second from its start to its end, 60 s at least; an end before the start throws. */
export function billedSeconds(s: InstanceSpan): number {
  const seconds = (Date.parse(s.endedAt) - Date.parse(s.startedAt)) / 1000;
  if (!(seconds >= 0)) throw new Error(`${s.instance}: ends (${s.endedAt}) before it starts (${s.startedAt})`);
  return Math.max(seconds, MINIMUM_BILLED_SECONDS);
}

/** The run's realized cost: every instance billed from its start to its end, plus the S3 requests it made. */
export function realizedCost(
  spans: readonly InstanceSpan[],
  shapes: { data: RoleShape; client: RoleShape; dataNodes: number; clients: number },
  requests: { put: number; get: number } = { put: 0, get: 0 },
): RealizedCost {
  const hourly = { data: shapeUsdPerHour(shapes.data), client: shapeUsdPerHour(shapes.client) };
  const instances = spans.map((s) => {
    const billedHours = billedSeconds(s) / 3600;
    return {
      instance: s.instance,
      role: s.role,
      billedHours,
      usdPerHour: hourly[s.role],
      usd: billedHours * hourly[s.role],
    };
  });
  const requestsUsd = (requests.put / 1000) * S3_PUT_LIST_USD_PER_1000 + (requests.get / 1000) * S3_GET_USD_PER_1000;
  return {
    usd: instances.reduce((a, i) => a + i.usd, 0) + requestsUsd,
    configurationUsdPerHour: shapes.dataNodes * hourly.data,
    fleetUsdPerHour: shapes.dataNodes * hourly.data + shapes.clients * hourly.client,
    instances,
    requests: { ...requests, usd: requestsUsd },
    pricesAsOf: PRICES_AS_OF,
    source: PRICE_SOURCE,
  };
}

export interface PricePerformance {
  /** Sustainable ops/s for each dollar-hour of the configuration under test. */
  opsPerSecPerUsdHour: number;
  /** Dollars per million operations at the sustainable throughput. */
  usdPerMillionOps: number;
}

/** Price-performance at a sustainable throughput; undefined when nothing was sustained or nothing was priced. */
export function pricePerformance(sustainableOpsSec: number, usdPerHour: number): PricePerformance | undefined {
  if (!(sustainableOpsSec > 0) || !(usdPerHour > 0)) return undefined;
  return {
    opsPerSecPerUsdHour: sustainableOpsSec / usdPerHour,
    usdPerMillionOps: (usdPerHour / (sustainableOpsSec * 3600)) * 1e6,
  };
}

/**
 * A span as the store keeps it: the instance's type as the run recorded it for the role (null when unknown), and what
 * its markers said it is billed for beside its hours (null when they did not say: markers written before they did).
 */
export interface TypedSpan extends InstanceSpan {
  instanceType: string | null;
  billing?: InstanceBilling | null;
}

/** S3 requests are left out of every realized cost, and why. */
export const REQUESTS_NOT_COUNTED =
  "S3 requests are not counted: the store sees the objects a run left, not the requests that wrote, rewrote and " +
  "polled them (heartbeats, barrier and command polls; ycsb-lab plan --cost estimates them)";

/**
 * What a realized cost from stored spans counts, and what it leaves out: volumes and public IPv4 addresses of the
 * instances whose markers recorded them; the others are named, priced for their hours only.
 */
export function spansCostCovers(spans: readonly TypedSpan[]): string {
  const hours =
    "EC2 on-demand instance-hours from each instance's boot status markers (per second, 60 s minimum; " +
    "EBS and public IPv4 over the same seconds)";
  const unrecorded = spans.filter((s) => !s.billing).map((s) => s.instance);
  const billed =
    unrecorded.length === spans.length
      ? "volumes and public IPv4 addresses are not counted: no instance's markers recorded them"
      : "each instance's EBS volumes (storage, and IOPS and throughput provisioned beyond the included) and its " +
        "public IPv4 address, as its markers recorded them" +
        (unrecorded.length
          ? `; not counted for ${unrecorded.join(", ")}, whose markers did not record them ` +
            "(priced for their hours only)"
          : "");
  return `${hours}; ${billed}; ${REQUESTS_NOT_COUNTED}`;
}

/** One instance's realized bill: its hours, and its volumes and address when its markers recorded them (else null). */
export interface BilledInstance extends TypedSpan {
  billing: InstanceBilling | null;
  billedSeconds: number;
  usdPerHour: number;
  usd: number;
  parts: { instance: number; volumes: number | null; publicIpv4: number | null };
}

export interface SpansCost {
  usd: number;
  /** The configuration under test (the data instances): their billed dollars over the hours they stood. */
  configurationUsdPerHour: number | null;
  instances: BilledInstance[];
  covers: string;
  pricesAsOf: string;
  source: string;
}

const seconds = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 1000;

/** One span's bill at its type's price (EC2 and EBS per second, 60 s minimum), or why it cannot be priced. */
function billInstance(s: TypedSpan): BilledInstance | { statement: string } {
  const price = s.instanceType ? INSTANCE_TYPES[s.instanceType]?.usdPerHour : undefined;
  const type = s.instanceType ?? "unknown";
  if (price === undefined)
    return { statement: `${s.instance}: no price for instance type "${type}" in model/instance-types.ts` };
  let billed: number;
  try {
    billed = billedSeconds(s);
  } catch (e) {
    return { statement: (e as Error).message };
  }
  const extra = s.billing ? billingUsdPerHour(s.billing) : undefined;
  const hours = billed / 3600;
  const usdPerHour = price + (extra ? extra.volumes + extra.publicIpv4 : 0);
  return {
    ...s,
    billing: s.billing ?? null,
    billedSeconds: billed,
    usdPerHour,
    usd: hours * usdPerHour,
    parts: {
      instance: hours * price,
      volumes: extra ? hours * extra.volumes : null,
      publicIpv4: extra ? hours * extra.publicIpv4 : null,
    },
  };
}

/**
 * The realized cost of stored spans, each instance at the on-demand price of its own type, plus its volumes and
 * address when its markers recorded them. The configuration's $/h is its data instances' bill over their stand
 * (first boot to last word, 60 s at least): nodes x price when they stood together. A span of no known price makes
 * the whole run unpriced, naming it.
 */
export function spansCost(spans: readonly TypedSpan[]): SpansCost | { statement: string } {
  const instances: BilledInstance[] = [];
  for (const s of spans) {
    const bill = billInstance(s);
    if ("statement" in bill) return bill;
    instances.push(bill);
  }
  const data = instances.filter((i) => i.role === "data");
  const stood = data.length
    ? Math.max(
        seconds(
          data.map((d) => d.startedAt).sort()[0]!,
          data
            .map((d) => d.endedAt)
            .sort()
            .at(-1)!,
        ),
        MINIMUM_BILLED_SECONDS,
      )
    : 0;
  return {
    usd: instances.reduce((a, i) => a + i.usd, 0),
    configurationUsdPerHour: data.length ? data.reduce((a, d) => a + d.usd, 0) / (stood / 3600) : null,
    instances,
    covers: spansCostCovers(spans),
    pricesAsOf: PRICES_AS_OF,
    source: PRICE_SOURCE,
  };
}

/** The run's cost as the API answers it: realized from its spans, or a statement of why there is none. */
export type RunCost = ({ priced: true; basis: "realized" } & SpansCost) | { priced: false; statement: string };

export const NO_MARKERS = "no boot status markers of this run's instances were imported, so no realized cost";

export function runCost(dataInstanceType: string, spans: readonly TypedSpan[]): RunCost {
  if (dataInstanceType === "local") return { priced: false, statement: LOCAL_RUN_NO_PRICE };
  if (spans.length === 0) return { priced: false, statement: NO_MARKERS };
  const cost = spansCost(spans);
  return "statement" in cost
    ? { priced: false, statement: cost.statement }
    : { priced: true, basis: "realized", ...cost };
}
