/**
 * The EC2 instance types the scenarios use (and the retired ones the studies named), with the sizes infra needs to
 * check a deployment fits and the on-demand price used for the "estimated cost per hour" output.
 * Sizes: AWS "Amazon EC2 instance types" specifications pages. Prices: on-demand Linux, us-east-1, read from the
 * AWS EC2 on-demand pricing page on PRICES_AS_OF; other regions cost more or less, so the output says "estimate".
 */
export const INSTANCE_TYPE_SOURCE = "https://docs.aws.amazon.com/ec2/latest/instancetypes/instance-types.html";
export const PRICE_SOURCE = "https://aws.amazon.com/ec2/pricing/on-demand/ (Linux, us-east-1)";
export const PRICES_AS_OF = "2025-06-01";

export interface InstanceType {
  name: string;
  vcpus: number;
  memoryGiB: number;
  /** Local instance-store disks (NVMe or SSD); none means EBS only. */
  instanceStore?: { disks: number; diskGB: number; nvme: boolean };
  /** On-demand USD per hour, us-east-1, as of PRICES_AS_OF; absent for retired types. */
  usdPerHour?: number;
  /** Retired generations the studies used: never launched, only named as the original. */
  retired?: boolean;
  /** For a retired type: the current type ycsb-lab uses in its place. */
  replacedBy?: string;
}

const t = (x: InstanceType): InstanceType => x;

export const INSTANCE_TYPES: Record<string, InstanceType> = {
  "m6i.large": t({ name: "m6i.large", vcpus: 2, memoryGiB: 8, usdPerHour: 0.096 }),
  "c6i.large": t({ name: "c6i.large", vcpus: 2, memoryGiB: 4, usdPerHour: 0.085 }),
  "c6i.xlarge": t({ name: "c6i.xlarge", vcpus: 4, memoryGiB: 8, usdPerHour: 0.17 }),
  "c6i.2xlarge": t({ name: "c6i.2xlarge", vcpus: 8, memoryGiB: 16, usdPerHour: 0.34 }),
  "m5.xlarge": t({ name: "m5.xlarge", vcpus: 4, memoryGiB: 16, usdPerHour: 0.192 }),
  "m5d.xlarge": t({
    name: "m5d.xlarge",
    vcpus: 4,
    memoryGiB: 16,
    instanceStore: { disks: 1, diskGB: 150, nvme: true },
    usdPerHour: 0.226,
  }),
  "m6id.4xlarge": t({
    name: "m6id.4xlarge",
    vcpus: 16,
    memoryGiB: 64,
    instanceStore: { disks: 1, diskGB: 950, nvme: true },
    usdPerHour: 0.9492,
  }),
  "i4i.xlarge": t({
    name: "i4i.xlarge",
    vcpus: 4,
    memoryGiB: 32,
    instanceStore: { disks: 1, diskGB: 937, nvme: true },
    usdPerHour: 0.343,
  }),
  "i4i.4xlarge": t({
    name: "i4i.4xlarge",
    vcpus: 16,
    memoryGiB: 128,
    instanceStore: { disks: 1, diskGB: 3750, nvme: true },
    usdPerHour: 1.373,
  }),
  // Retired types named by seeds 000/001 (previous-generation instance pages).
  "m1.xlarge": t({
    name: "m1.xlarge",
    vcpus: 4,
    memoryGiB: 15,
    instanceStore: { disks: 4, diskGB: 420, nvme: false },
    retired: true,
    replacedBy: "m5d.xlarge",
  }),
  "i2.xlarge": t({
    name: "i2.xlarge",
    vcpus: 4,
    memoryGiB: 30.5,
    instanceStore: { disks: 1, diskGB: 800, nvme: false },
    retired: true,
    replacedBy: "i4i.xlarge",
  }),
  "c3.xlarge": t({
    name: "c3.xlarge",
    vcpus: 4,
    memoryGiB: 7.5,
    instanceStore: { disks: 2, diskGB: 40, nvme: false },
    retired: true,
    replacedBy: "c6i.xlarge",
  }),
};

export class UnknownInstanceTypeError extends Error {
  constructor(
    readonly field: string,
    name: string,
  ) {
    super(
      `${field}: instance type "${name}" is not in model/instance-types.ts (known: ${Object.keys(INSTANCE_TYPES).join(", ")})`,
    );
  }
}

/** Look up a launchable type; a retired one fails naming its replacement. */
export function instanceType(name: string, field = "instanceType"): InstanceType {
  const found = Object.hasOwn(INSTANCE_TYPES, name) ? INSTANCE_TYPES[name] : undefined;
  if (!found) throw new UnknownInstanceTypeError(field, name);
  if (found.retired) throw new Error(`${field}: ${name} is retired; use ${found.replacedBy ?? "a current type"}`);
  return found;
}

/** Total local instance-store capacity in GB (0 when EBS only). */
export function instanceStoreGB(type: InstanceType): number {
  return type.instanceStore ? type.instanceStore.disks * type.instanceStore.diskGB : 0;
}

/** gp3 storage, USD per GB-month, us-east-1 (https://aws.amazon.com/ebs/pricing/), as of PRICES_AS_OF; IOPS above 3000 extra. */
export const EBS_GP3_USD_PER_GB_MONTH = 0.08;
/** io2 storage, USD per GB-month, us-east-1, as of PRICES_AS_OF (its IOPS billed on top: EBS_IO2_IOPS_TIERS). */
export const EBS_IO2_USD_PER_GB_MONTH = 0.125;
/** gp3 IOPS and throughput included in the storage price (https://aws.amazon.com/ebs/pricing/). */
export const EBS_GP3_INCLUDED = { iops: 3000, throughputMiBs: 125 } as const;
/** gp3 IOPS provisioned above the included, USD per IOPS-month, us-east-1 (same page), as of PRICES_AS_OF. */
export const EBS_GP3_USD_PER_IOPS_MONTH = 0.005;
/** gp3 throughput provisioned above the included, USD per MiB/s-month, us-east-1 (same page), as of PRICES_AS_OF. */
export const EBS_GP3_USD_PER_MIBS_MONTH = 0.04;
/** io2 provisioned IOPS, USD per IOPS-month by tier (the first 32,000, the next 32,000, the rest), same page. */
export const EBS_IO2_IOPS_TIERS = [
  { upTo: 32_000, usdPerIopsMonth: 0.065 },
  { upTo: 64_000, usdPerIopsMonth: 0.0455 },
  { upTo: Number.POSITIVE_INFINITY, usdPerIopsMonth: 0.032 },
] as const;
/** AWS bills EBS per GB-month of 730 hours. */
export const HOURS_PER_MONTH = 730;
/** Every public IPv4 address, in use or not, USD per hour (https://aws.amazon.com/vpc/pricing/, since 2024-02-01). */
export const PUBLIC_IPV4_USD_PER_HOUR = 0.005;
/** S3 Standard requests, USD per 1,000, us-east-1 (https://aws.amazon.com/s3/pricing/): PUT, COPY, POST, LIST... */
export const S3_PUT_LIST_USD_PER_1000 = 0.005;
/** ...and GET, SELECT and the others. */
export const S3_GET_USD_PER_1000 = 0.0004;
