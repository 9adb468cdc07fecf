import { expect } from "vitest";
import type { InstanceStatus } from "../../model/instance-status.js";
import { INSTANCE_TYPES } from "../../model/instance-types.js";

/**
 * By hand, from the vendors' prices (us-east-1): EBS (https://aws.amazon.com/ebs/pricing/) gp3 $0.08 per GB-month,
 * IOPS over 3,000 at $0.005 per IOPS-month, throughput over 125 MiB/s at $0.04 per MiB/s-month, 730 hours a month;
 * public IPv4 $0.005 an hour (https://aws.amazon.com/vpc/pricing/).
 */
export function extrasPerHour(s: InstanceStatus) {
  if (!s.billing) return { volumes: null, publicIpv4: null };
  const month = s.billing.volumes.reduce((a, v) => {
    expect(v.type).toBe("gp3");
    return (
      a +
      v.sizeGiB * 0.08 +
      Math.max((v.iops ?? 0) - 3000, 0) * 0.005 +
      Math.max((v.throughputMiBs ?? 0) - 125, 0) * 0.04
    );
  }, 0);
  return { volumes: month / 730, publicIpv4: s.billing.publicIpv4 ? 0.005 : 0 };
}

/** By hand: from the boot to the later of the last stage and the heartbeat, 60 s at least, at the table's price. */
export function handCost(s: InstanceStatus, type: string) {
  const end = [s.at, s.heartbeatAt]
    .filter((t): t is string => !!t)
    .sort()
    .at(-1)!;
  const seconds = (Date.parse(end) - Date.parse(s.bootedAt!)) / 1000;
  const billedSeconds = Math.max(seconds, 60);
  const hours = billedSeconds / 3600;
  const extras = extrasPerHour(s);
  const parts = {
    instance: hours * INSTANCE_TYPES[type]!.usdPerHour!,
    volumes: extras.volumes === null ? null : hours * extras.volumes,
    publicIpv4: extras.publicIpv4 === null ? null : hours * extras.publicIpv4,
  };
  return { seconds, billedSeconds, parts, usd: parts.instance + (parts.volumes ?? 0) + (parts.publicIpv4 ?? 0) };
}
