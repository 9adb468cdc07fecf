import type { ClusterDescription } from "../model/cluster-description.js";
import type { StorageSpec } from "../model/scenario.js";

/** EBS device names infra attaches: on Nitro they appear as NVMe devices that report this name in their controller data. */
export const DATA_DEVICE = "sdf";
export const LOG_DEVICE = "sdg";

export interface EbsBlockDevice {
  deviceName: string;
  volumeType: string;
  volumeSize: number;
  iops?: number;
  encrypted: true;
  deleteOnTermination: true;
}

export interface VolumeLayout {
  /** What the boot command mounts where (cluster.json `storage`). */
  storage: ClusterDescription["storage"];
  /** What EC2 attaches to each data node. */
  ebs: EbsBlockDevice[];
}

/**
 * The data volume (instance store or EBS) on /data and, when the preset puts the commitlog / journal on its own
 * device (seed 004), a gp3 log volume on /log. Pure: the component attaches, the boot command mounts.
 */
export function volumeLayout(storage: StorageSpec, logVolume: boolean, logVolumeGiB = 100): VolumeLayout {
  const ebs: EbsBlockDevice[] = [];
  if (storage.kind === "ebs") {
    ebs.push({ deviceName: `/dev/${DATA_DEVICE}`, volumeType: storage.ebsType ?? "gp3", volumeSize: storage.sizeGiB!, ...(storage.iops ? { iops: storage.iops } : {}), encrypted: true, deleteOnTermination: true });
  }
  if (logVolume) ebs.push({ deviceName: `/dev/${LOG_DEVICE}`, volumeType: "gp3", volumeSize: logVolumeGiB, encrypted: true, deleteOnTermination: true });
  return {
    storage: {
      data: storage.kind === "instance-store" ? { kind: "instance-store" } : { kind: "ebs", device: DATA_DEVICE },
      dataDir: "/data",
      ...(logVolume ? { log: { device: LOG_DEVICE }, logDir: "/log" } : {}),
    },
    ebs,
  };
}
