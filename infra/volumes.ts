import type { ClusterDescription } from "../model/cluster-description.js";
import type { BilledVolume, InstanceBilling } from "../model/instance-billing.js";
import type { StorageSpec } from "../model/scenario.js";

/** EBS device names infra attaches: on Nitro they appear as NVMe devices that report this name in their controller data. */
export const DATA_DEVICE = "sdf";
export const LOG_DEVICE = "sdg";
/** The encrypted gp3 root volume every instance gets (infra/instance-role.ts SAFE_INSTANCE_DEFAULTS). */
export const ROOT_VOLUME_GIB = 30;

export interface EbsBlockDevice {
  deviceName: string;
  volumeType: string;
  volumeSize: number;
  iops?: number;
  /** gp3 throughput, MiB/s. */
  throughput?: number;
  encrypted: true;
  deleteOnTermination: true;
}

export interface VolumeLayout {
  /** What the boot command mounts where (cluster.json `storage`). */
  storage: ClusterDescription["storage"];
  /** What EC2 attaches to each data node. */
  ebs: EbsBlockDevice[];
}

/** The separate commit log / journal volume: gp3, its size, IOPS (3000 included) and throughput (125 MiB/s included). */
export interface LogVolumeSpec {
  sizeGiB?: number;
  iops?: number;
  throughputMiBs?: number;
}

/**
 * The data volume (instance store or EBS) on /data and, when the study put the commit log / journal on its own
 * device (model/scenario.ts ownLogDevice), a gp3 log volume on /log. Pure: the component attaches, the boot command
 * mounts.
 */
export function volumeLayout(storage: StorageSpec, logVolume: boolean, log: LogVolumeSpec = {}): VolumeLayout {
  const ebs: EbsBlockDevice[] = [];
  if (storage.kind === "ebs") {
    ebs.push({
      deviceName: `/dev/${DATA_DEVICE}`,
      volumeType: storage.ebsType ?? "gp3",
      volumeSize: storage.sizeGiB!,
      ...(storage.iops ? { iops: storage.iops } : {}),
      ...(storage.throughputMiBs ? { throughput: storage.throughputMiBs } : {}),
      encrypted: true,
      deleteOnTermination: true,
    });
  }
  if (logVolume) {
    ebs.push({
      deviceName: `/dev/${LOG_DEVICE}`,
      volumeType: "gp3",
      volumeSize: log.sizeGiB ?? 100,
      ...(log.iops ? { iops: log.iops } : {}),
      ...(log.throughputMiBs ? { throughput: log.throughputMiBs } : {}),
      encrypted: true,
      deleteOnTermination: true,
    });
  }
  return {
    storage: {
      data: storage.kind === "instance-store" ? { kind: "instance-store" } : { kind: "ebs", device: DATA_DEVICE },
      dataDir: "/data",
      ...(logVolume ? { log: { device: LOG_DEVICE }, logDir: "/log" } : {}),
    },
    ebs,
  };
}

/**
 * What each role's instance is billed for beside its hours, as the stack launches it: the root volume, a data node's
 * EBS volumes of its layout, and a public IPv4 address each unless the fleet egresses through a NAT gateway
 * (infra/network.ts). Written in cluster.json; each instance reports its role's (model/instance-billing.ts).
 */
export function instanceBilling(
  layout: VolumeLayout,
  egress: "public-ip" | "nat",
): { data: InstanceBilling; client: InstanceBilling } {
  const root: BilledVolume = { type: "gp3", sizeGiB: ROOT_VOLUME_GIB };
  const billed = (e: EbsBlockDevice): BilledVolume => ({
    type: e.volumeType === "io2" ? "io2" : "gp3",
    sizeGiB: e.volumeSize,
    ...(e.iops ? { iops: e.iops } : {}),
    ...(e.throughput ? { throughputMiBs: e.throughput } : {}),
  });
  const publicIpv4 = egress === "public-ip";
  return {
    data: { volumes: [root, ...layout.ebs.map(billed)], publicIpv4 },
    client: { volumes: [root], publicIpv4 },
  };
}
