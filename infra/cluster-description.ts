import type { MongoTopology } from "../engines/node-context.js";
import { CLUSTER_DESCRIPTION_VERSION, type ClusterDescription } from "../model/cluster-description.js";
import { instanceType } from "../model/instance-types.js";
import type { Deployment } from "../model/scenario.js";
import type { VolumeLayout } from "./volumes.js";

/** The run's cluster description (runs/<id>/cluster.json), from the plain values of a planned scenario. Pure. */
export function clusterDescription(a: {
  runId: string;
  stack?: string;
  deployment: Deployment;
  version: string;
  nodeIps: string[];
  clientIps: string[];
  storage: VolumeLayout["storage"];
  mongoTopology?: MongoTopology;
  serverSettings: Record<string, string>;
  region: string;
  bucket: string;
  parameterPath: string;
  kit: { sha256: string; version: string };
  /** The AMI every instance runs (recorded in results). */
  ami?: string;
  lifetime: ClusterDescription["lifetime"];
  /** What each role's instance is billed for beside its hours (infra/volumes.ts instanceBilling). */
  billing?: ClusterDescription["billing"];
}): ClusterDescription {
  const d = a.deployment;
  const data = instanceType(d.dataInstanceType, "dataInstanceType");
  return {
    descriptionVersion: CLUSTER_DESCRIPTION_VERSION,
    runId: a.runId,
    scenario: d.scenario,
    ...(a.stack ? { stack: a.stack } : {}),
    engine: d.engine,
    version: a.version,
    preset: d.preset,
    loadPreset: d.loadPreset,
    replication: d.replication,
    recordCount: d.recordCount,
    fieldCount: d.fieldCount,
    ...(a.mongoTopology ? { mongoTopology: a.mongoTopology } : {}),
    serverSettings: a.serverSettings,
    ...(Object.keys(d.study ?? {}).length > 0 ? { study: d.study as ClusterDescription["study"] } : {}),
    region: a.region,
    bucket: a.bucket,
    parameterPath: a.parameterPath,
    nodes: a.nodeIps.map((address, index) => ({
      index,
      address,
      instanceType: d.dataInstanceType,
      memoryGiB: data.memoryGiB,
      vcpus: data.vcpus,
    })),
    clients: a.clientIps.map((address, index) => ({ index, address, instanceType: d.clientInstanceType })),
    storage: a.storage,
    kit: { sha256: a.kit.sha256, version: a.kit.version },
    ...(a.billing ? { billing: a.billing } : {}),
    ...(a.ami ? { ami: a.ami } : {}),
    lifetime: a.lifetime,
  };
}
