import { type InstanceType, instanceStoreGB, instanceType } from "../model/instance-types.js";
import type { Deployment, StorageSpec } from "../model/scenario.js";

/**
 * Does a deployment's data fit on its data nodes? Data per node = records x record size x replication / nodes, and
 * it must leave room for compaction: size-tiered compaction can need as much free space again as the data it
 * compacts (Cassandra docs, "Compaction": STCS "may need 50% free disk space"), so we ask for twice the data.
 */
export const COMPACTION_HEADROOM = 2;

export interface FitProblem {
  field: string;
  message: string;
}

export const GB = 1e9;

export function dataBytesPerNode(d: Pick<Deployment, "recordCount" | "recordBytes" | "replication" | "nodes">): number {
  return (d.recordCount * d.recordBytes * d.replication) / d.nodes;
}

/** Capacity in GB of the data volume a node gets. */
export function dataCapacityGB(type: InstanceType, storage: StorageSpec): number {
  if (storage.kind === "instance-store") return instanceStoreGB(type);
  return (storage.sizeGiB ?? 0) * 1.073741824;
}

export function checkStorage(storage: StorageSpec, type: InstanceType): FitProblem[] {
  const problems: FitProblem[] = [];
  if (storage.kind === "instance-store" && instanceStoreGB(type) === 0) {
    problems.push({
      field: "dataNode.storage",
      message: `${type.name} has no instance store; use kind "ebs" or a type with local disks (e.g. m6id, i4i)`,
    });
  }
  if (storage.kind === "ebs") {
    if (!storage.sizeGiB || storage.sizeGiB < 1)
      problems.push({ field: "dataNode.storage.sizeGiB", message: "an EBS data volume needs sizeGiB >= 1" });
    if (storage.ebsType === "io2" && !storage.iops)
      problems.push({ field: "dataNode.storage.iops", message: "io2 needs provisioned iops" });
    // gp3: 3000-16000 IOPS (EBS user guide, "General Purpose SSD volumes").
    if (
      storage.iops !== undefined &&
      (storage.ebsType ?? "gp3") === "gp3" &&
      (storage.iops < 3000 || storage.iops > 16000)
    ) {
      problems.push({ field: "dataNode.storage.iops", message: `gp3 iops must be 3000..16000, got ${storage.iops}` });
    }
  }
  return problems;
}

/** Every reason the deployment does not fit its machines (empty when it does). */
export function checkFit(d: Deployment, storage: StorageSpec): FitProblem[] {
  let data: InstanceType;
  try {
    data = instanceType(d.dataInstanceType, "dataNode.instanceType");
  } catch (e) {
    return [{ field: "dataNode.instanceType", message: (e as Error).message.replace(/^dataNode\.instanceType: /, "") }];
  }
  try {
    instanceType(d.clientInstanceType, "clientNode.instanceType");
  } catch (e) {
    return [
      { field: "clientNode.instanceType", message: (e as Error).message.replace(/^clientNode\.instanceType: /, "") },
    ];
  }
  const problems = checkStorage(storage, data);
  if (problems.length) return problems;
  const needGB = (dataBytesPerNode(d) * COMPACTION_HEADROOM) / GB;
  const haveGB = dataCapacityGB(data, storage);
  if (needGB > haveGB) {
    problems.push({
      field: "records",
      message:
        `${d.recordCount} records of ${d.recordBytes} B x replication ${d.replication} over ${d.nodes} node(s) need ` +
        `${needGB.toFixed(1)} GB per node with compaction headroom; ${d.dataInstanceType} ${storage.kind} holds ${haveGB.toFixed(1)} GB ` +
        `(instance too small for the records: choose a larger dataNode.instanceType, more nodes, or a smaller scale)`,
    });
  }
  return problems;
}
